package dev.fusepanama.examples.mirror;

import static dev.fusepanama.inode.InodeFileSystem.ROOT;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirror's nodes ({@link InodeMirror}'s class comment tells the model): one per source inode
 * the kernel holds entries of, found by id and by device and inode number, with the descriptor an
 * operation reaches its file through, held ({@link NodeDescriptors}) or opened again on demand, by
 * handle or by name. Every operation goes through it, so it also answers errors: one for want of
 * descriptors is logged here, where the descriptors are known.
 */
final class SourceNodes implements LookupCounter {
    private static final Logger LOG = LoggerFactory.getLogger(InodeMirror.class);
    static final MemorySegment EMPTY = Arena.global().allocate(1);
    static final MemorySegment DOT = Arena.global().allocateFrom(".");
    /** O_PATH descriptors of nodes: never following a last link. */
    static final int PATH_FLAGS = Posix.O_PATH | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
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

    /** What the kernel may cache of the entries and attributes answered, where no watch covers them. */
    final Timeouts timeouts;
    /** Other programs' changes in the source, once the mirror watches it ({@link InodeMirror#watch}). */
    volatile SourceChanges changes;
    final NodeDescriptors descriptors;
    private final SourceNode rootNode;
    private volatile boolean mountInsideWarned;
    private final Map<Key, SourceNode> byKey = new HashMap<>();
    private final ConcurrentHashMap<Long, SourceNode> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(ROOT + 1);
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

