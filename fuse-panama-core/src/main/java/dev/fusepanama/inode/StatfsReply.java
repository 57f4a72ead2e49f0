package dev.fusepanama.inode;

import dev.fusepanama.StatVfs;

/** The filesystem's sizes: the answer of statfs. Fill {@link #statvfs()}, then {@link #send()}. */
public interface StatfsReply extends Reply {
    /**
     * The struct to fill; zeroed for each request. A view of the reply's memory, valid until the
     * answer is sent; after {@link #defer()} call this again.
     *
     * @return the filesystem's sizes to fill
     */
    StatVfs statvfs();

    /**
     * Sends {@link #statvfs()}.
     *
     * @throws IllegalStateException if this request was already answered
     */
    void send();
}
