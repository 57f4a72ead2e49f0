/*
 * The C pass-through the Java MirrorFileSystem is compared with: libfuse 3's high-level API,
 * the same operations, the same options, each one system call relative to a descriptor of the
 * source (in the manner of libfuse's example/passthrough_fh.c). Unlike the Java mirror it does
 * not defend against a source changed underneath (no openat2 RESOLVE_BENEATH): the cheapest
 * honest C, so the comparison shows what containment costs. With --contained it pays what the
 * Java mirror pays: a name below the top directory has its parent opened with openat2
 * (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) and closed after the call, and
 * open, create and opendir resolve the whole path with openat2.
 *
 * Usage: mirrorfs3 [--no-splice] [--contained] SOURCE MOUNTPOINT   (foreground; ends on fusermount3 -u or SIGTERM)
 * Options: default_permissions, attr/entry/negative timeouts 0, hard_remove, nullpath_ok, use_ino.
 * With splice (the default) read_buf answers with the file range and write_buf splices into the
 * file, and init asks for SPLICE_READ/WRITE/MOVE; with --no-splice read/write go through memory.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <fuse.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

static int source = -1;
static int splice_on = 1;
static int contained = 0;

/* "/a/b" -> "a/b", "/" -> "." */
static const char *rel(const char *path) { return path[1] ? path + 1 : "."; }
#define R(call) ((call) < 0 ? -errno : 0)

#define RESOLVE_CONTAINED (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)

/* Where a path's call goes: the directory descriptor and the name relative to it. */
struct at { int dir; const char *name; char parent[PATH_MAX]; };

/* Without --contained: the source and the whole relative path. With it: a top-level name stays
 * relative to the source; a deeper one gets its parent opened beneath the source, closed by put(). */
static int get(const char *p, struct at *w) {
    const char *r = rel(p);
    const char *slash = contained ? strrchr(r, '/') : NULL;
    w->dir = source;
    w->name = r;
    if (!slash) return 0;
    size_t n = (size_t) (slash - r);
    if (n >= sizeof w->parent) return -ENAMETOOLONG;
    memcpy(w->parent, r, n);
    w->parent[n] = 0;
    struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .resolve = RESOLVE_CONTAINED };
    int fd = (int) syscall(SYS_openat2, source, w->parent, &how, sizeof how);
    if (fd < 0) return -errno;
    w->dir = fd;
    w->name = slash + 1;
    return 0;
}
static void put(struct at *w) { if (w->dir != source) close(w->dir); }

/* Runs EXPR (which may use w) for path P and returns its result. */
#define AT(P, EXPR) do { struct at w; int e_ = get((P), &w); if (e_) return e_; int rc_ = (EXPR); put(&w); return rc_; } while (0)

/* open, create, opendir: one openat, or with --contained one openat2 of the whole path. */
static int open_in(const char *p, int flags, mode_t mode) {
    if (!contained) return openat(source, rel(p), flags, mode);
    /* openat2 rejects flags outside VALID_OPEN_FLAGS (include/linux/fcntl.h), which openat ignores
       and the kernel's FUSE open may pass (__FMODE_EXEC): the Java mirror masks them the same way. */
    const int valid = 03 | 0100 | 0200 | 0400 | 01000 | 02000 | 04000 | 04010000 | 020000 | 040000 | 0100000
        | 0200000 | 0400000 | 01000000 | 02000000 | 010000000 | 020000000;
    struct open_how how = { .flags = (unsigned long long) (flags & valid), .resolve = RESOLVE_CONTAINED };
    if (flags & (O_CREAT | O_TMPFILE)) how.mode = mode & 07777; /* FUSE passes S_IFREG too; openat2 rejects it */
    return (int) syscall(SYS_openat2, source, rel(p), &how, sizeof how);
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    cfg->use_ino = 1; cfg->nullpath_ok = 1; cfg->hard_remove = 1;
    cfg->attr_timeout = 0; cfg->entry_timeout = 0; cfg->negative_timeout = 0;
    if (splice_on) {
        if (conn->capable & FUSE_CAP_SPLICE_WRITE) conn->want |= FUSE_CAP_SPLICE_WRITE;
        if (conn->capable & FUSE_CAP_SPLICE_MOVE) conn->want |= FUSE_CAP_SPLICE_MOVE;
        if (conn->capable & FUSE_CAP_SPLICE_READ) conn->want |= FUSE_CAP_SPLICE_READ;
    }
    if (conn->capable & FUSE_CAP_FLOCK_LOCKS) conn->want |= FUSE_CAP_FLOCK_LOCKS;
    return NULL;
}

