package dev.fusepanama.inode;

import dev.fusepanama.StatVfs;

/** The filesystem's sizes: the answer of statfs. Fill {@link #statvfs()}, then {@link #send()}. */
public interface StatfsReply extends Reply {
    /** The struct to fill; zeroed for each request. */
    StatVfs statvfs();

    /** Sends {@link #statvfs()}. */
    void send();
}
