package dev.fusepanama.inode;

import java.nio.ByteBuffer;

/**
 * The answer of ioctl: the value ioctl(2) returns to the caller and, for a command that reads
 * data back, the bytes copied to the caller's buffer (at most the request's {@code outSize}).
 * The retry protocol of unrestricted ioctls is CUSE's only and not offered.
 */
public interface IoctlReply extends Reply {
    /**
     * Answers {@code result} with no data for the caller.
     *
     * @param result what ioctl(2) returns to the caller, usually 0
     * @throws IllegalStateException if this request was already answered
     */
    void result(int result);

    /**
     * Answers {@code result} and the remaining bytes of {@code out} (which must fit the request's {@code outSize}).
     *
     * @param result what ioctl(2) returns to the caller, usually 0
     * @param out the bytes copied to the caller's buffer; sent before this returns, position not moved
     * @throws IllegalArgumentException if {@code out} has more remaining bytes than {@code outSize}
     * @throws IllegalStateException if this request was already answered
     */
    void result(int result, ByteBuffer out);
}
