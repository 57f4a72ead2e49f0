package dev.fusepanama.internal.mount;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.Errno;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mount flags of live mounts, kept current: the kernel tells no FUSE filesystem about a
 * remount, but it wakes a poll of {@code /proc/self/mountinfo} on every change of the mount table
 * (proc(5)). One daemon thread of the JVM waits there for all mounts that asked, from the first
 * that asks on, and reads the table again after each change; the new flags are seen by the next
 * request after that read, a few microseconds after the remount returned.
 */
final class MountFlagsWatch {
    private static final Logger LOG = LoggerFactory.getLogger(MountFlagsWatch.class);
    /** poll.h. */
    private static final short POLLPRI = 0x002;
    private static final short POLLERR = 0x008;
    private static final int O_RDONLY_CLOEXEC = 02000000;

    /** A watched mount's flags. */
    static final class Watched {
        private final Path mountpoint;
        private volatile AccessTimes accessTimes;

        private Watched(Path mountpoint, AccessTimes initial) {
            this.mountpoint = mountpoint;
            this.accessTimes = initial;
        }

        AccessTimes accessTimes() {
            return accessTimes;
        }
    }

    private static final Set<Watched> WATCHED = ConcurrentHashMap.newKeySet();
    private static boolean started;

    private MountFlagsWatch() {}

    /**
     * Starts following the FUSE mount at {@code mountpoint}; its flags as the table shows them now
     * (the kernel's default where it is not found).
     */
    static Watched watch(Path mountpoint) {
        startOnce();
        Watched w = new Watched(mountpoint, AccessTimes.DEFAULT);
        WATCHED.add(w);
        refresh(MountTable.read(), w);
        return w;
    }

    /** Stops following {@code watched} (its mount ended). */
    static void forget(Watched watched) {
        if (watched != null) WATCHED.remove(watched);
    }

    private static void refresh(MountTable table, Watched w) {
        table.find(w.mountpoint).filter(e -> e.type().startsWith("fuse"))
                .ifPresent(e -> w.accessTimes = AccessTimes.ofMountOptions(e.options()));
    }

    private static synchronized void startOnce() {
        if (started) return;
        started = true;
        Thread t = new Thread(MountFlagsWatch::run, "fuse-panama mount flags");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom("/proc/self/mountinfo"), O_RDONLY_CLOEXEC, 0);
        }
        if (fd < 0) {
            LOG.warn("cannot open /proc/self/mountinfo ({}): remounts that change atime flags are not followed", Errno.name(-fd));
            return;
        }
        MemorySegment pfd = Arena.global().allocate(8, 4);
        pfd.set(JAVA_INT, 0, fd);
        pfd.set(JAVA_SHORT, 4, (short) (POLLPRI | POLLERR));
        while (true) {
            pfd.set(JAVA_SHORT, 6, (short) 0);
            int rc = Libc.poll(pfd, 1, -1);
            if (rc < 0 && rc != -Errno.EINTR) {
                LOG.warn("polling /proc/self/mountinfo failed ({}): remounts that change atime flags are no longer followed",
                        Errno.name(-rc));
                return;
            }
            if (rc > 0 && !WATCHED.isEmpty()) {
                try {
                    MountTable table = MountTable.read();
                    for (Watched w : WATCHED) refresh(table, w);
                } catch (RuntimeException e) { // a line it cannot read: keep the flags it had, and keep watching
                    LOG.warn("could not read the mount table's flags after a change", e);
                }
            }
        }
    }
}
