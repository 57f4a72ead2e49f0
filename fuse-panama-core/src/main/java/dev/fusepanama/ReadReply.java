package dev.fusepanama;

import java.nio.ByteBuffer;

/**
 * How {@link FuseFileSystem#readBuf} answers. Pointing at a file descriptor lets libfuse move
 * the data to the kernel without it entering the JVM (splice, when the connection allows).
 */
public interface ReadReply {
    /**
     * Answer with {@code length} bytes of {@code fd} from {@code position}; fewer if the file ends.
     * libfuse reads the descriptor after the method returns, so it must stay open until then.
     *
     * @param fd an open file descriptor to read from
     * @param position the offset in {@code fd} to read at, in bytes
     * @param length the most bytes to answer with
     * @throws IllegalStateException if this request was already answered
     */
    void fromFd(int fd, long position, long length);

    /**
     * Answer with a copy of {@code data}'s remaining bytes, which moves its position to its limit.
     *
     * @param data the bytes to answer with; fewer than the request asked for mean the end of the file
     * @throws IllegalStateException if this request was already answered
     */
    void fromBytes(ByteBuffer data);
}
