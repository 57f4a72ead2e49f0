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

    /** Whether the caller has given up on the request (a signal interrupted its system call). */
    boolean interrupted();
}