static int op_getattr(const char *p, struct stat *st, struct fuse_file_info *fi) {
    if (fi) return R(fstat(fi->fh, st));
    AT(p, R(fstatat(w.dir, w.name, st, AT_SYMLINK_NOFOLLOW)));
}
static int readlink_in(struct at *w, char *buf, size_t size) {
    ssize_t n = readlinkat(w->dir, w->name, buf, size - 1);
    if (n < 0) return -errno;
    buf[n] = 0;
    return 0;
}
static int op_readlink(const char *p, char *buf, size_t size) { AT(p, readlink_in(&w, buf, size)); }
static int op_mknod(const char *p, mode_t mode, dev_t rdev) { AT(p, R(mknodat(w.dir, w.name, mode, rdev))); }
static int op_mkdir(const char *p, mode_t mode) { AT(p, R(mkdirat(w.dir, w.name, mode))); }
static int op_unlink(const char *p) { AT(p, R(unlinkat(w.dir, w.name, 0))); }
static int op_rmdir(const char *p) { AT(p, R(unlinkat(w.dir, w.name, AT_REMOVEDIR))); }
static int op_symlink(const char *target, const char *p) { AT(p, R(symlinkat(target, w.dir, w.name))); }
static int op_rename(const char *a, const char *b, unsigned int flags) {
    struct at from;
    int e = get(a, &from);
    if (e) return e;
    AT(b, (e = R(renameat2(from.dir, from.name, w.dir, w.name, flags)), put(&from), e));
}
static int op_link(const char *a, const char *b) {
    struct at from;
    int e = get(a, &from);
    if (e) return e;
    AT(b, (e = R(linkat(from.dir, from.name, w.dir, w.name, 0)), put(&from), e));
}
static int op_chmod(const char *p, mode_t mode, struct fuse_file_info *fi) {
    if (fi) return R(fchmod(fi->fh, mode));
    AT(p, R(fchmodat(w.dir, w.name, mode, 0)));
}
static int op_chown(const char *p, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    if (fi) return R(fchown(fi->fh, uid, gid));
    AT(p, R(fchownat(w.dir, w.name, uid, gid, AT_SYMLINK_NOFOLLOW)));
}
static int op_truncate(const char *p, off_t size, struct fuse_file_info *fi) {
    if (fi) return R(ftruncate(fi->fh, size));
    int fd = open_in(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int rc = R(ftruncate(fd, size));
    close(fd);
    return rc;
}
static int op_utimens(const char *p, const struct timespec tv[2], struct fuse_file_info *fi) {
    if (fi) return R(futimens(fi->fh, tv));
    AT(p, R(utimensat(w.dir, w.name, tv, AT_SYMLINK_NOFOLLOW)));
}
static int op_open(const char *p, struct fuse_file_info *fi) {
    int fd = open_in(p, (fi->flags & ~O_DIRECT) | O_CLOEXEC, 0);
    if (fd < 0) return -errno;
    fi->fh = fd;
    return 0;
}
static int op_create(const char *p, mode_t mode, struct fuse_file_info *fi) {
    int fd = open_in(p, (fi->flags & ~O_DIRECT) | O_CREAT | O_CLOEXEC, mode);
    if (fd < 0) return -errno;
    fi->fh = fd;
    return 0;
}
static int op_read(const char *p, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) p;
    ssize_t n = pread(fi->fh, buf, size, off);
    return n < 0 ? -errno : (int) n;
}
static int op_write(const char *p, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) p;
    ssize_t n = pwrite(fi->fh, buf, size, off);
    return n < 0 ? -errno : (int) n;
}
static int op_read_buf(const char *p, struct fuse_bufvec **bufp, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) p;
    struct fuse_bufvec *v = malloc(sizeof *v);
    if (!v) return -ENOMEM;
    *v = FUSE_BUFVEC_INIT(size);
    v->buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
    v->buf[0].fd = fi->fh;
    v->buf[0].pos = off;
    *bufp = v;
    return 0;
}
static int op_write_buf(const char *p, struct fuse_bufvec *in, off_t off, struct fuse_file_info *fi) {
    (void) p;
    struct fuse_bufvec out = FUSE_BUFVEC_INIT(fuse_buf_size(in));
    out.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
    out.buf[0].fd = fi->fh;
    out.buf[0].pos = off;
    return fuse_buf_copy(&out, in, FUSE_BUF_SPLICE_NONBLOCK);
}
static int op_statfs(const char *p, struct statvfs *st) { (void) p; return R(fstatvfs(source, st)); }
static int op_release(const char *p, struct fuse_file_info *fi) { (void) p; close(fi->fh); return 0; }
static int op_fsync(const char *p, int datasync, struct fuse_file_info *fi) {
    (void) p;
    return R(datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}
static int op_fallocate(const char *p, int mode, off_t off, off_t len, struct fuse_file_info *fi) {
    (void) p;
    return R(fallocate(fi->fh, mode, off, len));
}
static off_t op_lseek(const char *p, off_t off, int whence, struct fuse_file_info *fi) {
    (void) p;
    off_t r = lseek(fi->fh, off, whence);
    return r < 0 ? -errno : r;
}
static int op_flock(const char *p, struct fuse_file_info *fi, int op) { (void) p; return R(flock(fi->fh, op)); }

/* Extended attributes: Linux 6.13's *xattrat calls name the file as every other call does (glibc
 * 2.36 has no wrappers); before, the file is named through /proc/self/fd. The Java mirror does the
 * same, probing once at start. */
struct xattr_args_v0 { unsigned long long value; unsigned int size, flags; };
static int xattrat = 1;
static const char *xpath(char *out, struct at *w) {
    snprintf(out, PATH_MAX + 32, "/proc/self/fd/%d/%s", w->dir, w->name);
    return out;
}
static int sized(ssize_t n) { return n < 0 ? -errno : (int) n; }
static ssize_t xget(struct at *w, const char *name, char *value, size_t size) {
    char x[PATH_MAX + 32];
    if (!xattrat) return lgetxattr(xpath(x, w), name, value, size);
    struct xattr_args_v0 args = { (unsigned long long) (uintptr_t) value, (unsigned int) size, 0 };
    return syscall(464 /* getxattrat */, w->dir, w->name, AT_SYMLINK_NOFOLLOW, name, &args, sizeof args);
}
static int op_setxattr(const char *p, const char *name, const char *value, size_t size, int flags) {
    char x[PATH_MAX + 32];
    struct xattr_args_v0 args = { (unsigned long long) (uintptr_t) value, (unsigned int) size, (unsigned int) flags };
    AT(p, R(xattrat ? syscall(463 /* setxattrat */, w.dir, w.name, AT_SYMLINK_NOFOLLOW, name, &args, sizeof args)
                    : lsetxattr(xpath(x, &w), name, value, size, flags)));
}
static int op_getxattr(const char *p, const char *name, char *value, size_t size) {
    AT(p, sized(xget(&w, name, value, size)));
}
static int op_listxattr(const char *p, char *list, size_t size) {
    char x[PATH_MAX + 32];
    AT(p, sized(xattrat ? syscall(465 /* listxattrat */, w.dir, w.name, AT_SYMLINK_NOFOLLOW, list, size)
                        : llistxattr(xpath(x, &w), list, size)));
}
static int op_removexattr(const char *p, const char *name) {
    char x[PATH_MAX + 32];
    AT(p, R(xattrat ? syscall(466 /* removexattrat */, w.dir, w.name, AT_SYMLINK_NOFOLLOW, name)
                    : lremovexattr(xpath(x, &w), name)));
}

/* Directories: a DIR stream per open, positioned with the source's own offsets. */
struct dir { DIR *dp; struct dirent *entry; off_t offset; };
static int op_opendir(const char *p, struct fuse_file_info *fi) {
    int fd = open_in(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0) return -errno;
    struct dir *d = calloc(1, sizeof *d);
    if (!d || !(d->dp = fdopendir(fd))) { int e = errno; close(fd); free(d); return -e; }
    fi->fh = (uint64_t) (uintptr_t) d;
    return 0;
}
static int op_readdir(const char *p, void *buf, fuse_fill_dir_t filler, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void) p; (void) flags;
    struct dir *d = (struct dir *) (uintptr_t) fi->fh;
    if (off != d->offset) { seekdir(d->dp, off); d->entry = NULL; d->offset = off; }
    while (1) {
        if (!d->entry && !(d->entry = readdir(d->dp))) break;
        struct stat st = {0};
        st.st_ino = d->entry->d_ino;
        st.st_mode = d->entry->d_type << 12;
        if (filler(buf, d->entry->d_name, &st, d->entry->d_off, 0)) break;
        d->entry = NULL;
        d->offset = telldir(d->dp);
    }
    return 0;
}
static int op_releasedir(const char *p, struct fuse_file_info *fi) {
    (void) p;
    struct dir *d = (struct dir *) (uintptr_t) fi->fh;
    closedir(d->dp);
    free(d);
    return 0;
}

