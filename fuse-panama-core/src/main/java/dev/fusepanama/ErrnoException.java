package dev.fusepanama;

import java.io.IOException;

/** Answers the current request with a specific errno. Also thrown by the library's own helpers. */
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
}
