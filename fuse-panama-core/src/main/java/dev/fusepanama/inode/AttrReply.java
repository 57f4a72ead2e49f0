package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/** An inode's attributes: the answer of getattr and setattr. */
public interface AttrReply extends Reply {
    /** The attributes to send; zeroed for each request. */
    Stat attributes();

    /** Sends {@link #attributes()}, which the kernel may trust for {@link Timeouts#attributes()} seconds. */
    void send(Timeouts timeouts);
}
