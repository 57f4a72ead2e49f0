package dev.fusepanama.examples.mirror;

/**
 * How the mirror keeps every path it resolves beneath its source. A path the kernel sends names
 * directories it has looked up, but the source can change between that lookup and the mirror's
 * system call (a directory replaced by a link to {@code /}); each mode makes that change fail
 * the call with {@code ELOOP} instead of reaching outside. In every mode the last component is
 * used with {@code O_NOFOLLOW}/{@code AT_SYMLINK_NOFOLLOW}, so links in the source are shown as
 * links and never followed.
 */
public enum Containment {
    /**
     * A private copy of the source's mount, detached from every namespace, on which the kernel
     * follows no symbolic link at all ({@code open_tree(OPEN_TREE_CLONE)} and
     * {@code mount_setattr(MOUNT_ATTR_NOSYMFOLLOW)}; Linux 5.12, and {@code CAP_SYS_ADMIN}).
     * Every operation is one system call with the whole path, as in a pass-through without
     * containment, and {@code ..} stops at the copy's root. Mounts beneath the source are copied
     * as they are when the mirror starts; one made there later is not seen through the mirror.
     */
    PRIVATE_MOUNT,
    /**
     * {@code openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)} of the directory holding a name
     * below the top directory, then the call relative to it: an {@code openat2} and a
     * {@code close} more per such operation. Falls back to {@link #PER_COMPONENT} on a kernel
     * without openat2 (before 5.6).
     */
    OPENAT2,
    /** One {@code O_NOFOLLOW} open per directory of the path, for kernels before 5.6. */
    PER_COMPONENT
}
