/*
 * Prints the size of every struct the Java bindings map and the offset of every field they
 * touch, as the C compiler lays them out against the fuse3 headers it is compiled with (those of
 * the release under test). LayoutTest compiles and runs this and compares each line with the
 * Java layouts it chose for the loaded release. Fields that only some releases have are printed
 * where the headers have them. FUSE_VERSION is major * 100 + minor; the patch level that
 * separates 3.14.0 from 3.14.1 (which added parallel_direct_writes) is not in the headers before
 * 3.17, so LayoutTest passes the loaded release's as FUSE_PANAMA_PATCH.
 * Output lines:
 *   arch NAME                      (the architecture it was compiled for, as Arch.displayName)
 *   version MAJOR MINOR
 *   size STRUCT BYTES
 *   offset STRUCT FIELD BYTES
 *   bit STRUCT FIELD BITINDEX      (bit fields of fuse_file_info, counted in the word at offset 4)
 */
#include "fuse_panama.h"
#include <stddef.h>
#include <string.h>

#ifndef FUSE_PANAMA_PATCH
#define FUSE_PANAMA_PATCH 0
#endif
#define HAS_PARALLEL_DIRECT_WRITES (FUSE_VERSION >= 315 || (FUSE_VERSION == 314 && FUSE_PANAMA_PATCH >= 1))

#define SIZE(s) printf("size %s %zu\n", #s, sizeof(struct s))
#define OFF(s, f) printf("offset %s %s %zu\n", #s, #f, offsetof(struct s, f))

