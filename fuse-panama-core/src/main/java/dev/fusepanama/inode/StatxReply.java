package dev.fusepanama.inode;

import dev.fusepanama.Statx;

/**
 * An inode's extended attributes: the answer of statx (libfuse 3.18+), which the kernel sends
 * when a {@code statx(2)} asks for more than {@code stat(2)} returns (the birth time, attribute
 * flags). Fill {@link #attributes()}, its mask saying what is filled, then {@link #send}.
 */
public interface StatxReply extends Reply {
    /**
     * The struct to fill; zeroed for each request. A view of the reply's memory, valid until the
     * answer is sent; after {@link #defer()} call this again.
     *
     * @return the extended attributes to fill
     */
    Statx attributes();

    /**
     * Sends {@link #attributes()}, which the kernel may trust for {@link Timeouts#attributes()} seconds.
     *
     * @param timeouts how long the kernel may cache the attributes
     * @throws IllegalStateException if this request was already answered
     */
    void send(Timeouts timeouts);
}