    /**
     * Made on the application's thread: no {@link Scratch} here, whose first use on a thread
     * gives that thread a umask of 0 (the workers', see {@link Scratch}).
     */
    SourceNodes(Path source, int kept, Timeouts timeouts) throws IOException {
        this.timeouts = timeouts;
        this.descriptors = new NodeDescriptors(kept);
        byte[] path = source.toString().getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(path.length + 1);
            MemorySegment.copy(path, 0, name, JAVA_BYTE, 0, path.length);
            int fd = Libc.openat(Libc.AT_FDCWD, name, Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException(source + ": cannot open the source directory: " + Errno.name(-fd));
            }
            Stat st = Stat.over(arena.allocate(Stat.SIZE, 8));
            int rc = Libc.fstatat(fd, EMPTY, st.segment(), Libc.AT_EMPTY_PATH);
            if (rc < 0) {
                Libc.close(fd);
                throw new IOException(source + ": cannot stat the source directory: " + Errno.name(-rc));
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
                        + "and the process's descriptor limit bounds them", source);
            }
            handleMount = mount;
            byHandle = mount >= 0;
            rootNode = new SourceNode(ROOT, st.segment().get(JAVA_LONG, 0), st.ino(), rootHandle, true, st.mode(), null);
            descriptors.offer(rootNode, fd, true);
        }
        byId.put(ROOT, rootNode);
    }

    SourceNode node(long ino) throws IOException {
        SourceNode n = byId.get(ino);
        if (n == null) {
            throw new ErrnoException(Errno.ESTALE, "no node " + ino);
        }
        return n;
    }

    /** The node {@code ino}, or null where the kernel has forgotten it. */
    SourceNode nodeOrNull(long ino) {
        return byId.get(ino);
    }

    /** The node of the file whose attributes {@code st} holds, or null where the kernel holds none. */
    SourceNode find(Stat st) {
        synchronized (byKey) {
            return byKey.get(new Key(st.segment().get(JAVA_LONG, 0), st.ino()));
        }
    }

    /**
     * One lookup more of the node {@code inode} names, whose entry the library is about to send:
     * false if the kernel forgot it meanwhile (it is no longer in the table), and the library
     * asks again.
     */
    @Override
    public boolean count(Inode inode) {
        synchronized (byKey) {
            SourceNode n = byId.get(inode.nodeId());
            if (n == null) return false;
            n.lookups++;
            return true;
        }
    }

    /** The mount has ended, after {@link InodeMirror#destroy}: what is left goes (nothing, after a destroy that ran). */
    @Override
    public void sessionEnded() {
        forgetAll();
    }

    /** Answers {@code errno}; one for want of descriptors is said in the log too, once per burst. */
    void fail(Reply reply, int errno) {
        if (DescriptorLimit.exhausted(-errno)) {
            limit.report(errno, descriptors.held());
        }
        reply.error(errno);
    }

    void answer(long rc, EmptyReply reply) {
        if (rc < 0) {
            fail(reply, (int) -rc);
        } else {
            reply.ok();
        }
    }

    /**
     * Whether {@code rc}, an open's result, failed for want of descriptors and closing idle node
     * descriptors made room to try it again.
     */
    boolean retry(long rc) {
        return DescriptorLimit.exhausted(rc) && descriptors.shrink() > 0;
    }

    /**
     * A use of the node's descriptor for one operation, to give back with {@link #release}; or a
     * negative errno (ESTALE: its file is gone, or no longer where the mirror saw it).
     */
    long descriptor(SourceNode n) {
        long use = descriptors.acquire(n);
        return use != NodeDescriptors.MISS ? use : reopen(n, 0);
    }

    void release(SourceNode n, long use) {
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
    static MemorySegment nativeName(Name name, MemorySegment into) throws IOException {
        int n = name.length();
        if (n >= Scratch.PATH_MAX) {
            throw new ErrnoException(Errno.ENAMETOOLONG, "name too long");
        }
        for (int i = 0; i < n; i++) {
            into.set(JAVA_BYTE, i, name.byteAt(i));
        }
        into.set(JAVA_BYTE, n, (byte) 0);
        return into;
    }

    /**
     * The node of the file open at {@code fd}, which is {@code name} in {@code parent}, with its
     * attributes in {@code attributes}, to answer an entry with (the library counts the lookup
     * as it sends it, {@link #count}); or a negative errno. With
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
    long nodeOf(Scratch s, int fd, boolean takeOver, SourceNode parent, Name name, Stat attributes) {
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
            if (n != null && n.users < 0) {
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
                        attributes.mode(), new SourceNode.Link(parent, name.bytes()));
                byKey.put(key, n);
                byId.put(n.id, n);
            }
        }
        if (found) {
            seen(n, parent, name);
        } else {
            SourceChanges c = changes;
            if (c != null) {
                // Watched before the kernel learns of it, and read again: a change between the
                // first read and the watch would otherwise be cached for as long as the watch covers.
                c.watch(n, pathFd);
                Libc.fstatat(pathFd, EMPTY, attributes.segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            }
        }
        descriptors.offer(n, pathFd, handle == null);
        return n.id;
    }

    /**
     * Whether the kernel holds the source's inode {@code ino} as {@code name} in {@code parent}, as
     * far as the table knows without a system call: a node of that number with lookups the
     * kernel has not forgotten, last seen under that name there.
     */
    boolean holds(long ino, SourceNode parent, byte[] name) {
        SourceNode n;
        synchronized (byKey) {
            n = byKey.get(new Key(rootNode.dev, ino));
            if (n == null || n.lookups <= 0) return false;
        }
        SourceNode.Link link = n.link;
        return link != null && link.parent() == parent && Arrays.equals(link.name(), name);
    }

    /** {@code n} was found as {@code name} in {@code parent}: where to open it again by name. */
    static void seen(SourceNode n, SourceNode parent, Name name) {
        SourceNode.Link link = n.link;
        if (n != parent && (link == null || link.parent() != parent || !name.is(link.name()))) {
            n.link = new SourceNode.Link(parent, name.bytes());
        }
    }

    /** Answers the entry of {@code name} in {@code parent}: a lookup. */
    void entry(Scratch s, SourceNode parent, Name name, EntryReply reply) throws IOException {
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
        } else {
            reply.entry(Inode.of(id), timeouts(parent, id, reply.attributes()));
        }
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
            SourceChanges c = changes;
            if (c != null) {
                c.forget(drop);
            }
            descriptors.forget(drop);
        }
    }

    /** Every node the kernel holds, the root's included. */
    List<SourceNode> all() {
        synchronized (byKey) {
            return new ArrayList<>(byId.values());
        }
    }

    /**
     * What the kernel may cache of an entry of {@code n} (null: not known here) in {@code parent}
     * (null: not known), whose attributes {@code st} holds.
     */
    Timeouts timeouts(SourceNode parent, SourceNode n, Stat st) {
        SourceChanges c = changes;
        return c == null ? timeouts : c.timeouts(parent, n, st, timeouts);
    }

    /** The same, for the node of id {@code id}. */
    Timeouts timeouts(SourceNode parent, long id, Stat st) {
        SourceChanges c = changes;
        return c == null ? timeouts : c.timeouts(parent, byId.get(id), st, timeouts);
    }

    /** Whether the kernel may keep the data of file {@code n}, open as {@code fd}, across opens; see {@link SourceChanges#keepsData}. */
    boolean keepsData(SourceNode n, int fd, AccessTimes times) {
        SourceChanges c = changes;
        return c != null && c.keepsData(n, fd, times);
    }

    /** The mount has ended: every node but the root is dropped and its descriptor closed. */
    void forgetAll() {
        List<SourceNode> nodes;
        synchronized (byKey) {
            nodes = new ArrayList<>(byId.values());
            nodes.remove(rootNode);
            byKey.clear();
            byId.keySet().removeIf(id -> id != ROOT);
        }
        descriptors.closeAll(nodes);
    }

    /** Closes the source's descriptors, once. */
    void close() {
        if (byId.remove(ROOT) != null) {
            descriptors.closeAll(List.of(rootNode));
            if (handleMount >= 0) {
                Libc.close(handleMount);
            }
        }
    }

    /** How many source inodes the kernel holds entries of. */
    int nodes() {
        synchronized (byKey) {
            return byId.size() - (byId.containsKey(ROOT) ? 1 : 0);
        }
    }
}
