package dev.fusepanama.nio;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * The errno a kernel filesystem gives where a {@code java.nio.file} provider threw
 * ({@link ErrnoException#errnoOf}: the exception's class, else the strerror(3) text a
 * FileSystemException's reason begins with), plus what providers of their own say in words of
 * their own (cryptofs's "File name or path too long": ENAMETOOLONG). EIO only for what is not an
 * ordinary error.
 */
final class NioErrors {
    private NioErrors() {}

    /** The positive errno for {@code t}. */
    static int errno(Throwable t) {
        int errno = ErrnoException.errnoOf(t);
        if (errno == Errno.EIO && t instanceof FileSystemException f && f.getReason() != null
                && f.getReason().startsWith("File name or path too long")) {
            return Errno.ENAMETOOLONG;
        }
        return errno;
    }

    /** Work on the provider that may fail. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code call}. What the provider throws becomes the errno a kernel filesystem gives,
     * quietly; what maps to no errno is thrown on, for the library to log and answer EIO.
     */
    static <T> T call(Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (IOException | RuntimeException e) {
            int errno = errno(e);
            if (errno != Errno.EIO || e instanceof ErrnoException) throw e instanceof ErrnoException x ? x : new ErrnoException(errno);
            throw e;
        }
    }
}
