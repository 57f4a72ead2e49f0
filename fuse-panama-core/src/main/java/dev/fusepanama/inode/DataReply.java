package dev.fusepanama.inode;

import java.nio.ByteBuffer;

/**
 * Bytes: the answer of read, getxattr with a buffer, and listxattr with a buffer. For read,
 * fewer bytes than asked for mean the end of the file.
 */
public interface DataReply extends Reply {
    /**
     * Sends the remaining bytes of {@code data} (copied before this returns; the buffer's position is not moved).
     *
     * @param data the bytes to send, heap or direct
     * @throws IllegalStateException if this request was already answered
     */
    void data(ByteBuffer data);

    /**
     * Sends {@code length} bytes of {@code data} from {@code offset}.
     *
     * @param data the array that holds the bytes
     * @param offset the index of the first byte to send
     * @param length how many bytes to send
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} are not within {@code data}
     * @throws IllegalStateException if this request was already answered
     */
    void data(byte[] data, int offset, int length);
}
