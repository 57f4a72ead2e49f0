package dev.fusepanama.inode;

/**
 * Who asked. A view reused for the thread's next request: valid only during the call that
 * receives it; copy what a deferred answer needs.
 */
public interface Request {
    int uid();

    int gid();

    int pid();

    /** The caller's umask; the kernel has already applied it to the modes it sends unless {@code dont_mask} was negotiated. */
    int umask();

    /** The caller's supplementary groups, read from {@code /proc} (costs a file read; null if unavailable). */
    int[] groups();

    /**
     * Whether the caller may write to, truncate or chown a file and keep its set-ID bits: it has
     * CAP_FSETID in this process's user namespace (read from {@code /proc}: costs a file read, so
     * ask only for a file that has such bits; false when the caller is gone or in another user
     * namespace). The rule of {@link KernelCaching.Builder#handleKillprivV2}.
     */
    boolean mayKeepSetId();

    /** Whether the caller has given up on the request (a signal interrupted its system call). */
    boolean interrupted();
}
