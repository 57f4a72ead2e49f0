package dev.fusepanama.internal.mount;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.Errno;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mount flags of live mounts, current for every request that asks. The kernel tells no FUSE
 * filesystem about a remount, but after each change of the mount table it marks
 * {@code /proc/self/mountinfo} as changed for poll (POLLPRI, proc(5)). A request that asks polls
 * it without waiting and, after a change, reads the table again before it answers, so a request
 * that follows a remount sees that remount's flags. (A thread that waited on the poll, as this
 * once had, let a read sent just after {@code mount -o remount,strictatime} returned still see
 * noatime when the machine was busy: fstests' generic/003 caught it.) The poll and the read after
 * it are one step under one lock: no request takes a mount's flags while another has seen a
 * change and not yet read it. A request pays one poll that does not wait, a syscall of about a
 * microsecond.
 */
public final class MountFlagsWatch {
    private static final Logger LOG = LoggerFactory.getLogger(MountFlagsWatch.class);
    /** poll.h. */
    private static final short POLLPRI = 0x002;
    private static final short POLLERR = 0x008;
    private static final int O_RDONLY_CLOEXEC = 02000000;

    private static final Object LOCK = new Object();
    /** The mounts followed; under LOCK. */
    private static final List<Watched> WATCHED = new ArrayList<>();
    /** A {@code struct pollfd} for mountinfo, opened at the first watch; null if it cannot be opened. Under LOCK. */
    private static MemorySegment mountinfo;
    private static boolean opened;

    /** A watched mount's flags. */
    public static final class Watched {
        private final Path mountpoint;
        /** Under LOCK. */
        private AccessTimes accessTimes = AccessTimes.DEFAULT;

        private Watched(Path mountpoint) {
            this.mountpoint = mountpoint;
        }

        /** The mount's flags as the mount table shows them now. */
        public AccessTimes accessTimes() {
            synchronized (LOCK) {
                if (changed()) refreshAll();
                return accessTimes;
            }
        }
    }

    private MountFlagsWatch() {}

    /**
     * Starts following the FUSE mount at {@code mountpoint}; its flags are the table's from now on
     * (the kernel's default while the table does not show it).
     */
    public static Watched watch(Path mountpoint) {
        synchronized (LOCK) {
            openOnce();
            Watched w = new Watched(mountpoint);
            WATCHED.add(w);
            changed(); // taken by this read of the table, for every mount followed
            refreshAll();
            return w;
        }
    }

    /** Stops following {@code watched} (its mount ended). */
    public static void forget(Watched watched) {
        if (watched == null) return;
        synchronized (LOCK) {
            WATCHED.remove(watched);
        }
    }

    private static void refreshAll() {
        MountTable table;
        try {
            table = MountTable.read();
        } catch (RuntimeException e) { // a line it cannot read: keep the flags each had
            LOG.warn("could not read the mount table's flags after a change", e);
            return;
        }
        for (Watched w : WATCHED) {
            table.find(w.mountpoint).filter(e -> e.type().startsWith("fuse"))
                    .ifPresent(e -> w.accessTimes = AccessTimes.ofMountOptions(e.options()));
        }
    }

    /**
     * Whether the mount table changed since the last call (which this call's answer resets);
     * true if that cannot be known, so that the table is read again rather than trusted.
     */
    private static boolean changed() {
        if (mountinfo == null) return false; // never opened: the flags stay those read at the first watch
        mountinfo.set(JAVA_SHORT, 6, (short) 0);
        int rc = Libc.poll(mountinfo, 1, 0);
        return rc != 0;
    }

    private static void openOnce() {
        if (opened) return;
        opened = true;
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom("/proc/self/mountinfo"), O_RDONLY_CLOEXEC, 0);
        }
        if (fd < 0) {
            LOG.warn("cannot open /proc/self/mountinfo ({}): remounts that change atime flags are not followed", Errno.name(-fd));
            return;
        }
        mountinfo = Arena.global().allocate(8, 4);
        mountinfo.set(JAVA_INT, 0, fd);
        mountinfo.set(JAVA_SHORT, 4, (short) (POLLPRI | POLLERR));
    }
}
