package dev.fusepanama;

/**
 * The kernel's request to be told when a polled file becomes ready. Unless {@link #retain()}
 * is called during {@link FuseFileSystem#poll}, the handle is released when poll returns.
 */
public interface PollHandle {
    /**
     * Keeps the handle past the poll call, for a later {@link #notifyReady()}.
     *
     * @return this handle
     */
    PollHandle retain();

    /** Tells the kernel to poll again, and releases the handle. Call once. */
    void notifyReady();

    /** Releases a retained handle without notifying. */
    void release();
}
