package dev.fusepanama.examples.mirror;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A mirror of a real directory on the inode API, as libfuse's {@code passthrough_hp} is on the
 * low-level one: one node per source inode, and every operation one system call relative to an
 * {@code O_PATH} descriptor of that inode with one name at most. So a file keeps being itself
 * whatever happens to its names: {@code fstat} of a file unlinked or replaced while open answers
 * from the file (the path API cannot: the kernel asks it by a name that is gone), and a file
 * replaced in the source while open through the mirror is a new node that opens at once. No link
 * in the source is followed: a name is resolved one component at a time by the kernel, and each
 * component here is opened with {@code O_NOFOLLOW}, so the mirror needs no containment of its own.
 *
 * <p><b>Descriptors.</b> A node is known by its file's handle ({@code name_to_handle_at(2)}),
 * which names that file for its filesystem's life, where an inode number is given to the next file
 * as soon as the old one is deleted (ext4 does so at once). It holds its {@code O_PATH} descriptor
 * only while among the {@link Builder#descriptors} most recently used, or while a file or
 * directory of it is open ({@link NodeDescriptors}); an operation on any other opens it again:
 * by its handle ({@code open_by_handle_at(2)}) where the mirror has CAP_DAC_READ_SEARCH, else by
 * the name it was last seen under, below its directory's descriptor, with {@code O_NOFOLLOW}, and
 * only if what opens there has the node's handle. So the mirror serves as many inodes as the
 * kernel caches, whatever its descriptor limit; an operation that still finds no descriptor left
 * fails alone, with EMFILE, which the log says once per burst with the limit and how to raise it
 * ({@link DescriptorLimit}), and the next one works once descriptors are free.
 *
 * <p>What that costs: a node opened again takes one system call by handle, two by name (and as
 * many for each directory above it that has no descriptor either); each unlink, rmdir and rename
 * first reads what loses its name ({@code fstatat}), so that a file losing its last name through
 * the mirror keeps its descriptor while the kernel holds its node (nothing could open it again),
 * and a rename reads its result after, for opening by name; an open file takes two descriptors,
 * its own and its node's. Opened by name, a node whose file was renamed or deleted in the source
 * behind the mirror's back answers ESTALE until the kernel looks it up again; by handle, only one
 * whose file was deleted in the source and is open nowhere does. Where the source's filesystem gives no handles, every
 * node holds its descriptor for its life, as {@code passthrough_hp}'s do: the kernel's inode cache
 * is then what the process's descriptor limit allows.
 *
 * <p>Files created by a caller belong to it when the mirror runs as root. With
 * {@link Builder#passthrough}, the kernel reads and writes open files from the source itself
 * (libfuse 3.17+, CAP_SYS_ADMIN); otherwise the mirror reads and writes them.
 */
public final class InodeMirror implements InodeFileSystem, AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InodeMirror.class);
    /** Flags of a client's open that the source's open must not get (see {@link #open}). */
    private static final int NOT_FORWARDED = Posix.O_CREAT | Posix.O_EXCL | Posix.O_NOCTTY | Posix.O_DIRECT | Posix.O_NOFOLLOW;
    private static final MemorySegment EMPTY = Arena.global().allocate(1);
    private static final MemorySegment DOT = Arena.global().allocateFrom(".");
    /** UTIME_NOW and UTIME_OMIT (sys/stat.h). */
    private static final long UTIME_NOW = (1L << 30) - 1;
    private static final long UTIME_OMIT = (1L << 30) - 2;
    /** O_PATH descriptors of nodes: never following a last link. */
    private static final int PATH_FLAGS = Posix.O_PATH | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
    /** Directories above a node opened again by name at once, at most (a cycle of stale links ends there). */
    private static final int MAX_REOPEN_DEPTH = 2048;

    private record Key(long dev, long ino) {}

    /**
     * A thread's memory for file handles and the names of nodes opened again, apart from its
     * {@link Scratch}, whose paths hold the names of the operation that needs the node.
     */
    private static final class HandleScratch {
        private static final ThreadLocal<HandleScratch> PER_THREAD = ThreadLocal.withInitial(HandleScratch::new);
        private final Arena arena = Arena.ofAuto();
        final MemorySegment handle = arena.allocate(Libc.FILE_HANDLE_SIZE, 8);
        final MemorySegment mountId = arena.allocate(JAVA_INT);
        final MemorySegment name = arena.allocate(Scratch.PATH_MAX);
    }

    /** How a mirror is made: {@link #builder(Path)}. */
    public static final class Builder {
        private final Path source;
        private double timeout;
        private boolean passthrough;
        private int descriptors;

        private Builder(Path source) {
            this.source = source;
        }

        /**
         * Seconds the kernel may trust names and attributes (0, the default: the source may
         * change underneath at any time, and each access asks); a mirror whose source only it
         * changes can let the kernel answer walks itself.
         */
        public Builder cacheSeconds(double seconds) {
            if (!(seconds >= 0)) throw new IllegalArgumentException("cacheSeconds must be 0 or more: " + seconds);
            timeout = seconds;
            return this;
        }

        /** Open files' data moves between the kernel and the source without the mirror, where the mount can. */
        public Builder passthrough(boolean on) {
            passthrough = on;
            return this;
        }

        /**
         * How many descriptors of nodes that no open file holds the mirror keeps, the least
         * recently used closed first: by default a quarter of the process's descriptor limit when
         * the mirror is built, at least 16 and at most 16,384. Each spares opening the node again;
         * each also keeps its inode in the source's inode cache.
         */
        public Builder descriptors(int count) {
            if (count < 1) throw new IllegalArgumentException("descriptors must be 1 or more: " + count);
            descriptors = count;
            return this;
        }

        /** @throws IOException if the source cannot be opened as a directory */
        public InodeMirror build() throws IOException {
            return new InodeMirror(this);
        }
    }

    public static Builder builder(Path source) {
        return new Builder(source);
    }

    /** A mirror of {@code source} that caches nothing, with passthrough where the mount can. */
    public static InodeMirror of(Path source) throws IOException {
        return builder(source).passthrough(true).build();
    }

    private final Timeouts timeouts;
    private final boolean passthrough;
    private final boolean root = Libc.geteuid() == 0;
    private final SourceNode rootNode;
    private volatile boolean mountInsideWarned;
    private final Map<Key, SourceNode> byKey = new HashMap<>();
    private final ConcurrentHashMap<Long, SourceNode> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(ROOT + 1);
    private final NodeDescriptors descriptors;
    private final DescriptorLimit limit = new DescriptorLimit();
    /**
     * A descriptor of the source that {@code open_by_handle_at} takes (it refuses an O_PATH one),
     * or -1 where the mirror may not open by handle (no CAP_DAC_READ_SEARCH, or no handles).
     */
    private final int handleMount;
    /** Whether nodes are opened again by handle: until the kernel first refuses it. */
    private volatile boolean byHandle;
    /** The id of the source's mount (name_to_handle_at's): a handle found on another, one bound inside the source, is not opened through it. */
    private final int sourceMountId;
    /** Directory streams by descriptor, with where each stands. */
    private final DirStreams dirs = new DirStreams();
    /** Descriptors of open files, closed at the end for releases that never came. */
    private final DescriptorSet files = new DescriptorSet();

    /**
     * Made on the application's thread: no {@link Scratch} here, whose first use on a thread
     * gives that thread a umask of 0 (the workers', see {@link Scratch}).
     */
    private InodeMirror(Builder b) throws IOException {
        this.timeouts = Timeouts.NONE.withAttributes(b.timeout).withEntries(b.timeout);
        this.passthrough = b.passthrough;
        this.descriptors = new NodeDescriptors(b.descriptors > 0 ? b.descriptors : DescriptorLimit.defaultKept());
        byte[] path = b.source.toString().getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(path.length + 1);
            MemorySegment.copy(path, 0, name, JAVA_BYTE, 0, path.length);
            int fd = Libc.openat(Libc.AT_FDCWD, name, Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException(b.source + ": cannot open the source directory: " + Errno.name(-fd));
            }
            Stat st = Stat.over(arena.allocate(Stat.SIZE, 8));
            int rc = Libc.fstatat(fd, EMPTY, st.segment(), Libc.AT_EMPTY_PATH);
            if (rc < 0) {
                Libc.close(fd);
                throw new IOException(b.source + ": cannot stat the source directory: " + Errno.name(-rc));
            }
            MemorySegment handle = arena.allocate(Libc.FILE_HANDLE_SIZE, 8);
            MemorySegment mountId = arena.allocate(JAVA_INT);
            byte[] rootHandle = handleOf(fd, handle, mountId);
            sourceMountId = mountId.get(JAVA_INT, 0);
            int mount = -1;
            if (rootHandle != null) {
                mount = Libc.openat(fd, DOT, Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
                int probe = mount < 0 ? mount : Libc.openByHandleAt(mount, handle, PATH_FLAGS);
                if (probe >= 0) {
                    Libc.close(probe);
                } else if (mount >= 0) {
                    Libc.close(mount);
                    mount = -1;
                }
            } else {
                LOG.info("{}: its filesystem gives no file handles, so each node the kernel holds keeps a descriptor "
                        + "and the process's descriptor limit bounds them", b.source);
            }
            handleMount = mount;
            byHandle = mount >= 0;
            rootNode = new SourceNode(ROOT, st.segment().get(JAVA_LONG, 0), st.ino(), rootHandle, true, false, null);
            descriptors.offer(rootNode, fd, true);
        }
        byId.put(ROOT, rootNode);
    }

    /**
     * The options to mount with: the kernel checks permissions ({@code default_permissions}, since
     * the mirror may run as root), set-ID bits are cleared by the kernel's rule (no
     * {@code handle_killpriv}: writes reach the source as the mirror's process, which may keep
     * them), and {@code flock} locks are the source's. Requests are read into memory, not
     * spliced ({@code SPLICE_READ}, which libfuse turns on for a filesystem with write_buf): it
     * would read every request through a pipe, which cost the create cycle twice the CPU of
     * passthrough_hp without splice ({@code --suite mirror}).
     */
    public MountOptions.Builder mountOptions() {
        return MountOptions.builder()
                .fsName("mirror")
                .subtype("mirror")
                .defaultPermissions(true)
                .want(ConnectionInfo.CAP_FLOCK_LOCKS | ConnectionInfo.CAP_POSIX_ACL | ConnectionInfo.CAP_DONT_MASK)
                .unwant(ConnectionInfo.CAP_SPLICE_READ)
                .unwant(ConnectionInfo.CAP_HANDLE_KILLPRIV | ConnectionInfo.CAP_HANDLE_KILLPRIV_V2)
                .passthrough(passthrough);
    }

    /**
     * Whether the kernel applies POSIX ACLs (FUSE_POSIX_ACL, which {@link #mountOptions} asks
     * for) and leaves the caller's umask to the filesystem (FUSE_DONT_MASK, also asked for): it
     * checks permissions by the source's ACLs then, and the source's filesystem applies the umask
     * as for any program, except where the parent directory has a default ACL, which decides instead.
     */
    private volatile boolean acls;

    @Override
    public void init(ConnectionInfo connection) {
        acls = connection.wants(ConnectionInfo.CAP_POSIX_ACL) && connection.wants(ConnectionInfo.CAP_DONT_MASK);
    }

    /** Before making a file: the caller's umask on this worker thread, where the kernel left it to the mirror. */
    private void takeUmask(Request request) {
        if (acls) Libc.umask(request.umask());
    }

    /** After making a file: the worker's umask of 0 again (see {@link Scratch}). */
    private void dropUmask() {
        if (acls) Libc.umask(0);
    }

    // ---- nodes -------------------------------------------------------------------------------

    private SourceNode node(long ino) throws IOException {
        SourceNode n = byId.get(ino);
        if (n == null) {
            throw new dev.fusepanama.ErrnoException(Errno.ESTALE, "no node " + ino);
        }
        return n;
    }

    /** Answers {@code errno}; one for want of descriptors is said in the log too, once per burst. */
    private void fail(Reply reply, int errno) {
        if (DescriptorLimit.exhausted(-errno)) {
            limit.report(errno, descriptors.held());
        }
        reply.error(errno);
    }

    /**
     * Whether {@code rc}, an open's result, failed for want of descriptors and closing idle node
     * descriptors made room to try it again.
     */
    private boolean retry(long rc) {
        return DescriptorLimit.exhausted(rc) && descriptors.shrink() > 0;
    }

    /**
     * A use of the node's descriptor for one operation, to give back with {@link #release}; or a
     * negative errno (ESTALE: its file is gone, or no longer where the mirror saw it).
     */
    private long descriptor(SourceNode n) {
        long use = descriptors.acquire(n);
        return use != NodeDescriptors.MISS ? use : reopen(n, 0);
    }

    private void release(SourceNode n, long use) {
        descriptors.release(n, use);
    }

    /** Opens the node's file again and makes that its descriptor, with a use taken; or a negative errno. */
    private long reopen(SourceNode n, int depth) {
        int fd = -Errno.EPERM;
        if (byHandle && n.onSourceMount && n.handle != null) {
            fd = openByHandle(n);
            if (fd == -Errno.EPERM) {
                byHandle = false;
                LOG.info("the kernel refuses open_by_handle_at: the mirror opens nodes again by name");
            }
        }
        if (fd == -Errno.EPERM) {
            fd = openByName(n, depth);
        }
        return fd < 0 ? fd : descriptors.install(n, fd);
    }

    private int openByHandle(SourceNode n) {
        MemorySegment handle = HandleScratch.PER_THREAD.get().handle;
        MemorySegment.copy(n.handle, 0, handle, JAVA_BYTE, 0, n.handle.length);
        int fd = Libc.openByHandleAt(handleMount, handle, PATH_FLAGS);
        if (retry(fd)) {
            fd = Libc.openByHandleAt(handleMount, handle, PATH_FLAGS);
        }
        return fd;
    }

    /**
     * Opens the node by the name it was last seen under, below its directory (opened again first
     * where it has no descriptor either), if what opens there has the node's handle.
     */
    private int openByName(SourceNode n, int depth) {
        SourceNode.Link link = n.link;
        if (link == null || n.handle == null || depth >= MAX_REOPEN_DEPTH) {
            return -Errno.ESTALE;
        }
        SourceNode parent = link.parent();
        long dir = descriptors.acquire(parent);
        if (dir == NodeDescriptors.MISS) {
            dir = reopen(parent, depth + 1);
        }
        if (dir < 0) {
            return (int) dir;
        }
        HandleScratch h = HandleScratch.PER_THREAD.get();
        int fd;
        try {
            MemorySegment name = Scratch.cString(h.name, link.name());
            fd = Libc.openat((int) dir, name, PATH_FLAGS, 0);
            if (retry(fd)) {
                fd = Libc.openat((int) dir, name, PATH_FLAGS, 0);
            }
        } finally {
            release(parent, dir);
        }
        if (fd == -Errno.ENOENT || fd == -Errno.ENOTDIR) {
            return -Errno.ESTALE;
        }
        if (fd >= 0 && !Arrays.equals(n.handle, handleOf(fd, h.handle, h.mountId))) {
            Libc.close(fd);
            return -Errno.ESTALE;
        }
        return fd;
    }

    /**
     * The file handle of what {@code fd} is open at, as {@link SourceNode#handle} keeps it, with
     * its mount id in {@code mountId}; null where the filesystem gives none.
     */
    private static byte[] handleOf(int fd, MemorySegment handle, MemorySegment mountId) {
        handle.set(JAVA_INT, 0, Libc.MAX_HANDLE_SZ);
        if (Libc.nameToHandleAt(fd, EMPTY, handle, mountId, Libc.AT_EMPTY_PATH) < 0) {
            return null;
        }
        return handle.asSlice(0, 8 + Integer.toUnsignedLong(handle.get(JAVA_INT, 0))).toArray(JAVA_BYTE);
    }

    /** {@code name} as a C string in {@code into}. */
    private static MemorySegment nativeName(Name name, MemorySegment into) throws IOException {
        int n = name.length();
        if (n >= Scratch.PATH_MAX) {
            throw new dev.fusepanama.ErrnoException(Errno.ENAMETOOLONG, "name too long");
        }
        for (int i = 0; i < n; i++) {
            into.set(JAVA_BYTE, i, name.byteAt(i));
        }
        into.set(JAVA_BYTE, n, (byte) 0);
        return into;
    }

    /**
     * The node of the file open at {@code fd}, which is {@code name} in {@code parent}, with its
     * attributes in {@code attributes}, its lookup count raised by one; or a negative errno. With
     * {@code takeOver}, {@code fd} is an {@code O_PATH} descriptor that becomes the node's (or is
     * closed); otherwise the node gets its own. The file is the one opened even if the name
     * changes meanwhile. A node that holds a descriptor is that file if it has its device and
     * inode number (two files alive at once never share them); one without is only if it has
     * the same handle: its file may have been deleted and the number given to this one, which is
     * then a new node. A file on another device than the source's (a filesystem mounted inside
     * it) is refused, as passthrough_hp does: its inode numbers could equal the source's, and
     * tools that find hard links by them ({@code cp -a}, {@code tar}, {@code du}) would take two
     * files for one.
     */
    private long nodeOf(Scratch s, int fd, boolean takeOver, SourceNode parent, Name name, Stat attributes) {
        int rc = Libc.fstatat(fd, EMPTY, attributes.segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
        long dev = attributes.segment().get(JAVA_LONG, 0);
        if (rc == 0 && dev != rootNode.dev) {
            if (!mountInsideWarned) {
                mountInsideWarned = true;
                LOG.warn("a filesystem is mounted inside the mirrored directory: the mirror hides what is mounted there");
            }
            rc = -Errno.EOPNOTSUPP;
        }
        if (rc < 0) {
            if (takeOver) {
                Libc.close(fd);
            }
            return rc;
        }
        Key key = new Key(dev, attributes.ino());
        SourceNode n;
        synchronized (byKey) {
            n = byKey.get(key);
            if (n != null && n.users >= 0) {
                n.lookups++;
            } else {
                n = null;
            }
        }
        if (n != null) {
            if (takeOver) {
                Libc.close(fd);
            }
            seen(n, parent, name);
            return n.id;
        }
        HandleScratch h = HandleScratch.PER_THREAD.get();
        byte[] handle = handleOf(fd, h.handle, h.mountId);
        boolean onSourceMount = handle != null && h.mountId.get(JAVA_INT, 0) == sourceMountId;
        int pathFd = fd;
        if (!takeOver) {
            pathFd = Libc.openat(Libc.AT_FDCWD, s.procPath(fd), Posix.O_PATH | Posix.O_CLOEXEC, 0);
            if (retry(pathFd)) {
                pathFd = Libc.openat(Libc.AT_FDCWD, s.procPath(fd), Posix.O_PATH | Posix.O_CLOEXEC, 0);
            }
            if (pathFd < 0) {
                return pathFd;
            }
        }
        boolean found;
        synchronized (byKey) {
            n = byKey.get(key);
            found = n != null && (n.users >= 0 || Arrays.equals(n.handle, handle));
            if (!found) {
                n = new SourceNode(nextId.getAndIncrement(), key.dev(), key.ino(), handle, onSourceMount,
                        (attributes.mode() & Posix.S_IFMT) == Posix.S_IFLNK, new SourceNode.Link(parent, name.bytes()));
                byKey.put(key, n);
                byId.put(n.id, n);
            }
            n.lookups++;
        }
        if (found) {
            seen(n, parent, name);
        }
        descriptors.offer(n, pathFd, handle == null);
        return n.id;
    }

    /** {@code n} was found as {@code name} in {@code parent}: where to open it again by name. */
    private static void seen(SourceNode n, SourceNode parent, Name name) {
        SourceNode.Link link = n.link;
        if (n != parent && (link == null || link.parent() != parent || !name.is(link.name()))) {
            n.link = new SourceNode.Link(parent, name.bytes());
        }
    }

    private void entry(Scratch s, SourceNode parent, Name name, EntryReply reply) throws IOException {
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(parent);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        int fd = Libc.openat((int) dir, n, PATH_FLAGS, 0);
        if (retry(fd)) {
            fd = Libc.openat((int) dir, n, PATH_FLAGS, 0);
        }
        release(parent, dir);
        long id = fd < 0 ? fd : nodeOf(s, fd, true, parent, name, reply.attributes());
        if (id < 0) {
            fail(reply, (int) -id);
        } else if (!reply.entry(Inode.of(id), timeouts)) {
            forget(id, 1);
        }
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        entry(Scratch.worker(), node(parent), name, reply);
    }

    @Override
    public void forget(long ino, long lookups) {
        if (ino == ROOT) {
            return;
        }
        SourceNode drop = null;
        synchronized (byKey) {
            SourceNode n = byId.get(ino);
            if (n != null) {
                n.lookups -= lookups;
                if (n.lookups <= 0) {
                    byKey.remove(new Key(n.dev, n.ino), n);
                    byId.remove(ino);
                    drop = n;
                }
            }
        }
        if (drop != null) {
            descriptors.forget(drop);
        }
    }

    /** The mount has ended: every descriptor still open is closed, the source's last. */
    @Override
    public void destroy() {
        files.drain(fd -> Libc.close(fd));
        dirs.closeAll();
        List<SourceNode> nodes;
        synchronized (byKey) {
            nodes = new ArrayList<>(byId.values());
            nodes.remove(rootNode);
            byKey.clear();
            byId.keySet().removeIf(id -> id != ROOT);
        }
        descriptors.closeAll(nodes);
        close();
    }

    /** Closes the source's descriptors; for a mirror that was never mounted, or at any time after. */
    @Override
    public void close() {
        if (byId.remove(ROOT) != null) {
            descriptors.closeAll(List.of(rootNode));
            if (handleMount >= 0) {
                Libc.close(handleMount);
            }
        }
    }

    /** How many source inodes the kernel holds entries of (tests). */
    int nodes() {
        synchronized (byKey) {
            return byId.size() - (byId.containsKey(ROOT) ? 1 : 0);
        }
    }

    /** How many nodes hold a descriptor now, the root's included (tests). */
    int descriptorsHeld() {
        return descriptors.held();
    }

    /** How many descriptors of nodes no open file holds it keeps at most (tests). */
    int descriptorCapacity() {
        return descriptors.capacity();
    }

    // ---- attributes -------------------------------------------------------------------------

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        MemorySegment st = reply.attributes().segment();
        int rc;
        if (fh != NO_HANDLE) {
            rc = Libc.fstat((int) fh, st);
        } else {
            SourceNode n = node(ino);
            long d = descriptor(n);
            if (d < 0) {
                fail(reply, (int) -d);
                return;
            }
            rc = Libc.fstatat((int) d, EMPTY, st, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            release(n, d);
        }
        if (rc < 0) {
            fail(reply, -rc);
        } else {
            reply.send(timeouts);
        }
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int rc;
        try {
            rc = setattr(s, n, (int) d, attributes, toSet, fh);
        } finally {
            release(n, d);
        }
        if (rc < 0) {
            fail(reply, -rc);
            return;
        }
        getattr(request, ino, fh, reply);
    }

    private static int setattr(Scratch s, SourceNode n, int nodeFd, Stat attributes, int toSet, long fh) {
        int fd = (int) fh;
        boolean open = fh != NO_HANDLE;
        int rc = 0;
        if ((toSet & SET_MODE) != 0) {
            rc = open ? Libc.fchmod(fd, attributes.mode() & 07777)
                    : n.symlink ? -Errno.EOPNOTSUPP
                    : Libc.fchmodat(Libc.AT_FDCWD, s.procPath(nodeFd), attributes.mode() & 07777, 0);
        }
        if (rc == 0 && (toSet & (SET_UID | SET_GID)) != 0) {
            int uid = (toSet & SET_UID) != 0 ? attributes.uid() : -1;
            int gid = (toSet & SET_GID) != 0 ? attributes.gid() : -1;
            rc = Libc.fchownat(nodeFd, EMPTY, uid, gid, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
        }
        if (rc == 0 && (toSet & SET_SIZE) != 0) {
            rc = open ? Libc.ftruncate(fd, attributes.size())
                    : Libc.truncate(s.procPath(nodeFd), attributes.size());
        }
        if (rc == 0 && (toSet & (SET_ATIME | SET_MTIME)) != 0) {
            MemorySegment times = s.small;
            times.set(JAVA_LONG, 0, attributes.atimeSeconds());
            times.set(JAVA_LONG, 8, (toSet & SET_ATIME) == 0 ? UTIME_OMIT
                    : (toSet & SET_ATIME_NOW) != 0 ? UTIME_NOW : attributes.atimeNanos());
            times.set(JAVA_LONG, 16, attributes.mtimeSeconds());
            times.set(JAVA_LONG, 24, (toSet & SET_MTIME) == 0 ? UTIME_OMIT
                    : (toSet & SET_MTIME_NOW) != 0 ? UTIME_NOW : attributes.mtimeNanos());
            rc = open ? Libc.utimensat(Libc.AT_FDCWD, s.procPath(fd), times, 0)
                    : n.symlink ? Libc.utimensat(nodeFd, EMPTY, times, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW)
                    : Libc.utimensat(Libc.AT_FDCWD, s.procPath(nodeFd), times, 0);
        }
        return rc;
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode node = node(ino);
        long d = descriptor(node);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        long n = Libc.readlinkat((int) d, EMPTY, s.text, Scratch.PATH_MAX);
        release(node, d);
        if (n < 0) {
            fail(reply, (int) -n);
            return;
        }
        reply.target(s.text.asSlice(0, n).toArray(JAVA_BYTE));
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        Scratch s = Scratch.worker();
        MemorySegment v = s.small;
        SourceNode n = node(ino);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int rc = Libc.fstatvfs((int) d, v);
        release(n, d);
        if (rc < 0) {
            fail(reply, -rc);
            return;
        }
        reply.statvfs().setBlockSize(v.get(JAVA_LONG, 0)).setFragmentSize(v.get(JAVA_LONG, 8))
                .setBlocks(v.get(JAVA_LONG, 16)).setBlocksFree(v.get(JAVA_LONG, 24))
                .setBlocksAvailable(v.get(JAVA_LONG, 32)).setFiles(v.get(JAVA_LONG, 40))
                .setFilesFree(v.get(JAVA_LONG, 48)).setFilesAvailable(v.get(JAVA_LONG, 56))
                .setFsid(v.get(JAVA_LONG, 64)).setFlags(v.get(JAVA_LONG, 72)).setNameMax(v.get(JAVA_LONG, 80));
        reply.send();
    }

    // ---- names ------------------------------------------------------------------------------

    /**
     * When the mirror runs as root for another user, a new file must belong to its creator: it
     * is made with the caller's fsgid (so a set-group-ID directory still passes its group on, as
     * the source's filesystem decides) and given to the caller's uid after, through a descriptor
     * of what was made.
     *
     * @return the uid to give the new file to, or -1 when nothing is to be done
     */
    private int enterCaller(Request request) {
        if (!root || request.uid() == 0 && request.gid() == 0) {
            return -1;
        }
        Libc.setfsgid(request.gid());
        return request.uid();
    }

    private static void leaveCaller(int caller) {
        if (caller >= 0) {
            Libc.setfsgid(0);
        }
    }

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        try {
            int caller = enterCaller(request);
            takeUmask(request);
            int rc = Libc.mknodat((int) dir, n, mode, rdev);
            dropUmask();
            leaveCaller(caller);
            made(s, p, (int) dir, name, n, rc, mode & Posix.S_IFMT, caller, reply);
        } finally {
            release(p, dir);
        }
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        try {
            int caller = enterCaller(request);
            takeUmask(request);
            int rc = Libc.mkdirat((int) dir, n, mode);
            dropUmask();
            leaveCaller(caller);
            made(s, p, (int) dir, name, n, rc, Posix.S_IFDIR, caller, reply);
        } finally {
            release(p, dir);
        }
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        if (target.length >= Scratch.PATH_MAX) {
            reply.error(Errno.ENAMETOOLONG);
            return;
        }
        MemorySegment.copy(target, 0, s.path2, JAVA_BYTE, 0, target.length);
        s.path2.set(JAVA_BYTE, target.length, (byte) 0);
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        try {
            int caller = enterCaller(request);
            int rc = Libc.symlinkat(s.path2, (int) dir, n);
            leaveCaller(caller);
            made(s, p, (int) dir, name, n, rc, Posix.S_IFLNK, caller, reply);
        } finally {
            release(p, dir);
        }
    }

    /**
     * After {@code name} was made in {@code parent}, open at {@code dir} ({@code rc}): opens it
     * and, for another user, checks that it is still a file of the {@code type} made, by root
     * (another program could have put something else there meanwhile, which must not be given
     * away), and gives it to {@code caller}; then answers its entry from that descriptor.
     */
    private void made(Scratch s, SourceNode parent, int dir, Name name, MemorySegment nativeName, int rc, int type, int caller,
            EntryReply reply) {
        if (rc < 0) {
            fail(reply, -rc);
            return;
        }
        int fd = Libc.openat(dir, nativeName, PATH_FLAGS, 0);
        if (retry(fd)) {
            fd = Libc.openat(dir, nativeName, PATH_FLAGS, 0);
        }
        if (fd < 0) {
            fail(reply, -fd);
            return;
        }
        if (caller > 0) {
            Stat st = reply.attributes();
            rc = Libc.fstatat(fd, EMPTY, st.segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            if (rc == 0 && ((st.mode() & Posix.S_IFMT) != type || st.uid() != 0)) {
                LOG.warn("a new file in the source was replaced before it could be given to its creator");
                rc = -Errno.EIO;
            }
            if (rc == 0) {
                rc = Libc.fchownat(fd, EMPTY, caller, -1, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            }
            if (rc < 0) {
                Libc.close(fd);
                fail(reply, -rc);
                return;
            }
        }
        long id = nodeOf(s, fd, true, parent, name, reply.attributes());
        if (id < 0) {
            fail(reply, (int) -id);
        } else if (!reply.entry(Inode.of(id), timeouts)) {
            forget(id, 1);
        }
    }

    /** A new name for the node's file, by its /proc/self/fd name (AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH); the entry is the node's. */
    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        SourceNode p = node(newParent);
        MemorySegment name = nativeName(newName, s.path);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        long dir = descriptor(p);
        if (dir < 0) {
            release(n, d);
            fail(reply, (int) -dir);
            return;
        }
        int rc = Libc.linkat(Libc.AT_FDCWD, s.procPath((int) d), (int) dir, name, Libc.AT_SYMLINK_FOLLOW);
        if (rc == 0) {
            rc = Libc.fstatat((int) d, EMPTY, reply.attributes().segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
        }
        release(p, dir);
        release(n, d);
        if (rc < 0) {
            fail(reply, -rc);
            return;
        }
        synchronized (byKey) {
            n.lookups++;
        }
        seen(n, p, newName);
        if (!reply.entry(n, timeouts)) {
            forget(n.id, 1);
        }
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        removeName(parent, name, 0, reply);
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        removeName(parent, name, Libc.AT_REMOVEDIR, reply);
    }

    private void removeName(long parent, Name name, int flags, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        SourceNode kept = keepIfLastName(s, (int) dir, n);
        int rc = Libc.unlinkat((int) dir, n, flags);
        if (rc < 0 && kept != null) {
            descriptors.unkeep(kept);
        }
        release(p, dir);
        answer(rc, reply);
    }

    /**
     * Before {@code name} in the directory open at {@code dir} loses its file, if it is that
     * file's last name (a directory's only one): the file's node, if any, keeps its descriptor
     * until the kernel forgets it, since nothing could open the file again (its data lives as
     * long as a descriptor does), and the kernel may still ask about it (a client's O_PATH
     * descriptor, a working directory). Returns the node if this kept it, for {@link
     * NodeDescriptors#unkeep} should the name stay after all.
     */
    private SourceNode keepIfLastName(Scratch s, int dir, MemorySegment name) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstatat(dir, name, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0
                || (st.mode() & Posix.S_IFMT) != Posix.S_IFDIR && st.nlink() > 1) {
            return null;
        }
        SourceNode n;
        synchronized (byKey) {
            n = byKey.get(new Key(st.segment().get(JAVA_LONG, 0), st.ino()));
        }
        if (n == null) {
            return null;
        }
        long d = descriptor(n);
        if (d < 0) {
            return null;
        }
        boolean kept = descriptors.keep(n);
        release(n, d);
        return kept ? n : null;
    }

    /**
     * A file that a rename replaces keeps its node's descriptor as an unlinked one does; the
     * nodes renamed are seen under their new names after (for opening them again by name).
     */
    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags,
            EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        SourceNode np = node(newParent);
        MemorySegment from = nativeName(name, s.path);
        MemorySegment to = nativeName(newName, s.path2);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        long newDir = descriptor(np);
        if (newDir < 0) {
            release(p, dir);
            fail(reply, (int) -newDir);
            return;
        }
        try {
            boolean exchange = (flags & Posix.RENAME_EXCHANGE) != 0;
            SourceNode kept = exchange ? null : keepIfLastName(s, (int) newDir, to);
            int rc = Libc.renameat2((int) dir, from, (int) newDir, to, flags);
            if (rc < 0 && kept != null) {
                descriptors.unkeep(kept);
            }
            if (rc == 0) {
                seenAt(s, (int) newDir, to, np, newName);
                if (exchange) {
                    seenAt(s, (int) dir, from, p, name);
                }
            }
            answer(rc, reply);
        } finally {
            release(np, newDir);
            release(p, dir);
        }
    }

    /** The node of what is {@code name} in {@code parent} (open at {@code dir}) now, if any, is seen there. */
    private void seenAt(Scratch s, int dir, MemorySegment nativeName, SourceNode parent, Name name) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstatat(dir, nativeName, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0) {
            return;
        }
        SourceNode n;
        synchronized (byKey) {
            n = byKey.get(new Key(st.segment().get(JAVA_LONG, 0), st.ino()));
        }
        if (n != null) {
            seen(n, parent, name);
        }
    }

    private void answer(long rc, EmptyReply reply) {
        if (rc < 0) {
            fail(reply, (int) -rc);
        } else {
            reply.ok();
        }
    }

    // ---- open files -------------------------------------------------------------------------

    /**
     * Opens with {@code O_NOATIME} where the mount's flags say a read changes no access time
     * (noatime, read-only, nodiratime for a directory), so that reading through the mount leaves
     * the source's atime as it was; the source's own mount decides the rest (relatime, strictatime).
     * O_NOATIME needs the file's owner or CAP_FOWNER: without it, opens as asked.
     */
    private static int openNoAtime(int dirFd, MemorySegment name, int flags, AccessTimes times, boolean directory) {
        boolean never = times.readOnly() || times.rule() == AccessTimes.Rule.NEVER || (directory && !times.directories());
        if (never) {
            int fd = Libc.openat(dirFd, name, flags | Posix.O_NOATIME, 0);
            if (fd != -Errno.EPERM) return fd;
        }
        return Libc.openat(dirFd, name, flags, 0);
    }

    /**
     * Opens the node's file again, by its {@code /proc/self/fd} name, with the client's flags
     * but those that only make sense for a name ({@code O_CREAT}, {@code O_EXCL},
     * {@code O_NOFOLLOW}) and {@code O_DIRECT}: the client's direct I/O holds between it and the
     * kernel, and forwarded it would demand of libfuse's buffers an alignment they lack.
     */
    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int open = (flags & ~NOT_FORWARDED) | Posix.O_CLOEXEC;
        int fd = openNoAtime(Libc.AT_FDCWD, s.procPath((int) d), open, request.accessTimes(), false);
        if (retry(fd)) {
            fd = openNoAtime(Libc.AT_FDCWD, s.procPath((int) d), open, request.accessTimes(), false);
        }
        if (fd >= 0) {
            descriptors.pin(n);
        }
        release(n, d);
        if (fd < 0) {
            fail(reply, -fd);
            return;
        }
        files.add(fd);
        if (passthrough) {
            reply.passthrough(fd);
        }
        if (!reply.open(fd, 0)) {
            files.remove(fd);
            Libc.close(fd);
            descriptors.unpin(n);
        }
    }

    /**
     * Creates with {@code O_NOFOLLOW} (a link put at the name meanwhile is not followed) and, when
     * the caller did not ask for {@code O_EXCL}, opens a file that appeared at the name meanwhile
     * instead; as root for another user, only a file it made is given to the caller, and one it
     * found is opened only if its permission bits allow the caller (the kernel checked the
     * directory only, believing the name free). The node comes from the open descriptor.
     */
    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = descriptor(p);
        if (dir < 0) {
            fail(reply, (int) -dir);
            return;
        }
        int open = (flags & ~(Posix.O_DIRECT | Posix.O_NOCTTY | Posix.O_EXCL | Posix.O_CREAT)) | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
        int caller = enterCaller(request);
        boolean made = true;
        takeUmask(request);
        int fd = Libc.openat((int) dir, n, open | Posix.O_CREAT | Posix.O_EXCL, mode);
        if (retry(fd)) {
            fd = Libc.openat((int) dir, n, open | Posix.O_CREAT | Posix.O_EXCL, mode);
        }
        dropUmask();
        if (fd == -Errno.EEXIST && (flags & Posix.O_EXCL) == 0) {
            made = false;
            fd = Libc.openat((int) dir, n, open, 0);
        }
        leaveCaller(caller);
        int rc = fd;
        if (fd >= 0 && caller > 0) {
            if (made) {
                rc = Libc.fchown(fd, caller, -1);
                if (rc == 0 && (mode & (Posix.S_ISUID | Posix.S_ISGID)) != 0) {
                    // chown clears the set-ID bits, even root's chown; the creator asked for them.
                    rc = Libc.fchmod(fd, mode & 07777);
                }
            } else if (!mayOpen(s, fd, request, flags)) {
                rc = -Errno.EACCES;
            }
        }
        long id = rc < 0 ? rc : nodeOf(s, fd, false, p, name, reply.attributes());
        release(p, dir);
        if (id < 0) {
            if (fd >= 0) {
                Libc.close(fd);
            }
            fail(reply, (int) -id);
            return;
        }
        SourceNode node = byId.get(id);
        hold(node);
        files.add(fd);
        if (passthrough) {
            reply.passthrough(fd);
        }
        if (!reply.created(Inode.of(id), timeouts, fd, 0)) {
            files.remove(fd);
            Libc.close(fd);
            descriptors.unpin(node);
            forget(id, 1);
        }
    }

    /** {@code n} is open: it keeps a descriptor until {@link #release}, one opened again if another operation's closed it meanwhile. */
    private void hold(SourceNode n) {
        descriptors.pin(n);
        long d = descriptor(n);
        if (d >= 0) {
            release(n, d);
        }
    }

    /** Whether the permission bits of the file open at {@code fd} let the caller open it with {@code flags}. */
    private static boolean mayOpen(Scratch s, int fd, Request request, int flags) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstat(fd, st.segment()) < 0) {
            return false;
        }
        int access = flags & Posix.O_ACCMODE;
        int need = (access == Posix.O_RDONLY ? 4 : access == Posix.O_WRONLY ? 2 : 6) | ((flags & Posix.O_TRUNC) != 0 ? 2 : 0);
        int bits;
        if (st.uid() == request.uid()) {
            bits = st.mode() >> 6;
        } else if (st.gid() == request.gid() || Arrays.stream(request.groups()).anyMatch(g -> g == st.gid())) {
            bits = st.mode() >> 3;
        } else {
            bits = st.mode();
        }
        return (bits & need) == need;
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        Scratch s = Scratch.worker();
        long n = Libc.pread((int) fh, s.buffer(size), size, offset);
        if (n < 0) {
            fail(reply, (int) -n);
            return;
        }
        reply.data(s.bufferView().limit((int) n));
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
        long n = Libc.pwrite((int) fh, MemorySegment.ofBuffer(data), data.remaining(), offset);
        if (n < 0) {
            fail(reply, (int) -n);
        } else {
            reply.written(n);
        }
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        int fd = (int) fh;
        files.remove(fd); // before the close: once closed, the number may be handed out again
        int rc = Libc.close(fd);
        unpin(ino);
        answer(rc, reply);
    }

    /** An open file or directory of the node {@code ino} was released. */
    private void unpin(long ino) {
        SourceNode n = byId.get(ino);
        if (n != null) {
            descriptors.unpin(n);
        }
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        answer(Libc.fsync((int) fh, dataOnly), reply);
    }

    @Override
    public void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply) {
        answer(Libc.fallocate((int) fh, mode, offset, length), reply);
    }

    @Override
    public void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) {
        Scratch s = Scratch.worker();
        MemorySegment offsets = s.small;
        offsets.set(JAVA_LONG, 0, offsetIn);
        offsets.set(JAVA_LONG, 8, offsetOut);
        long n = Libc.copyFileRange((int) fhIn, offsets, (int) fhOut, offsets.asSlice(8), length, flags);
        if (n < 0) {
            fail(reply, (int) -n);
        } else {
            reply.written(n);
        }
    }

    @Override
    public void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) {
        long n = Libc.lseek((int) fh, offset, whence);
        if (n < 0) {
            fail(reply, (int) -n);
        } else {
            reply.offset(n);
        }
    }

    @Override
    public void flock(Request request, long ino, long fh, int operation, EmptyReply reply) {
        answer(Libc.flock((int) fh, operation), reply);
    }

    // ---- directories ------------------------------------------------------------------------

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        SourceNode n = node(ino);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int open = Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC;
        int fd = openNoAtime((int) d, DOT, open, request.accessTimes(), true);
        if (retry(fd)) {
            fd = openNoAtime((int) d, DOT, open, request.accessTimes(), true);
        }
        if (fd >= 0) {
            descriptors.pin(n);
        }
        release(n, d);
        if (fd < 0) {
            fail(reply, -fd);
            return;
        }
        dirs.add(fd);
        if (!reply.open(fd, 0)) {
            dirs.close(fd);
            descriptors.unpin(n);
        }
    }

    /** From the source's own offsets ({@link DirStreams}). */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        dirs.read(fh, offset, reply);
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        int rc = dirs.close((int) fh);
        unpin(ino);
        answer(rc, reply);
    }

    @Override
    public void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        answer(Libc.fsync((int) fh, dataOnly), reply);
    }

    // ---- extended attributes ------------------------------------------------------------------

    /*
     * By the node's /proc/self/fd name, which reaches the file itself, a symbolic link's too (the
     * *xattrat calls take no O_PATH descriptor: EBADF).
     */

    private static MemorySegment attributeName(Name name, Scratch s) throws IOException {
        return nativeName(name, s.path2);
    }

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        MemorySegment a = attributeName(name, s);
        MemorySegment v = MemorySegment.ofBuffer(value);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int rc = Libc.setxattr(s.procPath((int) d), a, v, value.remaining(), flags);
        release(n, d);
        answer(rc, reply);
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        MemorySegment a = attributeName(name, s);
        MemorySegment into = size == 0 ? MemorySegment.NULL : s.xattrList().asSlice(0, Math.min(size, Scratch.XATTR_LIST_MAX));
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        long rc = Libc.getxattr(s.procPath((int) d), a, into, into.byteSize());
        release(n, d);
        xattrAnswer(rc, size, into, reply);
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        MemorySegment into = size == 0 ? MemorySegment.NULL : s.xattrList().asSlice(0, Math.min(size, Scratch.XATTR_LIST_MAX));
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        long rc = Libc.listxattr(s.procPath((int) d), into, into.byteSize());
        release(n, d);
        xattrAnswer(rc, size, into, reply);
    }

    private void xattrAnswer(long rc, long size, MemorySegment value, XattrReply reply) {
        if (rc < 0) {
            fail(reply, (int) -rc);
        } else if (size == 0) {
            reply.size(rc);
        } else {
            reply.data(value.asSlice(0, rc).asByteBuffer());
        }
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = node(ino);
        MemorySegment a = attributeName(name, s);
        long d = descriptor(n);
        if (d < 0) {
            fail(reply, (int) -d);
            return;
        }
        int rc = Libc.removexattr(s.procPath((int) d), a);
        release(n, d);
        answer(rc, reply);
    }
}
