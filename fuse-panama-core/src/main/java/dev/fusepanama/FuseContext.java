package dev.fusepanama;

import dev.fusepanama.internal.RequestContext;

/**
 * Who made the request being served on the current thread ({@code struct fuse_context}). Only
 * meaningful inside a {@link FuseFileSystem} method; for requests that come from page-cache
 * writeback ({@link FileInfo#writepage()}) the caller is the kernel, not a process.
 */
public interface FuseContext {
    int uid();
    int gid();
    /** The calling thread's id (the process id for a single-threaded caller), as the kernel reports it. */
    int pid();
    /** The caller's umask, already applied by the kernel to modes of mkdir/create/mknod. */
    int umask();

    /** The caller's supplementary groups (read from /proc by libfuse; costs a file read). */
    int[] groups();

    /** Whether the caller has given up on the request (needs {@link MountOptions.Builder#interrupts}). */
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
