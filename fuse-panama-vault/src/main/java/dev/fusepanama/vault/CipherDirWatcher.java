package dev.fusepanama.vault;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the cipher directories the kernel knows (inotify) and reports each name that changed
 * in one of them, so that the vault can tell the kernel to drop what it cached: a sync client
 * replacing, adding or removing a file is seen through the mount at once while kernel caching
 * stays on. One daemon thread; reports arrive on it.
 *
 * <p>Only what changes a name or finishes a change is watched: creation, removal, both ends of
 * a rename, attributes, and the close of a file opened for writing. A file rewritten in place is
 * therefore seen when its writer closes it, not at each write; this keeps the vault's own writes
 * (many per file) from flooding the thread. The events of one name are gathered for
 * {@value #GATHER_MILLIS} ms and reported once, so that a burst of the vault's own changes (an
 * unpack creates, writes, closes, chmods and touches each file within a millisecond) costs one
 * look, after the burst.
 */
final class CipherDirWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CipherDirWatcher.class);

    /** What a change is reported to. */
    interface Listener {
        /**
         * {@code stored} changed in the cipher directory of {@code dir} (created, removed, written or
         * its attributes changed). Returns false to be asked again shortly: the change may be the
         * vault's own, still under way.
         */
        boolean changed(Node dir, byte[] stored);

        /** Events were lost (the kernel's queue overflowed): anything may have changed. */
        void lost();
    }

    private static final int MASK = Libc.IN_CREATE | Libc.IN_DELETE | Libc.IN_MOVED_FROM | Libc.IN_MOVED_TO
            | Libc.IN_ATTRIB | Libc.IN_CLOSE_WRITE | Libc.IN_ONLYDIR | Libc.IN_EXCL_UNLINK;
    /** How long the events of one name are gathered before it is looked at, and how often a change under way is looked at again. */
    static final long GATHER_MILLIS = 50;
    private static final int RECHECKS = 20;
    private static final long BUFFER = 64 * 1024;

    private final Listener listener;
    private final int inotify;
    private final int wakeup;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer;
    private final MemorySegment pollFds;
    private final Map<Integer, Node> directories = new ConcurrentHashMap<>();
    private final Map<Node, Integer> watches = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closing;
    private volatile boolean limitReported;
    /** Names to look at, in the order they are due (all wait the same time): when and how many more tries. Watcher thread only. */
    private final LinkedHashMap<Change, Due> pending = new LinkedHashMap<>();

    private record Change(Node dir, String name) {}

    private record Due(long atNanos, int triesLeft) {}

    CipherDirWatcher(Listener listener, String name) throws IOException {
        this.listener = listener;
        this.inotify = Libc.inotifyInit1(Libc.IN_NONBLOCK | Libc.IN_CLOEXEC);
        if (inotify < 0) throw new IOException("inotify_init1: " + Errno.name(-inotify));
        this.wakeup = Libc.eventfd(0, Libc.EFD_CLOEXEC | Libc.EFD_NONBLOCK);
        if (wakeup < 0) {
            Libc.close(inotify);
            throw new IOException("eventfd: " + Errno.name(-wakeup));
        }
        this.buffer = arena.allocate(BUFFER, 8);
        this.pollFds = arena.allocate(16, 8);
        pollFds.set(JAVA_INT, 0, inotify);
        pollFds.set(JAVA_SHORT, 4, (short) Posix.POLLIN);
        pollFds.set(JAVA_INT, 8, wakeup);
        pollFds.set(JAVA_SHORT, 12, (short) Posix.POLLIN);
        this.thread = Thread.ofPlatform().daemon().name("vault-watcher " + name).unstarted(this::run);
        thread.start();
    }

    /**
     * Starts watching {@code dir}, whose cipher directory is open as {@code dirFd} (reached
     * beneath the vault's top, so the watch cannot land outside it); failures are logged once
     * and leave it unwatched.
     */
    synchronized void watch(Node dir, int dirFd) {
        if (closing || watches.containsKey(dir)) return;
        int wd;
        try (Arena a = Arena.ofConfined()) {
            wd = Libc.inotifyAddWatch(inotify, a.allocateFrom("/proc/self/fd/" + dirFd), MASK);
        }
        if (wd < 0) {
            if (!limitReported && !closing) {
                limitReported = true;
                LOG.warn("cannot watch a directory of the vault ({}): changes made there by other programs are seen only "
                        + "when the kernel's caches expire; raise fs.inotify.max_user_watches if this is the limit",
                        Errno.name(-wd));
            }
            return;
        }
        directories.put(wd, dir);
        watches.put(dir, wd);
    }

    /** Stops watching {@code dir} (forgotten by the kernel). */
    synchronized void forget(Node dir) {
        Integer wd = watches.remove(dir);
        if (wd != null && directories.remove(wd, dir) && !closing) {
            Libc.inotifyRmWatch(inotify, wd);
        }
    }

    private void run() {
        try {
            while (!closing) {
                int timeout = -1;
                if (!pending.isEmpty()) {
                    long wait = pending.firstEntry().getValue().atNanos() - System.nanoTime();
                    timeout = (int) Math.max(0, TimeUnit.NANOSECONDS.toMillis(wait + 999_999));
                }
                int rc = timeout == 0 ? 0 : Libc.poll(pollFds, 2, timeout);
                if (closing) break;
                if (rc < 0 && rc != -Errno.EINTR) {
                    LOG.error("vault watcher: poll failed ({}); other programs' changes are no longer seen at once",
                            Errno.name(-rc));
                    break;
                }
                if (rc > 0) drain();
                reportDue();
            }
        } catch (RuntimeException | Error unexpected) {
            LOG.error("vault watcher stopped; other programs' changes are no longer seen at once", unexpected);
        }
    }

    /** Reads every queued event, gathering the changed names. */
    private void drain() {
        while (true) {
            long n = Libc.read(inotify, buffer, BUFFER);
            if (n <= 0) return; // EAGAIN: drained
            long now = System.nanoTime();
            for (long at = 0; at + Libc.INOTIFY_EVENT_SIZE <= n; ) {
                int wd = buffer.get(JAVA_INT, at);
                int mask = buffer.get(JAVA_INT, at + 4);
                int len = buffer.get(JAVA_INT, at + 12);
                long name = at + Libc.INOTIFY_EVENT_SIZE;
                at = name + len;
                if ((mask & Libc.IN_Q_OVERFLOW) != 0) {
                    pending.clear();
                    listener.lost();
                    continue;
                }
                Node dir = directories.get(wd);
                if ((mask & Libc.IN_IGNORED) != 0) {
                    if (dir != null && directories.remove(wd, dir)) watches.remove(dir, wd);
                    continue;
                }
                if (dir == null || len == 0) continue;
                int end = 0;
                while (end < len && buffer.get(JAVA_BYTE, name + end) != 0) end++;
                // Names in a cipher directory are base64 or gocryptfs's own: ASCII.
                byte[] bytes = buffer.asSlice(name, end).toArray(JAVA_BYTE);
                pending.putIfAbsent(new Change(dir, new String(bytes, StandardCharsets.ISO_8859_1)),
                        new Due(now + TimeUnit.MILLISECONDS.toNanos(GATHER_MILLIS), RECHECKS));
            }
        }
    }

    /** Reports the names whose gathering time is over; a change still under way goes to the back. */
    private void reportDue() {
        long now = System.nanoTime();
        Map<Change, Due> again = null;
        for (Iterator<Map.Entry<Change, Due>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Change, Due> next = it.next();
            if (next.getValue().atNanos() > now) break;
            it.remove();
            Change change = next.getKey();
            int tries = next.getValue().triesLeft();
            try {
                if (!listener.changed(change.dir(), change.name().getBytes(StandardCharsets.ISO_8859_1)) && tries > 1) {
                    if (again == null) again = new LinkedHashMap<>();
                    again.put(change, new Due(now + TimeUnit.MILLISECONDS.toNanos(GATHER_MILLIS), tries - 1));
                }
            } catch (RuntimeException ex) {
                LOG.warn("vault watcher: handling a change of {} failed", change.name(), ex);
            }
        }
        if (again != null) {
            // Later than everything pending: the order stays the order of due times.
            again.forEach((change, due) -> {
                pending.remove(change);
                pending.put(change, due);
            });
        }
    }

    /**
     * Stops the thread and closes the descriptors. If the thread does not end within a second
     * (a report stuck), they are left open rather than closed under it.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) return;
            closing = true;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment one = a.allocate(JAVA_LONG);
            one.set(JAVA_LONG, 0, 1);
            Libc.write(wakeup, one, 8);
        }
        try {
            thread.join(1000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("vault watcher did not stop within a second; its descriptors stay open");
            return;
        }
        Libc.close(inotify);
        Libc.close(wakeup);
        arena.close();
    }
}
