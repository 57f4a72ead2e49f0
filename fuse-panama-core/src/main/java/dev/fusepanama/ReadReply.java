package dev.fusepanama;

import java.nio.ByteBuffer;

/**
 * How {@link FuseFileSystem#readBuf} answers. Pointing at a file descriptor lets libfuse move
 * the data to the kernel without it entering the JVM (splice, when the connection allows).
 */
public interface ReadReply {
    /** Answer with {@code length} bytes of {@code fd} from {@code position}; fewer if the file ends. */
    void fromFd(int fd, long position, long length);

    /** Answer with a copy of {@code data}'s remaining bytes. */
    void fromBytes(ByteBuffer data);
}
