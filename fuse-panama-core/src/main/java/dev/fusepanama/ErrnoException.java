package dev.fusepanama;

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
 * Answers the current request with a specific errno. Also thrown by the library's own helpers.
 *
 * <p>It is an answer, not a report of a bug, so it carries no stack trace: filesystems throw it
 * for every failed lookup, and filling in a trace would make each ENOENT cost microseconds. Any
 * other exception a method throws is logged with its trace and answered with EIO (or the errno
 * natural to a {@code java.nio.file} exception).
 */
public class ErrnoException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The positive errno the request is answered with. */
    private final int errno;

    /**
     * An exception for {@code errno}, its message the errno's name ("ENOSPC").
     *
     * @param errno a positive errno value, e.g. {@link Errno#ENOSPC}
     * @throws IllegalArgumentException if {@code errno} is 0 or negative
     */
    public ErrnoException(int errno) {
        this(errno, Errno.name(errno));
    }

    /**
     * An exception for {@code errno} with a message of its own, for the log or the caller; the
     * kernel receives only the errno.
     *
     * @param errno a positive errno value, e.g. {@link Errno#ENOSPC}
     * @param message the detail message, may be null
     * @throws IllegalArgumentException if {@code errno} is 0 or negative
     */
    public ErrnoException(int errno, String message) {
        super(message);
        if (errno <= 0) {
            throw new IllegalArgumentException("errno must be positive: " + errno);
        }
        this.errno = errno;
    }

    /**
     * The positive errno value.
     *
     * @return the errno, e.g. {@link Errno#ENOENT}
     */
    public int errno() {
        return errno;
    }

    /** No stack trace (see the class documentation). */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }

    /** glibc's strerror(3) texts of the errors a filesystem call gives, as the JDK's default provider reports them. */
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
            Map.entry("Stale file handle", Errno.ESTALE),
            Map.entry("Too many open files", Errno.EMFILE),
            Map.entry("Too many open files in system", Errno.ENFILE),
            Map.entry("Cannot allocate memory", Errno.ENOMEM));

    /**
     * The positive errno a kernel filesystem gives where {@code t} was thrown: an
     * ErrnoException's own; a {@code java.nio.file} exception's by its class (NoSuchFileException:
     * ENOENT, FileAlreadyExistsException: EEXIST, DirectoryNotEmptyException: ENOTEMPTY,
     * AccessDeniedException: EACCES, NotDirectoryException: ENOTDIR, FileSystemLoopException:
     * ELOOP, AtomicMoveNotSupportedException: EXDEV, ReadOnlyFileSystemException: EROFS); else a
     * FileSystemException's by its reason, which the default provider takes from strerror(3) and
     * other providers begin with its text ("Invalid cross-device link": EXDEV);
     * UnsupportedOperationException is EOPNOTSUPP, a closed or wrong-way channel EBADF; an
     * IOException whose message is a strerror(3) text (what a FileChannel's read or write throws:
     * "No space left on device") by that text. An exception none of these cover is taken by its
     * cause, as a provider that wraps the store's failure (cryptofs's
     * {@code IOException(UncheckedIOException(IOException("No space left on device")))}) throws it;
     * anything else is EIO.
     *
     * @param t what a filesystem method threw, may be null (EIO)
     * @return a positive errno, EIO when nothing maps
     */
    public static int errnoOf(Throwable t) {
        Throwable c = t;
        for (int depth = 0; c != null && depth < 8; depth++, c = c.getCause()) {
            int e = mapped(c);
            if (e != 0) return e;
        }
        return Errno.EIO;
    }

    /** {@code t}'s errno by its own class or text, or 0. */
    private static int mapped(Throwable t) {
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
        String reason = t instanceof FileSystemException f ? f.getReason()
                : t instanceof IOException ? t.getMessage() : null;
        if (reason != null) {
            Integer e = REASONS.get(reason);
            if (e != null) return e;
            for (Map.Entry<String, Integer> r : REASONS.entrySet()) {
                if (reason.startsWith(r.getKey())) return r.getValue();
            }
        }
        return 0;
    }
}
