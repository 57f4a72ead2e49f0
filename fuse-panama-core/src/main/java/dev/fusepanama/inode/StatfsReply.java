package dev.fusepanama.inode;

import dev.fusepanama.StatVfs;

/** The filesystem's sizes: the answer of statfs. Fill {@link #statvfs()}, then {@link #send}. */
public interface StatfsReply extends Reply {
    StatVfs statvfs();

    void send();
}
