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
    int uid();
    int gid();
    /** The calling thread's id (the process id for a single-threaded caller), as the kernel reports it. */
    int pid();
    /**
     * The caller's umask, already applied by the kernel to the modes of mkdir, create and mknod
     * (unless the filesystem negotiated {@code dont_mask}).
     */
    int umask();

    /**
     * The caller's supplementary groups, read from {@code /proc} by libfuse (costs a file read);
     * empty where they cannot be read (the caller is gone). Never null.
     */
    int[] groups();

    /**
     * Whether the caller has given up on the request: a signal interrupted its system call. On the
     * path API it needs {@link MountOptions.Builder#interrupts}.
     */
    boolean interrupted();

    /**
     * The context of the request on this thread; reading it costs one short native call.
     *
     * @throws IllegalStateException when called outside a filesystem method (no request on this thread)
     */
    static FuseContext current() {
        return RequestContext.current();
    }
}
