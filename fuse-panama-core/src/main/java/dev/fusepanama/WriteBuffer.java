package dev.fusepanama;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The data of a {@link FuseFileSystem#writeBuf} request, which may still sit in the pipe libfuse
 * spliced it into. Copy it once: to a file descriptor (spliced where the kernel can) or into memory.
 */
public interface WriteBuffer {
    /** Total bytes. */
    long size();

    /**
     * Copies the data to {@code fd} at {@code position} ({@code fuse_buf_copy}), splicing when possible.
     *
     * @return bytes copied
     * @throws ErrnoException if the copy fails
     */
    long copyToFd(int fd, long position) throws IOException;

    /** Copies the data into {@code destination}; returns bytes copied. */
    long copyTo(ByteBuffer destination) throws IOException;
}