int main(int argc, char *argv[]) {
    int a = 1;
    for (; a < argc; a++) {
        if (strcmp(argv[a], "--no-splice") == 0) splice_on = 0;
        else if (strcmp(argv[a], "--contained") == 0) contained = 1;
        else break;
    }
    if (argc - a != 2) { fprintf(stderr, "usage: %s [--no-splice] [--contained] SOURCE MOUNTPOINT\n", argv[0]); return 2; }
    source = open(argv[a], O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (source < 0) { perror(argv[a]); return 2; }
    umask(0);
    struct xattr_args_v0 probe = { 0, 0, 0 };
    if (syscall(464, source, ".", AT_SYMLINK_NOFOLLOW, "user.fuse-panama.probe", &probe, sizeof probe) < 0
        && (errno == ENOSYS || errno == EPERM)) xattrat = 0;
    static struct fuse_operations ops = {
        .init = op_init, .getattr = op_getattr, .readlink = op_readlink, .mknod = op_mknod, .mkdir = op_mkdir,
        .unlink = op_unlink, .rmdir = op_rmdir, .symlink = op_symlink, .rename = op_rename, .link = op_link,
        .chmod = op_chmod, .chown = op_chown, .truncate = op_truncate, .utimens = op_utimens, .open = op_open,
        .create = op_create, .statfs = op_statfs, .release = op_release, .fsync = op_fsync,
        .setxattr = op_setxattr, .getxattr = op_getxattr, .listxattr = op_listxattr, .removexattr = op_removexattr,
        .fallocate = op_fallocate, .lseek = op_lseek, .flock = op_flock,
        .opendir = op_opendir, .readdir = op_readdir, .releasedir = op_releasedir,
    };
    if (splice_on) { ops.read_buf = op_read_buf; ops.write_buf = op_write_buf; }
    else { ops.read = op_read; ops.write = op_write; }
    char *args[] = {argv[0], "-f", "-o", "default_permissions,fsname=mirrorfs", argv[a + 1], NULL};
    return fuse_main(5, args, &ops, NULL);
}
