package dev.fusepanama;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The data of a {@link FuseFileSystem#writeBuf} request, which may still sit in the pipe libfuse
 * spliced it into. Copy it once: to a file descriptor (spliced where the kernel can) or into memory.
 */
public interface WriteBuffer {
    /**
     * The bytes not copied yet: all of the request's data until a copy takes some.
     *
     * @return the count of bytes left
     */
    long size();

    /**
     * Copies the data to {@code fd} at {@code position} ({@code fuse_buf_copy}), splicing when possible.
     *
     * @param fd an open file descriptor to write to
     * @param position the offset in {@code fd} to write at, in bytes
     * @return bytes copied
     * @throws ErrnoException if the copy fails
     */
    long copyToFd(int fd, long position) throws IOException;

    /**
     * Copies the data into {@code destination}, as much as its remaining space takes, and moves
     * its position past what was copied. A later copy continues where this one stopped.
     *
     * @param destination the buffer to fill, heap or direct
     * @return bytes copied
     * @throws ErrnoException if the copy fails
     */
    long copyTo(ByteBuffer destination) throws IOException;
}
