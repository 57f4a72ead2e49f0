package dev.fusepanama.internal.dispatch;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what a filesystem method threw into the errno the kernel gets, and logs it without
 * flooding: the first failure of an operation with an exception class is logged with its stack
 * trace, repeats of the same class within {@link #QUIET_NANOS} are counted and reported with the
 * next one logged. A different exception class is never held back by an earlier one (an
 * OutOfMemoryError after a StackOverflowError in the same operation is logged at once).
 */
public final class ErrorMapper {
    private static final Logger LOG = LoggerFactory.getLogger("dev.fusepanama.FuseFileSystem");
    static final long QUIET_NANOS = 10_000_000_000L;

    private final String mountpoint;
    private final LongSupplier clock;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    private static final class Window {
        volatile long lastLogged = Long.MIN_VALUE;
        final AtomicLong suppressed = new AtomicLong();
    }

    public ErrorMapper(String mountpoint) {
        this(mountpoint, System::nanoTime);
    }

    ErrorMapper(String mountpoint, LongSupplier clock) {
        this.mountpoint = mountpoint;
        this.clock = clock;
    }

    /** The positive errno for {@code t}. */
    public static int errnoOf(Throwable t) {
        if (t instanceof ErrnoException e) return e.errno();
        if (t instanceof NoSuchFileException) return Errno.ENOENT;
        if (t instanceof FileAlreadyExistsException) return Errno.EEXIST;
        if (t instanceof DirectoryNotEmptyException) return Errno.ENOTEMPTY;
        if (t instanceof AccessDeniedException) return Errno.EACCES;
        if (t instanceof NotDirectoryException) return Errno.ENOTDIR;
        if (t instanceof NotLinkException) return Errno.EINVAL;
        if (t instanceof FileSystemLoopException) return Errno.ELOOP;
        if (t instanceof ReadOnlyFileSystemException) return Errno.EROFS;
        return Errno.EIO;
    }

    /**
     * The negative errno answering {@code operation} on {@code path} that threw {@code t}.
     * {@link ErrnoException}s and the mapped {@code java.nio.file} exceptions are answers the
     * filesystem chose: they are logged at debug level only.
     */
    public int fail(String operation, String path, Throwable t) {
        return fail(operation, () -> path, t);
    }

    /** As {@link #fail(String, String, Throwable)}, with the path computed only if it is logged. */
    public int fail(String operation, Supplier<String> pathIfLogged, Throwable t) {
        int errno = errnoOf(t);
        boolean expected = t instanceof ErrnoException || (t instanceof FileSystemException && errno != Errno.EIO);
        if (expected) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("{} {}: {} ({})", operation, pathIfLogged.get(), Errno.name(errno), t.toString());
            }
            return -errno;
        }
        Window w = windows.computeIfAbsent(operation + ' ' + t.getClass().getName(), k -> new Window());
        long now = clock.getAsLong();
        long last = w.lastLogged;
        if (last != Long.MIN_VALUE && now - last < QUIET_NANOS) {
            w.suppressed.incrementAndGet();
            return -errno;
        }
        w.lastLogged = now;
        long quiet = w.suppressed.getAndSet(0);
        String repeats = quiet == 0 ? "" : " (" + quiet + " more " + t.getClass().getSimpleName() + " from "
                + operation + " not logged)";
        LOG.warn("{} {} on {} threw; answering {}{}", operation, pathIfLogged.get(), mountpoint, Errno.name(errno), repeats, t);
        return -errno;
    }
}
