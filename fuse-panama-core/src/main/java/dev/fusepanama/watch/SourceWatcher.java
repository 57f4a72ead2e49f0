package dev.fusepanama.watch;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.FileEvents;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the directory tree an inode filesystem serves from and reports what other programs
 * changed in it: a name created, removed or renamed, a file's attributes, a file's data. One
 * daemon thread reads the kernel's events, gathers those of one name for {@link Builder#gather}
 * and reports them once, after the burst, so that an unpack that creates, writes, chmods and
 * touches a file within a millisecond costs one report.
 *
 * <p>Three mechanisms, the best the kernel and the process's privileges allow, chosen at
 * {@link Builder#start}:
 * <ul>
 * <li>{@link Mechanism#FANOTIFY_FILESYSTEM}: one fanotify mark on the source's whole filesystem
 * (CAP_SYS_ADMIN). Every change is seen, also one made through a hard link outside the tree or
 * through a descriptor opened before, and without a limit on how many directories are watched;
 * events of directories and files the caller does not {@linkplain #watch watch} are dropped on
 * arrival.
 * <li>{@link Mechanism#FANOTIFY_INODES}: a fanotify mark on each watched directory, which any
 * user may place from Linux 5.13 (bounded by {@code fs.fanotify.max_user_marks}). A change is
 * seen when it is made through a name in a watched directory.
 * <li>{@link Mechanism#INOTIFY}: an inotify watch on each watched directory (bounded by
 * {@code fs.inotify.max_user_watches}), where fanotify cannot report file handles (an older
 * kernel, a filesystem without handles).
 * </ul>
 * Both fanotify mechanisms identify directories and files by their file handle (as
 * {@code name_to_handle_at(2)} gives it) and say which process made each change, so the
 * process's own changes, which the kernel already knows of because they were made for it, are
 * dropped ({@link Builder#ignoreOwnChanges}); inotify cannot, so its reports include them and the
 * listener tells them apart ({@link #reportsOwnChanges}).
 *
 * @param <N> what the caller knows a directory or file by (its node)
 */
public final class SourceWatcher<N> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourceWatcher.class);

    /** {@link Change#what}: a name was created, removed, or renamed from or to. */
    public static final int NAME = 1;
    /** {@link Change#what}: attributes changed (mode, owner, times, extended attributes). */
    public static final int ATTRIBUTES = 2;
    /** {@link Change#what}: data was written, or the size changed. */
    public static final int DATA = 4;

    /** How changes are learnt of, the best first (see the class documentation). */
    public enum Mechanism {
        /** One fanotify mark on the source's whole filesystem (CAP_SYS_ADMIN): every change, through any name. */
        FANOTIFY_FILESYSTEM,
        /** A fanotify mark on each watched directory (any user, Linux 5.13+): changes through those directories' names. */
        FANOTIFY_INODES,
        /** An inotify watch on each watched directory: changes through their names, this process's own included. */
        INOTIFY
    }

    /** When a write inside a file is reported. */
    public enum Writes {
        /** At each write: within {@link Builder#gather} of it. */
        EACH,
        /** When its writer closes the file: fewer events, for a listener whose own writes come many to a file. */
        AT_CLOSE
    }

    /**
     * What changed: {@code name} in {@code directory} (both null where the change is known only
     * by the file it happened to), and {@code node}, the watched file or directory it happened to,
     * where the mechanism names it (fanotify) and the caller watches it; {@code what} is an or of
     * {@link #NAME}, {@link #ATTRIBUTES} and {@link #DATA}, gathered over the burst.
     *
     * @param <N> what the caller knows a directory or file by
     * @param directory the watched directory the name is in, or null
     * @param name the name's bytes as the kernel reported them, or null
     * @param node the watched file or directory changed, or null where the mechanism does not name it
     * @param what the kinds of change, an or of {@link #NAME}, {@link #ATTRIBUTES} and {@link #DATA}
     */
    public record Change<N>(N directory, byte[] name, N node, int what) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Change<?> c && Objects.equals(directory, c.directory) && Arrays.equals(name, c.name)
                    && Objects.equals(node, c.node) && what == c.what;
        }

        @Override
        public int hashCode() {
            return Objects.hash(directory, Arrays.hashCode(name), node, what);
        }

        @Override
        public String toString() {
            return "Change[" + (name == null ? "" : new String(name, StandardCharsets.UTF_8) + " in " + directory)
                    + (node == null ? "" : " node " + node) + " what " + what + "]";
        }
    }

    /**
     * What changes are reported to, on the watcher's thread.
     *
     * @param <N> what the caller knows a directory or file by
     */
    public interface Listener<N> {
        /**
         * Something changed. Returns false to be asked again after {@link Builder#gather} (at most
         * 20 times): the change may be the listener's own, still under way.
         *
         * @param change what changed, and where
         * @return true once handled; false to be asked again later
         */
        boolean changed(Change<N> change);

        /** Events were lost (the kernel's queue overflowed): anything watched may have changed. */
        void lost();

        /**
         * The watcher stopped on an error (said in the log) and reports nothing more: what the
         * listener let the kernel cache because it was watched is no longer safe to keep.
         */
        default void stopped() {}
    }

    /**
     * How a watcher is made: {@link SourceWatcher#builder}.
     *
     * @param <N> what the caller knows a directory or file by
     */
    public static final class Builder<N> {
        private final Path source;
        private final Listener<N> listener;
        private Duration gather = Duration.ofMillis(20);
        private Writes writes = Writes.EACH;
        private boolean ignoreOwnChanges = true;
        private Mechanism most = Mechanism.FANOTIFY_FILESYSTEM;
        private String name;
        private int maxDirectories = Integer.MAX_VALUE;

        private Builder(Path source, Listener<N> listener) {
            this.source = source;
            this.listener = listener;
            this.name = "source-watcher " + source;
        }

        /**
         * How long the events of one name are gathered before it is reported (20 ms by default).
         *
         * @param d the gathering time, 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code d} is negative
         */
        public Builder<N> gather(Duration d) {
            if (d.isNegative()) throw new IllegalArgumentException("gather must not be negative: " + d);
            gather = d;
            return this;
        }

        /**
         * When a write inside a file is reported ({@link Writes#EACH} by default).
         *
         * @param w at each write, or when the writer closes the file
         * @return this builder
         */
        public Builder<N> writes(Writes w) {
            writes = Objects.requireNonNull(w);
            return this;
        }

        /**
         * Whether changes this process made are dropped where the mechanism says who made a change
         * (fanotify): true by default, for a filesystem whose own changes the kernel asked for.
         *
         * @param on whether to drop this process's own changes
         * @return this builder
         */
        public Builder<N> ignoreOwnChanges(boolean on) {
            ignoreOwnChanges = on;
            return this;
        }

        /**
         * The best mechanism to try ({@link Mechanism#FANOTIFY_FILESYSTEM} by default); the next
         * ones are tried where it is not available. Tests use it to run each.
         *
         * @param m the best mechanism to try
         * @return this builder
         */
        public Builder<N> atMost(Mechanism m) {
            most = Objects.requireNonNull(m);
            return this;
        }

        /**
         * At most this many directories watched at once (by default as many as the kernel's limit
         * allows): a {@link SourceWatcher#watch} beyond it is refused as one beyond the kernel's.
         *
         * @param max the most directories, 1 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code max} is less than 1
         */
        public Builder<N> maxDirectories(int max) {
            if (max < 1) throw new IllegalArgumentException("maxDirectories must be 1 or more: " + max);
            maxDirectories = max;
            return this;
        }

        /**
         * Names the thread and the log lines; "source-watcher" and the source's path by default.
         *
         * @param n the name
         * @return this builder
         */
        public Builder<N> name(String n) {
            name = Objects.requireNonNull(n);
            return this;
        }

        /**
         * Starts the watcher's thread with the best mechanism available.
         *
         * @return the running watcher; close it to stop
         * @throws IOException if none is (no inotify either)
         */
        public SourceWatcher<N> start() throws IOException {
            return new SourceWatcher<>(this);
        }
    }

    /**
     * A watcher of {@code source} reporting to {@code listener}.
     *
     * @param <N> what the caller knows a directory or file by
     * @param source the root of the tree the filesystem serves from
     * @param listener what changes are reported to, not null
     * @return a builder; {@link Builder#start} starts the watcher
     * @throws NullPointerException if {@code listener} is null
     */
    public static <N> Builder<N> builder(Path source, Listener<N> listener) {
        return new Builder<>(source, Objects.requireNonNull(listener));
    }

    private static final int INOTIFY_MASK_BASE = FileEvents.IN_CREATE | FileEvents.IN_DELETE | FileEvents.IN_MOVED_FROM | FileEvents.IN_MOVED_TO
            | FileEvents.IN_ATTRIB | FileEvents.IN_CLOSE_WRITE | FileEvents.IN_ONLYDIR | FileEvents.IN_EXCL_UNLINK;
    private static final long FANOTIFY_MASK_BASE = FileEvents.FAN_CREATE | FileEvents.FAN_DELETE | FileEvents.FAN_MOVED_FROM | FileEvents.FAN_MOVED_TO
            | FileEvents.FAN_ATTRIB | FileEvents.FAN_CLOSE_WRITE | FileEvents.FAN_ONDIR;
    private static final int RECHECKS = 20;
    private static final long BUFFER = 64 * 1024;

    private final Listener<N> listener;
    private final String name;
    private final Mechanism mechanism;
    private final long gatherNanos;
    private final int ownPid;
    private final boolean ignoreOwn;
    private final int inotifyMask;
    private final long fanotifyMask;
    private final int fd;
    private final int wakeup;
    private final int maxDirectories;
    /** Directories watched now; guarded by this. */
    private int directories;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer;
    private final MemorySegment pollFds;
    /** inotify: the directory of each watch descriptor, and each directory's. */
    private final Map<Integer, N> byWatch = new ConcurrentHashMap<>();
    private final Map<N, Integer> watches = new ConcurrentHashMap<>();
    /** fanotify: the directory or file of each handle, and each one's handle. */
    private final Map<Handle, N> byHandle = new ConcurrentHashMap<>();
    private final Map<N, Handle> handles = new ConcurrentHashMap<>();
    /** The watched directories under fanotify (counted against maxDirectories); guarded by this. */
    private final Set<N> directoryNodes = new HashSet<>();
    private final Thread thread;
    private volatile boolean closing;
    private volatile boolean limitReported;
    /** Changes to report, in the order they are due. Watcher thread only. */
    private final LinkedHashMap<Key<N>, Pending> pending = new LinkedHashMap<>();

    /** A file handle's bytes (handle_bytes, handle_type, f_handle), compared by content. */
    private record Handle(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Handle h && Arrays.equals(bytes, h.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** What one report gathers: a name in a directory, or a node alone. */
    private record Key<N>(N directory, Handle name, N node) {}

    private static final class Pending {
        long atNanos;
        int triesLeft = RECHECKS;
        int what;
    }

    private SourceWatcher(Builder<N> b) throws IOException {
        this.listener = b.listener;
        this.name = b.name;
        this.gatherNanos = b.gather.toNanos();
        this.ownPid = (int) ProcessHandle.current().pid();
        this.ignoreOwn = b.ignoreOwnChanges;
        this.maxDirectories = b.maxDirectories;
        this.inotifyMask = INOTIFY_MASK_BASE | (b.writes == Writes.EACH ? FileEvents.IN_MODIFY : 0);
        this.fanotifyMask = FANOTIFY_MASK_BASE | (b.writes == Writes.EACH ? FileEvents.FAN_MODIFY : 0);
        int[] chosen = choose(b);
        this.fd = chosen[0];
        this.mechanism = Mechanism.values()[chosen[1]];
        this.wakeup = FileEvents.eventfd(0, FileEvents.EFD_CLOEXEC | FileEvents.EFD_NONBLOCK);
        if (wakeup < 0) {
            Libc.close(fd);
            throw new IOException("eventfd: " + Errno.name(-wakeup));
        }
        this.buffer = arena.allocate(BUFFER, 8);
        this.pollFds = arena.allocate(16, 8);
        pollFds.set(JAVA_INT, 0, fd);
        pollFds.set(JAVA_SHORT, 4, (short) Posix.POLLIN);
        pollFds.set(JAVA_INT, 8, wakeup);
        pollFds.set(JAVA_SHORT, 12, (short) Posix.POLLIN);
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::run);
        thread.start();
    }

    /** The descriptor and mechanism: the best one {@code b} allows that the kernel gives. */
    private int[] choose(Builder<N> b) throws IOException {
        String why = null;
        if (b.most.ordinal() <= Mechanism.FANOTIFY_INODES.ordinal()) {
            int flags = FileEvents.FAN_CLASS_NOTIF | FileEvents.FAN_CLOEXEC | FileEvents.FAN_NONBLOCK | FileEvents.FAN_REPORT_FID
                    | FileEvents.FAN_REPORT_DIR_FID | FileEvents.FAN_REPORT_NAME;
            // A whole filesystem's events can outrun a queue of 16,384 (each overflow drops every
            // cache): unbounded where allowed (CAP_SYS_ADMIN, which that mark needs anyway).
            int fan = b.most == Mechanism.FANOTIFY_FILESYSTEM
                    ? FileEvents.fanotifyInit(flags | FileEvents.FAN_UNLIMITED_QUEUE, Posix.O_RDONLY | Posix.O_CLOEXEC) : -Errno.EPERM;
            if (fan == -Errno.EPERM) fan = FileEvents.fanotifyInit(flags, Posix.O_RDONLY | Posix.O_CLOEXEC);
            if (fan < 0) {
                why = "fanotify_init: " + Errno.name(-fan);
            } else {
                int rc = -Errno.EPERM;
                if (b.most == Mechanism.FANOTIFY_FILESYSTEM) {
                    rc = mark(fan, FileEvents.FAN_MARK_ADD | FileEvents.FAN_MARK_FILESYSTEM, fanotifyMaskOf(b), b.source);
                    if (rc == 0) return new int[] {fan, Mechanism.FANOTIFY_FILESYSTEM.ordinal()};
                }
                if (rc == -Errno.EPERM) {
                    // No CAP_SYS_ADMIN: a mark on the source's directory itself tells whether inode marks work here.
                    rc = mark(fan, FileEvents.FAN_MARK_ADD | FileEvents.FAN_MARK_ONLYDIR, fanotifyMaskOf(b) | FileEvents.FAN_EVENT_ON_CHILD, b.source);
                    if (rc == 0) {
                        mark(fan, FileEvents.FAN_MARK_REMOVE | FileEvents.FAN_MARK_ONLYDIR, fanotifyMaskOf(b) | FileEvents.FAN_EVENT_ON_CHILD, b.source);
                        return new int[] {fan, Mechanism.FANOTIFY_INODES.ordinal()};
                    }
                }
                why = "fanotify_mark: " + Errno.name(-rc);
                Libc.close(fan);
            }
        }
        int in = FileEvents.inotifyInit1(FileEvents.IN_NONBLOCK | FileEvents.IN_CLOEXEC);
        if (in < 0) {
            throw new IOException(b.source + ": cannot watch for changes: " + (why == null ? "" : why + ", ")
                    + "inotify_init1: " + Errno.name(-in));
        }
        if (why != null) LOG.debug("{}: fanotify not available ({}); watching with inotify", b.name, why);
        return new int[] {in, Mechanism.INOTIFY.ordinal()};
    }

    private static long fanotifyMaskOf(Builder<?> b) {
        return FANOTIFY_MASK_BASE | (b.writes == Writes.EACH ? FileEvents.FAN_MODIFY : 0);
    }

    private static int mark(int fan, int flags, long mask, Path path) {
        try (Arena a = Arena.ofConfined()) {
            return FileEvents.fanotifyMark(fan, flags, mask, Libc.AT_FDCWD, a.allocateFrom(path.toString()));
        }
    }

    /**
     * How changes are learnt of.
     *
     * @return the mechanism chosen at start
     */
    public Mechanism mechanism() {
        return mechanism;
    }

    /**
     * Whether reports include this process's own changes (inotify, or {@link Builder#ignoreOwnChanges} off).
     *
     * @return true if the listener must tell its own changes apart
     */
    public boolean reportsOwnChanges() {
        return mechanism == Mechanism.INOTIFY || !ignoreOwn;
    }

    /**
     * Whether a change made through a name outside the watched directories (a hard link elsewhere) is seen.
     *
     * @return true for {@link Mechanism#FANOTIFY_FILESYSTEM}
     */
    public boolean seesEveryPath() {
        return mechanism == Mechanism.FANOTIFY_FILESYSTEM;
    }

    /**
     * Starts watching {@code node}, open as {@code fd} (an {@code O_PATH} descriptor will do),
     * whose file handle is {@code handle} (null: none known; fanotify then finds it). A directory
     * is watched for changes of its names and of the files reached through them; a file only
     * matters to fanotify, which names it by handle. Returns false where it cannot be watched
     * (the mechanism's limit, said once in the log): the caller must then not let the kernel
     * cache what it holds of it for long.
     *
     * @param node the caller's node for the directory or file
     * @param fd an open descriptor of it, used during the call only
     * @param handle its file handle, or null
     * @param directory whether it is a directory
     * @return true if it is watched (or, a file under inotify, needs no watch)
     */
    public boolean watch(N node, int fd, byte[] handle, boolean directory) {
        if (closing) return false;
        if (mechanism == Mechanism.INOTIFY) {
            if (!directory) return true;
            synchronized (this) {
                if (closing) return false;
                if (watches.containsKey(node)) return true;
                if (directories >= maxDirectories) return refused(-Errno.ENOSPC, "the watcher's maxDirectories");
                int wd;
                try (Arena a = Arena.ofConfined()) {
                    wd = FileEvents.inotifyAddWatch(this.fd, a.allocateFrom("/proc/self/fd/" + fd), inotifyMask);
                }
                if (wd < 0) return refused(wd, "fs.inotify.max_user_watches");
                byWatch.put(wd, node);
                watches.put(node, wd);
                directories++;
                return true;
            }
        }
        byte[] h = handle != null ? handle : handleOf(fd);
        if (h == null) return false;
        Handle key = new Handle(h);
        synchronized (this) {
            if (closing) return false;
            if (handles.containsKey(node)) return true;
            if (directory) {
                if (directories >= maxDirectories) return refused(-Errno.ENOSPC, "the watcher's maxDirectories");
                if (mechanism == Mechanism.FANOTIFY_INODES) {
                    int rc;
                    try (Arena a = Arena.ofConfined()) {
                        rc = FileEvents.fanotifyMark(this.fd, FileEvents.FAN_MARK_ADD | FileEvents.FAN_MARK_ONLYDIR,
                                fanotifyMask | FileEvents.FAN_EVENT_ON_CHILD, Libc.AT_FDCWD, a.allocateFrom("/proc/self/fd/" + fd));
                    }
                    if (rc < 0) return refused(rc, "fs.fanotify.max_user_marks");
                }
                directories++;
            }
            if (directory) directoryNodes.add(node);
            byHandle.put(key, node);
            handles.put(node, key);
            return true;
        }
    }

    /**
     * As {@link #watch(Object, int, byte[], boolean)}, for {@code node} at {@code path} (its last
     * link not followed), opened here for the while.
     *
     * @param node the caller's node for the directory or file
     * @param path where it is
     * @param directory whether it is a directory
     * @return true if it is watched; false also if {@code path} cannot be opened
     */
    public boolean watch(N node, Path path, boolean directory) {
        int fd;
        try (Arena a = Arena.ofConfined()) {
            fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(path.toString()), Posix.O_PATH | Posix.O_NOFOLLOW | Posix.O_CLOEXEC, 0);
        }
        if (fd < 0) return false;
        try {
            return watch(node, fd, null, directory);
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * Stops watching {@code node} (the kernel forgot it).
     *
     * @param node a node given to {@link #watch}; one not watched is ignored
     */
    public void forget(N node) {
        if (mechanism == Mechanism.INOTIFY) {
            synchronized (this) {
                Integer wd = watches.remove(node);
                if (wd != null) directories--;
                if (wd != null && byWatch.remove(wd, node) && !closing) FileEvents.inotifyRmWatch(fd, wd);
            }
            return;
        }
        synchronized (this) {
            Handle h = handles.remove(node);
            if (h != null) byHandle.remove(h, node);
            // A fanotify mark on a directory cannot be removed without a descriptor of it, which
            // the watcher does not keep; it stays (and pins the inode) until the watcher closes,
            // and counts against maxDirectories until then.
            if (directoryNodes.remove(node) && mechanism == Mechanism.FANOTIFY_FILESYSTEM) directories--;
        }
        // An inode mark goes with the inode; one left on a directory the kernel forgot reports
        // events nobody maps, which are dropped, until the directory is evicted.
    }

    private boolean refused(int rc, String limit) {
        if (!limitReported && !closing) {
            limitReported = true;
            LOG.warn("{}: cannot watch a directory ({}): what the kernel caches of it is not kept long; raise {} if this is the limit",
                    name, Errno.name(-rc), limit);
        }
        return false;
    }

    private static byte[] handleOf(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(Libc.FILE_HANDLE_SIZE, 8);
            MemorySegment mountId = a.allocate(JAVA_INT);
            h.set(JAVA_INT, 0, Libc.MAX_HANDLE_SZ);
            if (Libc.nameToHandleAt(fd, a.allocate(1), h, mountId, Libc.AT_EMPTY_PATH) < 0) return null;
            return h.asSlice(0, 8 + Integer.toUnsignedLong(h.get(JAVA_INT, 0))).toArray(JAVA_BYTE);
        }
    }

    /**
     * One line for a start-up log: the mechanism and what it promises.
     *
     * @return the description, with the kernel's limit for the per-directory mechanisms
     */
    public String describe() {
        return switch (mechanism) {
            case FANOTIFY_FILESYSTEM -> "fanotify on the whole filesystem (every change seen, through any name)";
            case FANOTIFY_INODES -> "fanotify on each directory the kernel has held (changes through those directories' names; "
                    + "limit " + limit("fanotify/max_user_marks") + " marks, kept until the watcher closes)";
            case INOTIFY -> "inotify on each directory the kernel holds (changes through those directories' names; limit "
                    + limit("inotify/max_user_watches") + " watches)";
        };
    }

    private static String limit(String sysctl) {
        try {
            return Files.readString(Path.of("/proc/sys/fs/" + sysctl)).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private void run() {
        try {
            while (!closing) {
                int timeout = -1;
                if (!pending.isEmpty()) {
                    long wait = pending.firstEntry().getValue().atNanos - System.nanoTime();
                    timeout = (int) Math.max(0, TimeUnit.NANOSECONDS.toMillis(wait + 999_999));
                }
                int rc = timeout == 0 ? 0 : Libc.poll(pollFds, 2, timeout);
                if (closing) break;
                if (rc < 0 && rc != -Errno.EINTR) {
                    LOG.error("{}: watcher's poll failed ({}); changes made by others are no longer seen", name, Errno.name(-rc));
                    break;
                }
                if (rc > 0) {
                    if (mechanism == Mechanism.INOTIFY) drainInotify();
                    else drainFanotify();
                }
                reportDue();
            }
        } catch (RuntimeException | Error unexpected) {
            LOG.error("{}: watcher stopped; changes made by others are no longer seen", name, unexpected);
        }
        if (!closing) {
            try {
                listener.stopped();
            } catch (RuntimeException ex) {
                LOG.warn("{}: handling the watcher's stop failed", name, ex);
            }
        }
    }

    private void add(N directory, Handle entryName, N node, int what, long now) {
        Pending p = pending.get(new Key<>(directory, entryName, node));
        if (p == null) {
            p = new Pending();
            p.atNanos = now + gatherNanos;
            pending.put(new Key<>(directory, entryName, node), p);
        }
        p.what |= what;
    }

    private void overflowed() {
        pending.clear();
        try {
            listener.lost();
        } catch (RuntimeException ex) {
            LOG.warn("{}: handling lost events failed", name, ex);
        }
    }

    private void drainInotify() {
        while (true) {
            long n = Libc.read(fd, buffer, BUFFER);
            if (n <= 0) return; // EAGAIN: drained
            long now = System.nanoTime();
            for (long at = 0; at + FileEvents.INOTIFY_EVENT_SIZE <= n; ) {
                int wd = buffer.get(JAVA_INT, at);
                int mask = buffer.get(JAVA_INT, at + 4);
                int len = buffer.get(JAVA_INT, at + 12);
                long nameAt = at + FileEvents.INOTIFY_EVENT_SIZE;
                at = nameAt + len;
                if ((mask & FileEvents.IN_Q_OVERFLOW) != 0) {
                    overflowed();
                    continue;
                }
                N dir = byWatch.get(wd);
                if ((mask & FileEvents.IN_IGNORED) != 0) {
                    if (dir != null) {
                        synchronized (this) {
                            if (byWatch.remove(wd, dir) && watches.remove(dir, wd)) directories--;
                        }
                    }
                    continue;
                }
                if (dir == null) continue;
                if (len == 0) { // the watched directory's own change (its attributes)
                    add(null, null, dir, whatOfInotify(mask), now);
                    continue;
                }
                int end = 0;
                while (end < len && buffer.get(JAVA_BYTE, nameAt + end) != 0) end++;
                add(dir, new Handle(buffer.asSlice(nameAt, end).toArray(JAVA_BYTE)), null, whatOfInotify(mask), now);
            }
        }
    }

    private static int whatOfInotify(int mask) {
        int what = 0;
        if ((mask & (FileEvents.IN_CREATE | FileEvents.IN_DELETE | FileEvents.IN_MOVED_FROM | FileEvents.IN_MOVED_TO)) != 0) what |= NAME;
        if ((mask & FileEvents.IN_ATTRIB) != 0) what |= ATTRIBUTES;
        if ((mask & (FileEvents.IN_MODIFY | FileEvents.IN_CLOSE_WRITE)) != 0) what |= DATA;
        return what;
    }

    private static int whatOfFanotify(long mask) {
        int what = 0;
        if ((mask & (FileEvents.FAN_CREATE | FileEvents.FAN_DELETE | FileEvents.FAN_MOVED_FROM | FileEvents.FAN_MOVED_TO)) != 0) what |= NAME;
        if ((mask & FileEvents.FAN_ATTRIB) != 0) what |= ATTRIBUTES;
        if ((mask & (FileEvents.FAN_MODIFY | FileEvents.FAN_CLOSE_WRITE)) != 0) what |= DATA;
        return what;
    }

    private void drainFanotify() {
        while (true) {
            long n = Libc.read(fd, buffer, BUFFER);
            if (n <= 0) return; // EAGAIN: drained
            long now = System.nanoTime();
            for (long at = 0; at + FileEvents.FANOTIFY_METADATA_SIZE <= n; ) {
                int eventLen = buffer.get(JAVA_INT, at);
                if (eventLen < FileEvents.FANOTIFY_METADATA_SIZE || at + eventLen > n) break; // never from a sound kernel
                long mask = buffer.get(JAVA_LONG_UNALIGNED, at + 8); // records are 4-byte aligned, so events may be too
                int pid = buffer.get(JAVA_INT, at + 20);
                int metadataLen = Short.toUnsignedInt(buffer.get(JAVA_SHORT, at + 6));
                long end = at + eventLen;
                long info = at + metadataLen;
                at = end;
                if ((mask & FileEvents.FAN_Q_OVERFLOW) != 0) {
                    overflowed();
                    continue;
                }
                if (ignoreOwn && pid == ownPid) continue;
                int what = whatOfFanotify(mask);
                N dir = null;
                byte[] entry = null;
                N node = null;
                while (info + 4 <= end) {
                    int type = Byte.toUnsignedInt(buffer.get(JAVA_BYTE, info));
                    int len = Short.toUnsignedInt(buffer.get(JAVA_SHORT, info + 2));
                    if (len < 4 || info + len > end) break;
                    long h = info + FileEvents.FANOTIFY_INFO_FID_HANDLE;
                    long handleLen = 8 + Integer.toUnsignedLong(buffer.get(JAVA_INT, h));
                    if (h + handleLen <= info + len) {
                        N found = byHandle.get(new Handle(buffer.asSlice(h, handleLen).toArray(JAVA_BYTE)));
                        if (type == FileEvents.FAN_EVENT_INFO_TYPE_DFID_NAME) {
                            dir = found;
                            long nameAt = h + handleLen;
                            long nameEnd = nameAt;
                            while (nameEnd < info + len && buffer.get(JAVA_BYTE, nameEnd) != 0) nameEnd++;
                            entry = buffer.asSlice(nameAt, nameEnd - nameAt).toArray(JAVA_BYTE);
                            if (entry.length == 1 && entry[0] == '.') entry = null;
                        } else if (type == FileEvents.FAN_EVENT_INFO_TYPE_DFID) {
                            dir = found;
                        } else if (type == FileEvents.FAN_EVENT_INFO_TYPE_FID) {
                            node = found;
                        }
                    }
                    info += len;
                }
                if (entry == null && node == null) {
                    node = dir; // a directory's own change: its handle with the name "."
                    dir = null;
                }
                if (dir != null && entry != null) {
                    // What happened to the entry's file itself is gathered with the name, by node where known.
                    add(dir, new Handle(entry), (what & NAME) != 0 ? null : node, what, now);
                } else if (node != null) {
                    add(null, null, node, what, now);
                }
            }
        }
    }

    /** Reports the changes whose gathering time is over; one the listener is not ready for goes to the back. */
    private void reportDue() {
        long now = System.nanoTime();
        Map<Key<N>, Pending> again = null;
        for (Iterator<Map.Entry<Key<N>, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key<N>, Pending> next = it.next();
            Pending p = next.getValue();
            if (p.atNanos > now) break;
            it.remove();
            Key<N> k = next.getKey();
            Change<N> change = new Change<>(k.directory(), k.name() == null ? null : k.name().bytes(), k.node(), p.what);
            try {
                if (!listener.changed(change) && p.triesLeft > 1) {
                    if (again == null) again = new LinkedHashMap<>();
                    p.triesLeft--;
                    p.atNanos = now + gatherNanos;
                    again.put(k, p);
                }
            } catch (RuntimeException ex) {
                LOG.warn("{}: handling {} failed", name, change, ex);
            }
        }
        if (again != null) {
            // Later than everything pending: the order stays the order of due times.
            again.forEach((k, p) -> {
                Pending merged = pending.remove(k);
                if (merged != null) p.what |= merged.what;
                pending.put(k, p);
            });
        }
    }

    /**
     * Stops the thread and closes the descriptors. If the thread does not end within a second
     * (a report stuck in the listener), they are left open rather than closed under it.
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
        if (Thread.currentThread() != thread) {
            try {
                thread.join(1000);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("{}: watcher did not stop within a second; its descriptors stay open", name);
                return;
            }
        }
        Libc.close(fd);
        Libc.close(wakeup);
        arena.close();
    }
}