/* Bit fields have no offsetof: set one in a zeroed struct and find the bit that changed. */
#define BIT(f) do { \
    struct fuse_file_info fi; memset(&fi, 0, sizeof fi); fi.f = 1; \
    unsigned char *p = (unsigned char *)&fi; int bit = -1; \
    for (size_t i = 0; i < sizeof fi; i++) for (int b = 0; b < 8; b++) \
        if (p[i] & (1u << b)) bit = (int)((i - 4) * 8 + b); \
    printf("bit fuse_file_info %s %d\n", #f, bit); } while (0)

#if defined(__x86_64__)
#define ARCH "x86-64"
#elif defined(__aarch64__)
#define ARCH "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH "riscv64"
#else
#define ARCH "unknown"
#endif

int main(void) {
    printf("arch %s\n", ARCH);
    printf("version %d %d\n", FUSE_MAJOR_VERSION, FUSE_MINOR_VERSION);

    SIZE(timespec); OFF(timespec, tv_sec); OFF(timespec, tv_nsec);

    SIZE(stat);
    OFF(stat, st_dev); OFF(stat, st_ino); OFF(stat, st_nlink); OFF(stat, st_mode);
    OFF(stat, st_uid); OFF(stat, st_gid); OFF(stat, st_rdev); OFF(stat, st_size);
    OFF(stat, st_blksize); OFF(stat, st_blocks);
    OFF(stat, st_atim); OFF(stat, st_mtim); OFF(stat, st_ctim);

    SIZE(statvfs);
    OFF(statvfs, f_bsize); OFF(statvfs, f_frsize); OFF(statvfs, f_blocks); OFF(statvfs, f_bfree);
    OFF(statvfs, f_bavail); OFF(statvfs, f_files); OFF(statvfs, f_ffree); OFF(statvfs, f_favail);
    OFF(statvfs, f_fsid); OFF(statvfs, f_flag); OFF(statvfs, f_namemax);

    SIZE(flock);
    OFF(flock, l_type); OFF(flock, l_whence); OFF(flock, l_start); OFF(flock, l_len); OFF(flock, l_pid);

    SIZE(fuse_file_info);
    OFF(fuse_file_info, flags); OFF(fuse_file_info, fh); OFF(fuse_file_info, lock_owner);
    OFF(fuse_file_info, poll_events);
    BIT(writepage); BIT(direct_io); BIT(keep_cache); BIT(flush); BIT(nonseekable);
    BIT(flock_release); BIT(cache_readdir);
#if FUSE_VERSION >= 311
    BIT(noflush);
#endif
#if HAS_PARALLEL_DIRECT_WRITES
    BIT(parallel_direct_writes);
#endif
#if FUSE_VERSION >= 317
    OFF(fuse_file_info, backing_id); OFF(fuse_file_info, compat_flags);
#endif

    SIZE(fuse_conn_info);
    OFF(fuse_conn_info, proto_major); OFF(fuse_conn_info, proto_minor); OFF(fuse_conn_info, max_write);
    OFF(fuse_conn_info, max_read); OFF(fuse_conn_info, max_readahead); OFF(fuse_conn_info, capable);
    OFF(fuse_conn_info, want); OFF(fuse_conn_info, max_background);
    OFF(fuse_conn_info, congestion_threshold); OFF(fuse_conn_info, time_gran);
    OFF(fuse_conn_info, reserved);
#if FUSE_VERSION >= 317
    OFF(fuse_conn_info, max_backing_stack_depth); OFF(fuse_conn_info, capable_ext); OFF(fuse_conn_info, want_ext);
#endif
#if FUSE_VERSION >= 318
    OFF(fuse_conn_info, request_timeout);
#endif

    SIZE(fuse_config);
    OFF(fuse_config, set_gid); OFF(fuse_config, gid); OFF(fuse_config, set_uid); OFF(fuse_config, uid);
    OFF(fuse_config, set_mode); OFF(fuse_config, umask); OFF(fuse_config, entry_timeout);
    OFF(fuse_config, negative_timeout); OFF(fuse_config, attr_timeout); OFF(fuse_config, intr);
    OFF(fuse_config, intr_signal); OFF(fuse_config, remember); OFF(fuse_config, hard_remove);
    OFF(fuse_config, use_ino); OFF(fuse_config, readdir_ino); OFF(fuse_config, direct_io);
    OFF(fuse_config, kernel_cache); OFF(fuse_config, auto_cache);
    OFF(fuse_config, ac_attr_timeout_set); OFF(fuse_config, ac_attr_timeout);
    OFF(fuse_config, nullpath_ok); OFF(fuse_config, show_help); OFF(fuse_config, modules);
    OFF(fuse_config, debug);
#if FUSE_VERSION >= 311
    OFF(fuse_config, no_rofd_flush);
#endif
#if HAS_PARALLEL_DIRECT_WRITES
    OFF(fuse_config, parallel_direct_writes);
#endif
#if FUSE_VERSION >= 317
    OFF(fuse_config, fmask); OFF(fuse_config, dmask); OFF(fuse_config, flags); OFF(fuse_config, reserved);
#endif

    SIZE(fuse_context);
    OFF(fuse_context, fuse); OFF(fuse_context, uid); OFF(fuse_context, gid); OFF(fuse_context, pid);
    OFF(fuse_context, private_data); OFF(fuse_context, umask);

    SIZE(fuse_buf);
    OFF(fuse_buf, size); OFF(fuse_buf, flags); OFF(fuse_buf, mem); OFF(fuse_buf, fd); OFF(fuse_buf, pos);
#if FUSE_VERSION >= 317
    OFF(fuse_buf, mem_size);
#endif

    SIZE(fuse_bufvec);
    OFF(fuse_bufvec, count); OFF(fuse_bufvec, idx); OFF(fuse_bufvec, off); OFF(fuse_bufvec, buf);

    SIZE(fuse_args);
    OFF(fuse_args, argc); OFF(fuse_args, argv); OFF(fuse_args, allocated);

#if FUSE_VERSION >= 312
    SIZE(fuse_loop_config_v1);
    OFF(fuse_loop_config_v1, clone_fd); OFF(fuse_loop_config_v1, max_idle_threads);
#else
    /* Before 3.12 the v1 struct was public as struct fuse_loop_config. */
    printf("size fuse_loop_config_v1 %zu\n", sizeof(struct fuse_loop_config));
    printf("offset fuse_loop_config_v1 clone_fd %zu\n", offsetof(struct fuse_loop_config, clone_fd));
    printf("offset fuse_loop_config_v1 max_idle_threads %zu\n", offsetof(struct fuse_loop_config, max_idle_threads));
#endif

    SIZE(fuse_operations);
    OFF(fuse_operations, getattr); OFF(fuse_operations, readlink); OFF(fuse_operations, mknod);
    OFF(fuse_operations, mkdir); OFF(fuse_operations, unlink); OFF(fuse_operations, rmdir);
    OFF(fuse_operations, symlink); OFF(fuse_operations, rename); OFF(fuse_operations, link);
    OFF(fuse_operations, chmod); OFF(fuse_operations, chown); OFF(fuse_operations, truncate);
    OFF(fuse_operations, open); OFF(fuse_operations, read); OFF(fuse_operations, write);
    OFF(fuse_operations, statfs); OFF(fuse_operations, flush); OFF(fuse_operations, release);
    OFF(fuse_operations, fsync); OFF(fuse_operations, setxattr); OFF(fuse_operations, getxattr);
    OFF(fuse_operations, listxattr); OFF(fuse_operations, removexattr); OFF(fuse_operations, opendir);
    OFF(fuse_operations, readdir); OFF(fuse_operations, releasedir); OFF(fuse_operations, fsyncdir);
    OFF(fuse_operations, init); OFF(fuse_operations, destroy); OFF(fuse_operations, access);
    OFF(fuse_operations, create); OFF(fuse_operations, lock); OFF(fuse_operations, utimens);
    OFF(fuse_operations, bmap); OFF(fuse_operations, ioctl); OFF(fuse_operations, poll);
    OFF(fuse_operations, write_buf); OFF(fuse_operations, read_buf); OFF(fuse_operations, flock);
    OFF(fuse_operations, fallocate); OFF(fuse_operations, copy_file_range); OFF(fuse_operations, lseek);
#if FUSE_VERSION >= 318
    OFF(fuse_operations, statx);
#endif

    SIZE(fuse_lowlevel_ops);
    OFF(fuse_lowlevel_ops, init); OFF(fuse_lowlevel_ops, destroy); OFF(fuse_lowlevel_ops, lookup);
    OFF(fuse_lowlevel_ops, forget); OFF(fuse_lowlevel_ops, getattr); OFF(fuse_lowlevel_ops, setattr);
    OFF(fuse_lowlevel_ops, readlink); OFF(fuse_lowlevel_ops, mknod); OFF(fuse_lowlevel_ops, mkdir);
    OFF(fuse_lowlevel_ops, unlink); OFF(fuse_lowlevel_ops, rmdir); OFF(fuse_lowlevel_ops, symlink);
    OFF(fuse_lowlevel_ops, rename); OFF(fuse_lowlevel_ops, link); OFF(fuse_lowlevel_ops, open);
    OFF(fuse_lowlevel_ops, read); OFF(fuse_lowlevel_ops, write); OFF(fuse_lowlevel_ops, flush);
    OFF(fuse_lowlevel_ops, release); OFF(fuse_lowlevel_ops, fsync); OFF(fuse_lowlevel_ops, opendir);
    OFF(fuse_lowlevel_ops, readdir); OFF(fuse_lowlevel_ops, releasedir); OFF(fuse_lowlevel_ops, fsyncdir);
    OFF(fuse_lowlevel_ops, statfs); OFF(fuse_lowlevel_ops, setxattr); OFF(fuse_lowlevel_ops, getxattr);
    OFF(fuse_lowlevel_ops, listxattr); OFF(fuse_lowlevel_ops, removexattr); OFF(fuse_lowlevel_ops, access);
    OFF(fuse_lowlevel_ops, create); OFF(fuse_lowlevel_ops, getlk); OFF(fuse_lowlevel_ops, setlk);
    OFF(fuse_lowlevel_ops, bmap); OFF(fuse_lowlevel_ops, ioctl); OFF(fuse_lowlevel_ops, poll);
    OFF(fuse_lowlevel_ops, write_buf); OFF(fuse_lowlevel_ops, retrieve_reply); OFF(fuse_lowlevel_ops, forget_multi);
    OFF(fuse_lowlevel_ops, flock); OFF(fuse_lowlevel_ops, fallocate); OFF(fuse_lowlevel_ops, readdirplus);
    OFF(fuse_lowlevel_ops, copy_file_range); OFF(fuse_lowlevel_ops, lseek);
#if FUSE_VERSION >= 317
    OFF(fuse_lowlevel_ops, tmpfile);
#endif
#if FUSE_VERSION >= 318
    OFF(fuse_lowlevel_ops, statx);
#endif

    SIZE(statx);
    OFF(statx, stx_mask); OFF(statx, stx_blksize); OFF(statx, stx_attributes); OFF(statx, stx_nlink);
    OFF(statx, stx_uid); OFF(statx, stx_gid); OFF(statx, stx_mode); OFF(statx, stx_ino); OFF(statx, stx_size);
    OFF(statx, stx_blocks); OFF(statx, stx_attributes_mask); OFF(statx, stx_atime); OFF(statx, stx_btime);
    OFF(statx, stx_ctime); OFF(statx, stx_mtime); OFF(statx, stx_rdev_major); OFF(statx, stx_rdev_minor);
    OFF(statx, stx_dev_major); OFF(statx, stx_dev_minor); OFF(statx, stx_mnt_id); OFF(statx, stx_dio_mem_align);
    OFF(statx, stx_dio_offset_align);

    SIZE(fuse_entry_param);
    OFF(fuse_entry_param, ino); OFF(fuse_entry_param, generation); OFF(fuse_entry_param, attr);
    OFF(fuse_entry_param, attr_timeout); OFF(fuse_entry_param, entry_timeout);
    SIZE(fuse_ctx);
    OFF(fuse_ctx, uid); OFF(fuse_ctx, gid); OFF(fuse_ctx, pid); OFF(fuse_ctx, umask);
    SIZE(fuse_forget_data);
    OFF(fuse_forget_data, ino); OFF(fuse_forget_data, nlookup);
    return 0;
}
