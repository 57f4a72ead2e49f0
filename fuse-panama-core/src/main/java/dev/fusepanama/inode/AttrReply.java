package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/** An inode's attributes: the answer of getattr and setattr. */
public interface AttrReply extends Reply {
    /**
     * The attributes to send; zeroed for each request. A view of the reply's memory, valid until
     * the answer is sent; after {@link #defer()} call this again.
     *
     * @return the attributes to fill
     */
    Stat attributes();

    /**
     * Sends {@link #attributes()}, which the kernel may trust for {@link Timeouts#attributes()} seconds.
     *
     * @param timeouts how long the kernel may cache the attributes
     * @throws IllegalStateException if this request was already answered
     */
    void send(Timeouts timeouts);
}
