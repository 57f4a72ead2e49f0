package dev.fusepanama.examples.mirror;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process's descriptor limit as the mirror meets it: how many node descriptors to keep by
 * default, and what to say when an operation finds no descriptor left (once per burst: the first
 * failure is logged, those in the next {@link #QUIET_SECONDS} seconds only counted, and the count
 * said with the next report).
 */
final class DescriptorLimit {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InodeMirror.class);
    static final long QUIET_SECONDS = 10;
    /** The most node descriptors kept by default: each holds its inode in the source's cache. */
    static final int MOST_KEPT = 16_384;

    private final AtomicLong lastReport = new AtomicLong(System.nanoTime() - TimeUnit.SECONDS.toNanos(QUIET_SECONDS));
    private final AtomicLong unreported = new AtomicLong();

    /** {@code RLIMIT_NOFILE}'s soft limit now (what the process may open), or -1 if unknown; {@link Libc#RLIM_INFINITY} is Long.MAX_VALUE here. */
    static long openFiles() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limits = arena.allocate(Libc.RLIMIT_SIZE, 8);
            if (Libc.getrlimit(Libc.RLIMIT_NOFILE, limits) < 0) {
                return -1;
            }
            long soft = limits.get(JAVA_LONG, 0);
            return soft == Libc.RLIM_INFINITY ? Long.MAX_VALUE : soft;
        }
    }

    /**
     * Node descriptors to keep when the builder does not say: a quarter of the process's limit,
     * the rest left to open files (two descriptors each: the file's and its node's), directory
     * streams and the application; at least 16, at most {@link #MOST_KEPT}.
     */
    static int defaultKept() {
        long limit = openFiles();
        if (limit < 0) {
            limit = 1024;
        }
        return (int) Math.max(16, Math.min(MOST_KEPT, limit / 4));
    }

    /** Whether {@code rc} is a failure for want of descriptors: the process's (EMFILE) or the system's (ENFILE). */
    static boolean exhausted(long rc) {
        return rc == -Errno.EMFILE || rc == -Errno.ENFILE;
    }

    /** An operation is answered with {@code errno} (EMFILE or ENFILE): logged, unless another was lately. */
    void report(int errno, int nodeDescriptors) {
        long now = System.nanoTime();
        long last = lastReport.get();
        if (now - last < TimeUnit.SECONDS.toNanos(QUIET_SECONDS) || !lastReport.compareAndSet(last, now)) {
            unreported.incrementAndGet();
            return;
        }
        long more = unreported.getAndSet(0);
        String since = more == 0 ? "" : " (and " + more + " more since the last report)";
        if (errno == Errno.ENFILE) {
            LOG.warn("the system has no open file left (ENFILE): an operation on the mirror failed with ENFILE{}; "
                    + "raise the system's limit (sysctl fs.file-max) or close files elsewhere", since);
        } else {
            long limit = openFiles();
            LOG.warn("the mirror's process has no descriptor left (EMFILE, its limit RLIMIT_NOFILE is {}): an operation on "
                    + "the mirror failed with EMFILE{}. The mirror holds {} descriptors of its nodes, closing those no open "
                    + "file needs when it lacks room; the rest are open files and directories (two descriptors each, "
                    + "the file's and its node's) and the application's own. Raise the limit before starting "
                    + "(ulimit -n N, LimitNOFILE=N in a systemd unit) or while it runs (prlimit --nofile=N:N --pid PID)",
                    limit == Long.MAX_VALUE ? "unlimited" : Long.toString(limit), since, nodeDescriptors);
        }
    }
}
