package dev.fusepanama.internal.bind;

/** libfuse3 is missing, too old or unusable; the message says which and how to fix it. */
public final class LibFuseUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LibFuseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
