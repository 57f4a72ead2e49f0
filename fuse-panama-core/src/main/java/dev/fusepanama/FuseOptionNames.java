package dev.fusepanama;

import java.util.Set;

/**
 * The vocabulary of FUSE's {@code -o} options that {@link MountOptions}, {@link PathOptions} and
 * {@link KernelSettings} share, kept here so that neither reads the other's: how an option is named, the path API's own
 * settings, and the options fuse-panama has no typed setting for, by who takes them, as libfuse
 * 3.10 to 3.18 list them (lib/mount.c, lib/fuse_lowlevel.c, lib/fuse.c). What
 * {@link MountOptions#isMountOption} and {@link PathOptions#isPassedOn} answer from, so that a
 * command line can tell a typo from an option before anything is mounted.
 */
final class FuseOptionNames {
    private FuseOptionNames() {}

    /** The name of the {@code -o} option {@code option}: all of {@code NAME}, the part before the first {@code =} of {@code NAME=VALUE}. */
    static String name(String option) {
        int eq = option.indexOf('=');
        return eq < 0 ? option : option.substring(0, eq);
    }

    /**
     * The path API's own settings ({@link PathOptions}), as libfuse's command line spells them:
     * what {@link MountOptions.Builder#fuseOptions} refuses as not the mount's.
     */
    static final Set<String> PATH_SETTINGS = Set.of("hard_remove", "nullpath_ok", "use_ino", "readdir_ino");

    /**
     * The settings of {@link KernelSettings}, as libfuse's command line spells them (the path
     * API's timeouts and page-cache modes, {@code auto_inval_data}): what
     * {@link MountOptions.Builder#fuseOptions} refuses as the filesystem's, not the mount's.
     */
    static final Set<String> KERNEL_SETTINGS = Set.of("attr_timeout", "entry_timeout", "negative_timeout", "direct_io",
            "kernel_cache", "auto_cache", "noauto_cache", "auto_inval_data", "no_auto_inval_data");

    /**
     * Taken by libfuse's mount or its session for every filesystem. {@code atime}, and
     * {@code nodiratime}, {@code nostrictatime}, {@code symfollow} and {@code nosymfollow}, are
     * what some releases only know: libfuse refuses them where it does not.
     */
    static final Set<String> MOUNT = Set.of("allow_root", "auto_unmount", "blkdev", "blksize", "context", "fscontext",
            "defcontext", "rootcontext", "user", "suid", "nosuid", "dev", "nodev", "exec", "noexec", "async", "sync",
            "dirsync", "atime", "noatime", "nodiratime", "nostrictatime", "symfollow", "nosymfollow");

    /**
     * Taken by libfuse's high-level (path) API only, which applies them to the attributes it
     * passes on: a filesystem on the inode API reports owners and modes itself, and libfuse's
     * session refuses these. {@code fmask} and {@code dmask} need libfuse 3.17, {@code
     * parallel_direct_write} 3.16; {@code modules=} stacks libfuse's subdir and iconv modules,
     * whose own options follow it.
     */
    static final Set<String> PATH_API = Set.of("uid", "gid", "umask", "fmask", "dmask", "noforget", "remember",
            "no_rofd_flush", "ac_attr_timeout", "modules", "subdir", "iconv", "from_code", "to_code", "parallel_direct_write");
}
