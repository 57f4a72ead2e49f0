package dev.fusepanama.internal.dispatch;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import java.nio.file.FileSystemException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * Turns what a filesystem method threw into the errno the kernel gets, and logs it without
 * flooding: the first failure of an operation with an exception class is logged with its stack
 * trace, repeats of the same class within {@link #QUIET_NANOS} are counted and reported with the
 * next one logged. A different exception class is never held back by an earlier one (an
 * OutOfMemoryError after a StackOverflowError in the same operation is logged at once).
 *
 * <p>Warnings go to SLF4J, under the logger of the API the filesystem implements
 * ({@link #PATH_LOGGER}, {@link #INODE_LOGGER}). An application without an SLF4J provider would
 * lose them (SLF4J then discards everything), and a failing method would leave no trace at all;
 * there they go to the JDK's {@link System.Logger} of the same name instead, which prints to
 * stderr by default.
 */
public final class ErrorMapper {
    /** The logger of the path API's filesystems' failures: the interface they implement. */
    public static final String PATH_LOGGER = "dev.fusepanama.FuseFileSystem";
    /** The logger of the inode API's filesystems' failures: the interface they implement. */
    public static final String INODE_LOGGER = "dev.fusepanama.inode.InodeFileSystem";
    private static final boolean NO_SLF4J_PROVIDER = LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory;
    static final long QUIET_NANOS = 10_000_000_000L;

    private final Logger log;
    private final String mountpoint;
    private final LongSupplier clock;
    /** Where warnings go when there is no SLF4J provider; null when there is one. */
    private final System.Logger fallback;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    private static final class Window {
        volatile long lastLogged = Long.MIN_VALUE;
        final AtomicLong suppressed = new AtomicLong();
    }

    /** The failures of a filesystem mounted at {@code mountpoint}, logged under {@code logger}. */
    public ErrorMapper(String logger, String mountpoint) {
        this(logger, mountpoint, System::nanoTime);
    }

    ErrorMapper(String logger, String mountpoint, LongSupplier clock) {
        this(logger, mountpoint, clock, NO_SLF4J_PROVIDER ? System.getLogger(logger) : null);
    }

    /** @param fallback where to warn instead of SLF4J, or null */
    ErrorMapper(String logger, String mountpoint, LongSupplier clock, System.Logger fallback) {
        this.log = LoggerFactory.getLogger(logger);
        this.mountpoint = mountpoint;
        this.clock = clock;
        this.fallback = fallback;
    }

    /** The positive errno for {@code t}: {@link ErrnoException#errnoOf}. */
    public static int errnoOf(Throwable t) {
        return ErrnoException.errnoOf(t);
    }

    /**
     * The negative errno answering {@code operation} that threw {@code t}; the path is asked for only if it is logged.
     * {@link ErrnoException}s and the mapped {@code java.nio.file} exceptions are answers the
     * filesystem chose: they are logged at debug level only.
     */
    public int fail(String operation, Supplier<String> pathIfLogged, Throwable t) {
        int errno = errnoOf(t);
        boolean expected = t instanceof ErrnoException || (t instanceof FileSystemException && errno != Errno.EIO);
        if (expected) {
            if (log.isDebugEnabled()) {
                log.debug("{} {}: {} ({})", operation, pathIfLogged.get(), Errno.name(errno), t.toString());
            }
            return -errno;
        }
        warn(operation, t.getClass().getName(), t.getClass().getSimpleName(), t,
                () -> operation + " " + pathIfLogged.get() + " on " + mountpoint + " threw; answering " + Errno.name(errno));
        return -errno;
    }

    /**
     * Logs that {@code operation} returned without answering its reply or deferring it (a bug in
     * the filesystem, which the library answered with EIO), as rarely as {@link #fail} logs.
     */
    public void unanswered(String operation, Supplier<String> what) {
        warn(operation, "unanswered", "unanswered request", null, () -> operation + " " + what.get() + " on " + mountpoint
                + " returned without answering its reply or deferring it; answered EIO");
    }

    /** A warning, held back while the same {@code kind} from {@code operation} was logged within the quiet period. */
    private void warn(String operation, String kind, String kindName, Throwable t, Supplier<String> message) {
        Window w = windows.computeIfAbsent(operation + ' ' + kind, k -> new Window());
        long now = clock.getAsLong();
        long last = w.lastLogged;
        if (last != Long.MIN_VALUE && now - last < QUIET_NANOS) {
            w.suppressed.incrementAndGet();
            return;
        }
        w.lastLogged = now;
        long quiet = w.suppressed.getAndSet(0);
        String line = message.get() + (quiet == 0 ? "" : " (" + quiet + " more " + kindName + " from " + operation + " not logged)");
        if (fallback != null) {
            fallback.log(System.Logger.Level.WARNING, line, t);
        } else if (t != null) {
            log.warn(line, t);
        } else {
            log.warn(line);
        }
    }
}
