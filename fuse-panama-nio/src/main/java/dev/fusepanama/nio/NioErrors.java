package dev.fusepanama.nio;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.Map;

/**
 * The errno a kernel filesystem gives where a {@code java.nio.file} provider threw: the
 * exception's class where it says (NoSuchFileException: ENOENT), else the reason of a
 * FileSystemException, which the default provider takes from strerror(3) ("Invalid cross-device
 * link": EXDEV). What a provider does not support is EOPNOTSUPP, as on a kernel filesystem
 * without the feature; EIO only for what is not an ordinary error.
 */
final class NioErrors {
    private NioErrors() {}

    /** glibc's strerror(3) texts of the errors a filesystem call gives, as the default provider reports them. */
    private static final Map<String, Integer> REASONS = Map.ofEntries(
            Map.entry("Operation not permitted", Errno.EPERM),
            Map.entry("No such file or directory", Errno.ENOENT),
            Map.entry("Input/output error", Errno.EIO),
            Map.entry("No such device or address", Errno.ENXIO),
            Map.entry("Bad file descriptor", Errno.EBADF),
            Map.entry("Resource temporarily unavailable", Errno.EAGAIN),
            Map.entry("Permission denied", Errno.EACCES),
            Map.entry("Device or resource busy", Errno.EBUSY),
            Map.entry("File exists", Errno.EEXIST),
            Map.entry("Invalid cross-device link", Errno.EXDEV),
            Map.entry("Not a directory", Errno.ENOTDIR),
            Map.entry("Is a directory", Errno.EISDIR),
            Map.entry("Invalid argument", Errno.EINVAL),
            Map.entry("Text file busy", Errno.ETXTBSY),
            Map.entry("File too large", Errno.EFBIG),
            Map.entry("No space left on device", Errno.ENOSPC),
            Map.entry("Read-only file system", Errno.EROFS),
            Map.entry("Too many links", Errno.EMLINK),
            Map.entry("Numerical result out of range", Errno.ERANGE),
            Map.entry("File name too long", Errno.ENAMETOOLONG),
            Map.entry("Directory not empty", Errno.ENOTEMPTY),
            Map.entry("Too many levels of symbolic links", Errno.ELOOP),
            Map.entry("No data available", Errno.ENODATA),
            Map.entry("Operation not supported", Errno.EOPNOTSUPP),
            Map.entry("Disk quota exceeded", Errno.EDQUOT),
            Map.entry("Stale file handle", Errno.ESTALE));

    /** The positive errno for {@code t}. */
    static int errno(Throwable t) {
        if (t instanceof ErrnoException e) return e.errno();
        if (t instanceof NoSuchFileException) return Errno.ENOENT;
        if (t instanceof FileAlreadyExistsException) return Errno.EEXIST;
        if (t instanceof DirectoryNotEmptyException) return Errno.ENOTEMPTY;
        if (t instanceof AccessDeniedException) return Errno.EACCES;
        if (t instanceof NotDirectoryException) return Errno.ENOTDIR;
        if (t instanceof NotLinkException) return Errno.EINVAL;
        if (t instanceof FileSystemLoopException) return Errno.ELOOP;
        if (t instanceof AtomicMoveNotSupportedException) return Errno.EXDEV;
        if (t instanceof ReadOnlyFileSystemException) return Errno.EROFS;
        if (t instanceof UnsupportedOperationException) return Errno.EOPNOTSUPP;
        if (t instanceof ClosedChannelException || t instanceof NonReadableChannelException
                || t instanceof NonWritableChannelException) return Errno.EBADF;
        if (t instanceof FileSystemException f && f.getReason() != null) {
            Integer e = REASONS.get(f.getReason());
            if (e != null) return e;
            // Providers of their own begin with the text and say more ("File name too long: max 255").
            for (Map.Entry<String, Integer> r : REASONS.entrySet()) {
                if (f.getReason().startsWith(r.getKey())) return r.getValue();
            }
            if (f.getReason().startsWith("File name or path too long")) return Errno.ENAMETOOLONG; // cryptofs
        }
        return Errno.EIO;
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
