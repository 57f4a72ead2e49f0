package dev.fusepanama.inode;

import java.nio.ByteBuffer;

/** Bytes: the answer of read. Fewer bytes than asked for mean the end of the file. */
public interface DataReply extends Reply {
    /** Sends the remaining bytes of {@code data} (copied before this returns). */
    void data(ByteBuffer data);
}
