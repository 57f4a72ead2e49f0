package dev.fusepanama;

import dev.fusepanama.internal.RequestContext;

/**
 * Who made a request: on the path API the one being served on the current thread
 * ({@link #current()}, libfuse's {@code struct fuse_context}), on the inode API the
 * {@link dev.fusepanama.inode.Request} each method receives, which extends this. For requests
 * that come from page-cache writeback ({@link FileInfo#writepage()}) the caller is the kernel,
 * not a process.
 */
public interface FuseContext {
    /**
     * The caller's filesystem user id (its effective uid unless it changed its fsuid), as the
     * mount's user namespace sees it.
     *
     * @return the uid
     */
    int uid();

    /**
     * The caller's filesystem group id (its effective gid unless it changed its fsgid), as the
     * mount's user namespace sees it.
     *
     * @return the gid
     */
    int gid();

    /**
     * The calling thread's id (the process id for a single-threaded caller), as the kernel reports it.
     *
     * @return the thread id, 0 if the caller is outside the PID namespace the mount was made in
     */
    int pid();
    /**
     * The caller's umask, already applied by the kernel to the modes of mkdir, create and mknod
     * (unless the filesystem negotiated {@code dont_mask}).
     *
     * @return the umask's permission bits, e.g. 022
     */
    int umask();

    /**
     * The caller's supplementary groups, read from {@code /proc} by libfuse (costs a file read);
     * empty where they cannot be read (the caller is gone). Never null.
     *
     * @return the group ids, the caller's to keep
     */
    int[] groups();

    /**
     * Whether the caller has given up on the request: a signal interrupted its system call. On the
     * path API it needs {@link MountOptions.Builder#interrupts}.
     *
     * @return true once the kernel sent an interrupt for the request
     */
    boolean interrupted();

    /**
     * The context of the request on this thread; reading it costs one short native call.
     * The object is the thread's own, reused: read it during the request.
     *
     * @return the caller of the request being served on this thread
     * @throws IllegalStateException when called outside a filesystem method (no request on this thread)
     */
    static FuseContext current() {
        return RequestContext.current();
    }
}
