package dev.fusepanama;

import java.io.IOException;

/**
 * Answers the current request with a specific errno. Also thrown by the library's own helpers.
 *
 * <p>It is an answer, not a report of a bug, so it carries no stack trace: filesystems throw it
 * for every failed lookup, and filling in a trace would make each ENOENT cost microseconds. Any
 * other exception a method throws is logged with its trace and answered with EIO (or the errno
 * natural to a {@code java.nio.file} exception).
 */
public class ErrnoException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int errno;

    /** @param errno a positive errno value, e.g. {@link Errno#ENOSPC} */
    public ErrnoException(int errno) {
        this(errno, Errno.name(errno));
    }

    public ErrnoException(int errno, String message) {
        super(message);
        if (errno <= 0) {
            throw new IllegalArgumentException("errno must be positive: " + errno);
        }
        this.errno = errno;
    }

    /** The positive errno value. */
    public int errno() {
        return errno;
    }

    /** No stack trace (see the class documentation). */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
