package dev.fusepanama.inode;

import java.nio.ByteBuffer;

/**
 * Bytes: the answer of read, getxattr with a buffer, and listxattr with a buffer. For read,
 * fewer bytes than asked for mean the end of the file.
 */
public interface DataReply extends Reply {
    /** Sends the remaining bytes of {@code data} (copied before this returns; the buffer's position is not moved). */
    void data(ByteBuffer data);

    /** Sends {@code length} bytes of {@code data} from {@code offset}. */
    void data(byte[] data, int offset, int length);
}
