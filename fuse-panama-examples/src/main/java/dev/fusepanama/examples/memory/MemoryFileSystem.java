package dev.fusepanama.examples.memory;

import static dev.fusepanama.Errno.E2BIG;
import static dev.fusepanama.Errno.EEXIST;
import static dev.fusepanama.Errno.EINVAL;
import static dev.fusepanama.Errno.EISDIR;
import static dev.fusepanama.Errno.ENAMETOOLONG;
import static dev.fusepanama.Errno.ENODATA;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.Errno.ENOSPC;
import static dev.fusepanama.Errno.ENOTDIR;
import static dev.fusepanama.Errno.ENOTEMPTY;
import static dev.fusepanama.Errno.ENXIO;
import static dev.fusepanama.Errno.EOPNOTSUPP;
import static dev.fusepanama.Errno.EPERM;
import static dev.fusepanama.Errno.ERANGE;
import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFMT;
import static dev.fusepanama.Posix.S_IFREG;
import static dev.fusepanama.Posix.S_ISGID;
import static dev.fusepanama.Posix.S_ISUID;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.FileNames;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.SetId;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory filesystem with the semantics of tmpfs, on the inode API: sparse files, hard
 * links, symlinks, FIFOs and device nodes, extended attributes, stable directory offsets,
 * unlink and rename-over while open (fstat of such a file still answers), fallocate/punch
 * hole, copy_file_range, and a capacity limit that {@code write(2)} itself meets, as on tmpfs
 * (see {@link #CACHING}: why without the kernel's writeback cache).
 *
 * <p>Caching: memfs is the only writer of its files, so the kernel may keep names and
 * attributes as long as it likes ({@link #TIMEOUT}); it learns of every change from the
 * requests it sends itself. The library's node table ({@link NodeTable}) keeps the inodes: their
 * numbers (never reused, generation 0 throughout), names and hard links, and the kernel's lookup
 * counts. An inode lives while it has a name, an open handle or a lookup count the kernel has not
 * forgotten; then the table drops it and memfs frees what it stored.
 *
 * <p>Concurrency: the table's read/write lock guards the namespace (lookups share it; create,
 * unlink, rename take it exclusively). File data and an inode's attributes are guarded by the inode's
 * own monitor, so reads and writes of different files run in parallel, and I/O through an open
 * handle takes no namespace lock at all. Locks ({@code flock}, {@code fcntl}) are left to the
 * kernel, which keeps them for every process on this machine when the filesystem does not
 * implement them.
 */
public final class MemoryFileSystem implements InodeFileSystem {
    static final int PAGE = 4096;
    /** Seconds the kernel may trust a name or attributes: memfs changes nothing behind its back. */
    public static final double TIMEOUT = 3600;
    /** {@link #TIMEOUT} for names and attributes alike. */
    private static final Timeouts CACHE = Timeouts.NONE.withAttributes(TIMEOUT).withEntries(TIMEOUT);
    private static final int NAME_MAX = 255;
    private static final int XATTR_NAME_MAX = 255;
    private static final int XATTR_SIZE_MAX = 65536;
    private static final byte[] DOT = {'.'};
    private static final byte[] DOT_DOT = {'.', '.'};
    private static final int READ_BUFFER = 1 << 20;

    private final Directory root;
    private final NodeTable<Node> table;
    private final Space space;
    /** Drops cached data after reads on a strictatime mount, so that each read is seen. */
    private final StrictAtime strictAtime = new StrictAtime();
    private final AtomicLong handles = new AtomicLong(1);
    private final Map<Long, Handle> open = new ConcurrentHashMap<>();
    /** A direct buffer per worker thread that reads are copied into and answered from. */
    private final ThreadLocal<ByteBuffer> readBuffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(READ_BUFFER));

    /** An open file. */
    private static final class Handle {
        final Node node;
        final int flags;

        Handle(Node node, int flags) {
            this.node = node;
            this.flags = flags;
        }
    }

    /**
     * A filesystem of at most {@code maxBytes} of data and {@code maxInodes} files. Its root
     * directory belongs to the user and group this process runs as, who mount it (as tmpfs's root
     * belongs to whoever mounted it, and with mode 1777 as tmpfs's).
     */
    public MemoryFileSystem(long maxBytes, long maxInodes) {
        this.space = new Space(maxBytes, maxInodes);
        space.allocateInode();
        this.root = new Directory(space, S_IFDIR | 01777, Libc.geteuid(), Libc.getegid(), now());
        this.table = NodeTable.owning(root);
    }

    /** {@link #defaultCapacity()}, and one inode per 4 KiB of it. */
    public MemoryFileSystem() {
        this(defaultCapacity());
    }

    private MemoryFileSystem(long capacity) {
        this(capacity, capacity / PAGE);
    }

    /**
     * Half the memory of the machine (or of the container the JVM runs in), as tmpfs sizes itself:
     * file data lives off the Java heap, so the heap is not the measure. Half the JVM's maximum
     * heap where the runtime has no {@code jdk.management} to say.
     */
    public static long defaultCapacity() {
        try {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize() / 2;
        } catch (LinkageError | ClassCastException e) {
            return Runtime.getRuntime().maxMemory() / 2;
        }
    }

    /**
     * The options this filesystem is meant to be mounted with; add your own to the builder. The
     * kernel checks permissions from the modes ({@code default_permissions}), as for tmpfs.
     */
    public static MountOptions.Builder mountOptions() {
        return MountOptions.builder().defaultPermissions(true).fsName("memfs").subtype("memfs");
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The time now as the kernel's own filesystems stamp files ({@code current_time}: a tick's precision). */
    private static long now() {
        return Libc.clockNanos(Libc.CLOCK_REALTIME_COARSE);
    }

    /** The live inode {@code ino}; ESTALE-like ENOENT for a number the kernel should not hold. */
    private Node node(long ino) throws ErrnoException {
        Node n = table.find(ino);
        if (n == null) throw new ErrnoException(ENOENT);
        return n;
    }

    private Directory directory(long ino) throws ErrnoException {
        if (!(node(ino) instanceof Directory d)) throw new ErrnoException(ENOTDIR);
        return d;
    }

    /** The key of a name in a directory; ENAMETOOLONG past NAME_MAX, as tmpfs answers every call taking one. */
    private static String key(Name name) throws ErrnoException {
        if (name.length() > NAME_MAX) throw new ErrnoException(ENAMETOOLONG);
        return new String(name.bytes(), StandardCharsets.ISO_8859_1);
    }

    /** {@code n}'s attributes into {@code st}: st_nlink as the table counts it, the rest under the node's monitor. */
    private void fill(Node n, Stat st) {
        n.fill(st, table.linkCount(n));
    }

    /** Answers with {@code n} as an entry; the library counts the lookup (memfs's table is its {@link #lookups()}). */
    private void entry(Node n, EntryReply reply) {
        fill(n, reply.attributes());
        reply.entry(n, CACHE);
    }

    /** Names the new {@code node} in {@code dir}. Inside {@link #modify}. */
    private <T extends Node> T add(Directory dir, String name, T node) throws ErrnoException {
        if (dir != root && table.linkCount(dir) == 0) throw new ErrnoException(ENOENT); // removed while we looked at it
        if (table.child(dir, name) != null) throw new ErrnoException(EEXIST);
        synchronized (dir) {
            if ((dir.mode & S_ISGID) != 0) {
                node.gid = dir.gid;
                if (node instanceof Directory) node.mode |= S_ISGID;
            }
            dir.mtime = dir.ctime = node.ctime;
        }
        table.add(dir, name, node);
        return node;
    }

    /** Room for one more inode, or ENOSPC. */
    private Space newInode() throws ErrnoException {
        if (!space.allocateInode()) throw new ErrnoException(ENOSPC);
        return space;
    }

    /** Removes {@code name} from {@code dir}; its inode goes once no name, open handle or lookup is left. Inside {@link #modify}. */
    private void removeName(Directory dir, String name) {
        Node node = table.remove(dir, name);
        synchronized (node) {
            node.ctime = now();
        }
    }

    /**
     * A write, truncate, allocation or copy into {@code n} clears set-ID bits as tmpfs does
     * ({@link SetId}), where the kernel leaves it to memfs (handle_killpriv_v2, libfuse 3.17.1+).
     * Called with {@code n}'s monitor held.
     */
    private static void killSuid(Node n, Request request) {
        n.mode = SetId.afterDataChange(n.mode, n.gid, request);
    }

    private interface Op {
        void run() throws ErrnoException;
    }

    /** Runs {@code op} holding the namespace exclusively: its checks and changes of names in one step. */
    private void modify(Op op) throws ErrnoException {
        try {
            table.write(() -> {
                op.run();
                return null;
            });
        } catch (ErrnoException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException(e); // op throws nothing else
        }
    }

    // ---- lookups and attributes -----------------------------------------------------------------

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws ErrnoException {
        Node n = table.child(directory(parent), key(name));
        if (n == null) throw new ErrnoException(ENOENT);
        entry(n, reply);
    }

    /** The node table counts the kernel's lookups: memfs answers with its nodes and never sees a forget. */
    @Override
    public LookupCounter lookups() {
        return table;
    }

    @Override
    public void destroy() {
        strictAtime.close();
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws ErrnoException {
        fill(node(ino), reply.attributes());
        reply.send(CACHE);
    }

    @Override
    public void setattr(Request request, long ino, Stat in, int toSet, long fh, AttrReply reply) throws ErrnoException {
        Node n = node(ino);
        long now = now();
        long nlink = table.linkCount(n);
        synchronized (n) {
            if ((toSet & SET_SIZE) != 0) {
                if (!(n instanceof RegularFile f)) throw new ErrnoException(EISDIR);
                f.truncate(in.size(), space);
                f.mtime = now;
                killSuid(f, request);
            }
            if ((toSet & SET_MODE) != 0) {
                n.mode = (n.mode & S_IFMT) | (in.mode() & 07777);
            }
            if ((toSet & (SET_UID | SET_GID)) != 0) {
                if ((toSet & SET_UID) != 0) n.uid = in.uid();
                if ((toSet & SET_GID) != 0) n.gid = in.gid();
                if (!(n instanceof Directory)) {
                    n.mode &= ~S_ISUID;
                    if ((n.mode & 0010) != 0) n.mode &= ~S_ISGID;
                }
            }
            if ((toSet & SET_ATIME) != 0) {
                n.atime = (toSet & SET_ATIME_NOW) != 0 ? now : in.atimeSeconds() * 1_000_000_000L + in.atimeNanos();
            }
            if ((toSet & SET_MTIME) != 0) {
                n.mtime = (toSet & SET_MTIME_NOW) != 0 ? now : in.mtimeSeconds() * 1_000_000_000L + in.mtimeNanos();
            }
            n.ctime = (toSet & SET_CTIME) != 0 ? in.ctimeSeconds() * 1_000_000_000L + in.ctimeNanos() : now;
            n.fill(reply.attributes(), nlink);
        }
        reply.send(CACHE);
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) {
        long freePages = Math.max(0, space.maxPages - space.pagesUsed());
        long freeInodes = Math.max(0, space.maxInodes - space.inodesUsed());
        reply.statvfs().setBlockSize(PAGE).setFragmentSize(PAGE).setBlocks(space.maxPages).setBlocksFree(freePages)
                .setBlocksAvailable(freePages).setFiles(space.maxInodes).setFilesFree(freeInodes)
                .setFilesAvailable(freeInodes).setNameMax(NAME_MAX);
        reply.send();
    }

    // ---- namespace ----------------------------------------------------------------------------

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> entry(add(directory(parent), key,
                new Directory(newInode(), S_IFDIR | (mode & 07777), request.uid(), request.gid(), now())), reply));
    }

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> {
            Space s = newInode();
            Node n = (mode & S_IFMT) == S_IFREG
                    ? new RegularFile(s, mode, request.uid(), request.gid(), now())
                    : new Special(s, mode, request.uid(), request.gid(), now(), rdev);
            entry(add(directory(parent), key, n), reply);
        });
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> entry(add(directory(parent), key, new Symlink(newInode(), request.uid(), request.gid(), now(), target)), reply));
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws ErrnoException {
        if (!(node(ino) instanceof Symlink s)) throw new ErrnoException(EINVAL);
        reply.target(s.target);
    }

    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws ErrnoException {
        String key = key(newName);
        modify(() -> {
            Node n = node(ino);
            if (n instanceof Directory) throw new ErrnoException(EPERM);
            Directory dir = directory(newParent);
            if (table.child(dir, key) != null) throw new ErrnoException(EEXIST);
            if (table.linkCount(n) == 0 && !n.isLinkable()) throw new ErrnoException(ENOENT); // linkat of an unlinked file
            long now = now();
            synchronized (n) {
                n.ctime = now;
            }
            synchronized (dir) {
                dir.mtime = dir.ctime = now;
            }
            table.add(dir, key, n);
            entry(n, reply);
        });
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> {
            Directory dir = directory(parent);
            Node n = table.child(dir, key);
            if (n == null) throw new ErrnoException(ENOENT);
            if (n instanceof Directory) throw new ErrnoException(EISDIR);
            touch(dir);
            removeName(dir, key);
        });
        reply.ok();
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> {
            Directory dir = directory(parent);
            Node n = table.child(dir, key);
            if (n == null) throw new ErrnoException(ENOENT);
            if (!(n instanceof Directory d)) throw new ErrnoException(ENOTDIR);
            if (table.size(d) > 0) throw new ErrnoException(ENOTEMPTY);
            touch(dir);
            removeName(dir, key);
        });
        reply.ok();
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws ErrnoException {
        boolean exchange = (flags & Posix.RENAME_EXCHANGE) != 0;
        boolean noReplace = (flags & Posix.RENAME_NOREPLACE) != 0;
        if ((flags & ~(Posix.RENAME_EXCHANGE | Posix.RENAME_NOREPLACE)) != 0 || (exchange && noReplace)) {
            throw new ErrnoException(EINVAL);
        }
        String fromName = key(name);
        String toName = key(newName);
        modify(() -> {
            Directory fromDir = directory(parent);
            Directory toDir = directory(newParent);
            Node moving = table.child(fromDir, fromName);
            if (moving == null) throw new ErrnoException(ENOENT);
            Node existing = table.child(toDir, toName);
            if (moving instanceof Directory d && table.isWithin(toDir, d)) throw new ErrnoException(EINVAL);
            if (exchange) {
                if (existing == null) throw new ErrnoException(ENOENT);
                if (existing instanceof Directory e && table.isWithin(fromDir, e)) throw new ErrnoException(EINVAL);
                table.exchange(fromDir, fromName, toDir, toName);
                touch(fromDir, toDir, moving, existing);
                return;
            }
            if (existing == moving) return; // hard links of one inode: nothing to do
            if (existing != null) {
                if (noReplace) throw new ErrnoException(EEXIST);
                if (moving instanceof Directory) {
                    if (!(existing instanceof Directory e)) throw new ErrnoException(ENOTDIR);
                    if (table.size(e) > 0) throw new ErrnoException(ENOTEMPTY);
                } else if (existing instanceof Directory) {
                    throw new ErrnoException(EISDIR);
                }
            }
            table.move(fromDir, fromName, toDir, toName);
            touch(fromDir, toDir, moving, existing);
        });
        reply.ok();
    }

    private static void touch(Directory dir) {
        long now = now();
        synchronized (dir) {
            dir.mtime = dir.ctime = now;
        }
    }

    private static void touch(Directory a, Directory b, Node moved, Node other) {
        long now = now();
        for (Node n : new Node[] {a, b, moved, other}) {
            if (n == null) continue;
            synchronized (n) {
                if (n == a || n == b) n.mtime = now;
                n.ctime = now;
            }
        }
    }

    // ---- directories --------------------------------------------------------------------------

    /*
     * A listing resumes from its offset alone (memfs answers no opendir, so fh is 0). An offset
     * carries two numbers: in its low 31 bits the cookie of the entry listed last, in the 31
     * above them the directory's next cookie when the listing began at offset 0 (opendir,
     * rewinddir), marked by BOUNDED. Entries at or past that bound were made after the listing
     * began and are not listed, so a listing ends however fast entries are created, and a rewind
     * sees them. A directory whose cookies outgrow 31 bits lists by plain cookies (below
     * BOUNDED), unbounded.
     */
    private static final long BOUNDED = 1L << 62;
    private static final long COOKIE_BITS = (1L << 31) - 1;

    private static long offset(long bound, long cookie) {
        return bound == Long.MAX_VALUE ? cookie : BOUNDED | bound << 31 | cookie;
    }

    /** One listing for READDIR and READDIRPLUS: with READDIRPLUS each entry carries its node and attributes. */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws ErrnoException {
        Directory d = directory(ino);
        try {
            table.read(() -> {
                long bound;
                long after;
                if (offset == 0) {
                    long next = table.nextCookie(d);
                    bound = next < (1L << 31) ? next : Long.MAX_VALUE;
                    after = 0;
                } else if ((offset & BOUNDED) != 0) {
                    bound = (offset & ~BOUNDED) >>> 31;
                    after = offset & COOKIE_BITS;
                } else {
                    bound = Long.MAX_VALUE;
                    after = offset;
                }
                if (after < 1 && add(reply, DOT, d, offset(bound, 1))) return null;
                Node parent = table.parent(d);
                if (after < 2 && add(reply, DOT_DOT, parent == null ? d : parent, offset(bound, 2))) return null;
                for (NodeTable.Entry<Node> e : table.entries(d, Math.max(after, 2), bound).values()) {
                    if (add(reply, e.bytes(), e.node(), offset(bound, e.cookie()))) break; // full
                }
                return null;
            });
        } catch (ErrnoException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException(e); // the listing throws nothing else
        }
        AccessTimes rule = request.accessTimes();
        synchronized (d) {
            long now = now();
            if (rule.needsUpdate(true, d.atime, d.mtime, d.ctime, now)) d.atime = now;
        }
        reply.send();
    }

    /**
     * Adds {@code n} as {@code name} at offset {@code at}: with its attributes for READDIRPLUS (the
     * library counts the lookup, none for "." and ".."), by number and type for READDIR. True if
     * the batch is full.
     */
    private boolean add(DirReply reply, byte[] name, Node n, long at) {
        if (!reply.plus()) {
            return reply.add(name, n.nodeId(), n.type(), at);
        }
        fill(n, reply.attributes());
        return reply.add(name, n, CACHE, at);
    }

    // ---- files --------------------------------------------------------------------------------

    /**
     * A file with no name ({@code O_TMPFILE}), as tmpfs makes one: the directory's set-group-ID
     * group applies, it lives while open or held by the kernel, and unless opened with
     * {@code O_EXCL} a linkat gives it its first name.
     */
    @Override
    public void tmpfile(Request request, long parent, int mode, int flags, CreateReply reply) throws ErrnoException {
        modify(() -> {
            Directory dir = directory(parent);
            if (dir != root && table.linkCount(dir) == 0) throw new ErrnoException(ENOENT);
            RegularFile f = new RegularFile(newInode(), S_IFREG | (mode & 07777), request.uid(), request.gid(), now());
            synchronized (dir) {
                if ((dir.mode & S_ISGID) != 0) f.gid = dir.gid;
            }
            table.adopt(f, (flags & Posix.O_EXCL) == 0);
            Handle h = openHandle(f, flags);
            fill(f, reply.attributes());
            long fh = handleNumber(h);
            if (!reply.created(f, CACHE, fh, OpenReply.KEEP_CACHE)) {
                closeHandle(fh);
            }
        });
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws ErrnoException {
        String key = key(name);
        modify(() -> {
            RegularFile f = add(directory(parent), key,
                    new RegularFile(newInode(), S_IFREG | (mode & 07777), request.uid(), request.gid(), now()));
            Handle h = openHandle(f, flags);
            fill(f, reply.attributes());
            long fh = handleNumber(h);
            if (!reply.created(f, CACHE, fh, OpenReply.KEEP_CACHE)) {
                closeHandle(fh); // the caller gave up: the kernel holds neither the handle nor the entry
            }
        });
    }

    /**
     * memfs is its files' only writer and clears set-ID bits itself, as tmpfs does, so the kernel
     * may keep file pages until a request through it changes them, remember absent names for
     * {@link #TIMEOUT}, and, where it can hand the set-ID rule to memfs, skip the
     * {@code security.capability} lookup before each write.
     *
     * <p>Not the writeback cache, which would gather writes in the kernel and flush them later: an
     * acknowledged {@code write(2)} must be stored, and under that cache memfs could not refuse
     * one it has no room for. The kernel answers such a write without asking memfs (its pages are
     * there or need no read, its attributes are valid), so the only answer left to a full memfs
     * is the flush's, which comes after the writer was told it succeeded: fsync and close then
     * report ENOSPC, the data is gone, and the kernel's cached size still counts it (a file read
     * back as zeros). No reserve helps: a writer that opened the file while there was room can go
     * on writing through the cache without bound. So each {@code write(2)} is a WRITE memfs
     * answers, and a full memfs refuses it then, as tmpfs does.
     *
     * <p>Listings are not kept ({@code noOpendir} and {@code keepListings} would keep them). Through
     * Linux 6.18 the kernel's cached listing ends a listing early when the cache is complete, its
     * size is a whole number of pages, and the offset the listing resumes from is not in it
     * (fs/fuse/readdir.c, {@code fuse_readdir_cached}: after scanning every page without finding
     * the offset, the next page's end-of-cache check answers "end of directory" before the code
     * that would ask memfs). An offset is missing from a cache made after its entry was unlinked,
     * or made by a listing that began at another bound (see {@link #readdir}); no choice of offsets
     * keeps an unlinked entry's. With names created and unlinked during listings, {@code
     * ListingRace} lost untouched names; without the cache none is lost, at the cost of a
     * READDIRPLUS and a READDIR per listing.
     */
    private static final KernelSettings CACHING = KernelSettings.builder().negativeEntries(TIMEOUT)
            .explicitDataInvalidation(true).handleKillprivV2(true)
            .want(ConnectionInfo.CAP_CACHE_SYMLINKS) // a symlink's target never changes: the kernel may keep readlink's answer
            .atomicOTrunc(false) // O_TRUNC arrives as a truncating setattr, the one way memfs truncates
            .build();

    @Override
    public KernelSettings kernelSettings() {
        return CACHING;
    }

    /**
     * Each open lets the kernel keep the file's cached pages (all writes pass through them, so
     * they stay true) unless the next read must change the access time: the kernel answers reads
     * of cached pages without asking, and FUSE leaves access times to the filesystem. So the open
     * after a change (under relatime) or every open (under strictatime) drops them, having the
     * kernel write what it holds first, and the reads of that open reach memfs. (O_TRUNC never
     * arrives here: atomic O_TRUNC is off, see {@link #mountOptions}.)
     */
    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws ErrnoException {
        Node n = node(ino);
        AccessTimes rule = request.accessTimes(); // not under the file's lock: it may read the mount table
        boolean readsReachUs;
        synchronized (n) {
            readsReachUs = rule.needsUpdate(false, n.atime, n.mtime, n.ctime, now());
        }
        long fh = handleNumber(openHandle(n, flags));
        if (!reply.open(fh, readsReachUs ? 0 : OpenReply.KEEP_CACHE)) closeHandle(fh); // the caller gave up: the kernel never releases it
    }

    private Handle openHandle(Node n, int flags) throws ErrnoException {
        try {
            table.hold(n);
        } catch (IllegalStateException dropped) {
            throw new ErrnoException(ENOENT); // forgotten while the open was on its way
        }
        return new Handle(n, flags);
    }

    private long handleNumber(Handle h) {
        long fh = handles.getAndIncrement();
        open.put(fh, h);
        return fh;
    }

    private void closeHandle(long fh) {
        Handle h = open.remove(fh);
        if (h != null) {
            table.letGo(h.node);
        }
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        closeHandle(fh);
        reply.ok();
    }

    /** The open regular file {@code fh}, or inode {@code ino} for handle 0, which memfs never hands out. */
    private RegularFile file(long ino, long fh) throws ErrnoException {
        if (fh == 0) {
            if (node(ino) instanceof RegularFile f) return f;
            throw new ErrnoException(EISDIR);
        }
        return (RegularFile) handle(fh).node;
    }

    /** The open regular file {@code fh}: one map lookup per read or write, no namespace lock. */
    private Handle handle(long fh) throws ErrnoException {
        Handle h = open.get(fh);
        if (h == null) throw new ErrnoException(Errno.EBADF);
        if (!(h.node instanceof RegularFile)) throw new ErrnoException(EISDIR);
        return h;
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws ErrnoException {
        RegularFile f = file(ino, fh);
        ByteBuffer buffer = readBuffers.get().clear();
        buffer.limit((int) Math.min(size, buffer.capacity()));
        AccessTimes rule = request.accessTimes(); // not under the file's lock: it may read the mount table
        synchronized (f) {
            f.read(buffer, offset);
            long now = now();
            if (rule.needsUpdate(false, f.atime, f.mtime, f.ctime, now)) f.atime = now;
        }
        reply.data(buffer.flip());
        if (rule.everyRead()) strictAtime.seeNextRead(request.mount(), ino);
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws ErrnoException {
        Handle h = fh == 0 ? null : handle(fh);
        RegularFile f = h == null ? file(ino, 0) : (RegularFile) h.node;
        // A page of a shared writable mapping, written back by the kernel through the handle it was
        // mapped by: at its own offset, also for an O_APPEND handle; whole or not at all, since the
        // kernel takes a short count for success (msync and fsync report ENOSPC).
        boolean page = request.fromPageCache();
        // A write(2) with O_APPEND at memfs's own end: the kernel's cached size may lag another handle's write.
        boolean append = !page && h != null && (h.flags & Posix.O_APPEND) != 0;
        int n;
        synchronized (f) {
            if (page) {
                n = data.remaining();
                if (!f.writeWhole(data, offset, space)) throw new ErrnoException(ENOSPC);
            } else {
                // What fits is written (a short write, as on tmpfs); nothing fits: ENOSPC.
                n = f.write(data, append ? f.size : offset, space);
                if (n < 0) throw new ErrnoException(ENOSPC);
                killSuid(f, request);
            }
            f.mtime = f.ctime = now();
        }
        reply.written(n);
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        reply.ok(); // in memory: nothing to make durable
    }

    @Override
    public void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply)
            throws ErrnoException {
        if (!(node(ino) instanceof RegularFile f)) throw new ErrnoException(EISDIR);
        if (offset < 0 || length <= 0) throw new ErrnoException(EINVAL);
        boolean keepSize = (mode & Posix.FALLOC_FL_KEEP_SIZE) != 0;
        boolean punch = (mode & Posix.FALLOC_FL_PUNCH_HOLE) != 0;
        if ((mode & ~(Posix.FALLOC_FL_KEEP_SIZE | Posix.FALLOC_FL_PUNCH_HOLE)) != 0 || (punch && !keepSize)) {
            throw new ErrnoException(EOPNOTSUPP);
        }
        synchronized (f) {
            if (punch) {
                f.punchHole(offset, length, space);
            } else {
                if (!f.allocate(offset, length, space)) throw new ErrnoException(ENOSPC);
                if (!keepSize && offset + length > f.size) f.size = offset + length;
            }
            f.mtime = f.ctime = now();
            killSuid(f, request);
        }
        reply.ok();
    }

    @Override
    public void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) throws ErrnoException {
        if (!(node(ino) instanceof RegularFile f)) throw new ErrnoException(EINVAL);
        long r;
        synchronized (f) {
            r = switch (whence) {
                case Posix.SEEK_DATA -> f.nextData(offset);
                case Posix.SEEK_HOLE -> f.nextHole(offset);
                default -> throw new ErrnoException(EINVAL);
            };
        }
        if (r < 0) throw new ErrnoException(ENXIO);
        reply.offset(r);
    }

    @Override
    public void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) throws ErrnoException {
        if (!(node(inoIn) instanceof RegularFile in) || !(node(inoOut) instanceof RegularFile out)) {
            throw new ErrnoException(EISDIR);
        }
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(length, 1 << 20));
        long done = 0;
        while (done < length) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), length - done));
            int n;
            synchronized (in) {
                n = in.read(chunk, offsetIn + done);
            }
            if (n <= 0) break;
            chunk.flip();
            synchronized (out) {
                int w = out.write(chunk, offsetOut + done, space);
                if (w < 0) {
                    if (done == 0) throw new ErrnoException(ENOSPC);
                    break;
                }
                out.mtime = out.ctime = now();
                killSuid(out, request);
                done += w;
                if (w < n) break;
            }
        }
        reply.written(done);
    }

    // ---- extended attributes ------------------------------------------------------------------

    private static String xattrName(Name name) throws ErrnoException {
        if (name.length() > XATTR_NAME_MAX || name.length() == 0) throw new ErrnoException(ERANGE);
        String s = name.toString();
        if (!(s.startsWith("user.") || s.startsWith("trusted.") || s.startsWith("security."))) {
            throw new ErrnoException(EOPNOTSUPP);
        }
        return s;
    }

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws ErrnoException {
        String key = xattrName(name);
        if (value.remaining() > XATTR_SIZE_MAX) throw new ErrnoException(E2BIG);
        Node n = node(ino);
        synchronized (n) {
            boolean exists = n.hasXattrs() && n.xattrs().containsKey(key);
            if ((flags & Posix.XATTR_CREATE) != 0 && exists) throw new ErrnoException(EEXIST);
            if ((flags & Posix.XATTR_REPLACE) != 0 && !exists) throw new ErrnoException(ENODATA);
            byte[] v = new byte[value.remaining()];
            value.get(v);
            n.xattrs().put(key, v);
            n.ctime = now();
        }
        reply.ok();
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws ErrnoException {
        Node n = node(ino);
        String key = name.toString();
        byte[] v;
        synchronized (n) {
            v = n.hasXattrs() ? n.xattrs().get(key) : null;
        }
        if (v == null) throw new ErrnoException(ENODATA);
        if (size == 0) {
            reply.size(v.length);
        } else if (size < v.length) {
            throw new ErrnoException(ERANGE);
        } else {
            reply.data(v, 0, v.length);
        }
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws ErrnoException {
        Node n = node(ino);
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        synchronized (n) {
            if (n.hasXattrs()) {
                for (String key : n.xattrs().keySet()) {
                    names.writeBytes(FileNames.toBytes(key));
                    names.write(0);
                }
            }
        }
        if (size == 0) {
            reply.size(names.size());
        } else if (size < names.size()) {
            throw new ErrnoException(ERANGE);
        } else {
            reply.data(names.toByteArray(), 0, names.size());
        }
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws ErrnoException {
        Node n = node(ino);
        synchronized (n) {
            if (!n.hasXattrs() || n.xattrs().remove(name.toString()) == null) throw new ErrnoException(ENODATA);
            n.ctime = now();
        }
        reply.ok();
    }
}
