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

import dev.fusepanama.DirFiller;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FileNames;
import dev.fusepanama.FuseContext;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.LinkTarget;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.Timespec;
import dev.fusepanama.XattrNames;
import dev.fusepanama.libc.Libc;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-memory filesystem with the semantics of tmpfs: sparse files, hard links, symlinks,
 * FIFOs and device nodes, extended attributes, stable directory offsets, unlink while open,
 * fallocate/punch hole, SEEK_DATA/SEEK_HOLE, copy_file_range, and a capacity limit.
 *
 * <p>Mount it with {@link #mountOptions()}: the kernel then checks permissions from the modes
 * (default_permissions), files unlinked while open vanish at once (hard_remove) and are served
 * by handle, and the inode numbers reported here are the ones programs see (use_ino).
 *
 * <p>Concurrency: one read/write lock guards the namespace (lookups share it; create, unlink,
 * rename take it exclusively). File data is guarded by each file's own monitor, so reads and
 * writes of different files run in parallel, and I/O through an open handle takes no namespace
 * lock at all. Locks ({@code flock}, {@code fcntl}) are left to the kernel, which keeps them for
 * every process on this machine when the filesystem does not implement them.
 */
public final class MemoryFileSystem implements FuseFileSystem {
    static final int PAGE = 4096;
    private static final int NAME_MAX = 255;
    private static final int XATTR_NAME_MAX = 255;
    private static final int XATTR_SIZE_MAX = 65536;
    private static final long DAY_NANOS = 86_400L * 1_000_000_000L;

    private final ReentrantReadWriteLock tree = new ReentrantReadWriteLock();
    private final Directory root;
    private final Space space;
    private final AtomicLong inodes = new AtomicLong(1);
    private final AtomicLong handles = new AtomicLong(1);
    private final Map<Long, Handle> open = new ConcurrentHashMap<>();

    /**
     * An open file or directory. {@code listEnd} bounds a directory listing: entries whose cookie
     * is at or past it were made after the listing began and are not listed, so a listing ends
     * however fast entries are created (set at opendir and at every rewind to offset 0).
     */
    private static final class Handle {
        final Node node;
        final int flags;
        volatile long listEnd = Long.MAX_VALUE;

        Handle(Node node, int flags) {
            this.node = node;
            this.flags = flags;
        }

        Node node() { return node; }

        int flags() { return flags; }
    }

    /**
     * A filesystem of at most {@code maxBytes} of data and {@code maxInodes} files. Its root
     * directory belongs to the user and group this process runs as, who mount it (as tmpfs's root
     * belongs to whoever mounted it, and with mode 1777 as tmpfs's).
     */
    public MemoryFileSystem(long maxBytes, long maxInodes) {
        this.space = new Space(maxBytes, maxInodes);
        space.allocateInode();
        this.root = new Directory(inodes.getAndIncrement(), S_IFDIR | 01777, Libc.geteuid(), Libc.getegid(), now(), null);
    }

    /** Half the JVM's maximum heap, and one inode per 4 KiB of it, as tmpfs sizes itself by RAM. */
    public MemoryFileSystem() {
        this(Runtime.getRuntime().maxMemory() / 2, Runtime.getRuntime().maxMemory() / 2 / PAGE);
    }

    /**
     * The options this filesystem is meant to be mounted with; add your own to the builder.
     *
     * <p>Attributes are not cached ({@code attr_timeout=0}): libfuse's high-level API gives each
     * name of a hard-linked file its own kernel inode, so a cached st_nlink, st_mode or st_ctime
     * would go stale when the file changes through another name, and default_permissions would
     * check a stale mode. Names stay cached (entry_timeout 1 s); data reads need no extra
     * getattr: memfs is the only writer, so it keeps fuse-panama's default of no auto_inval_data.
     */
    public static MountOptions.Builder mountOptions() {
        return MountOptions.builder().defaultPermissions(true).hardRemove(true).nullPathOk(true).useIno(true)
                .attrTimeout(0).entryTimeout(1).fsName("memfs").subtype("memfs");
    }


    // ---- helpers ------------------------------------------------------------------------------

    private static long now() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static int caller(boolean gid) {
        FuseContext c = FuseContext.current();
        return gid ? c.gid() : c.uid();
    }

    private Node lookup(String path) throws ErrnoException {
        Node n = root;
        int start = 1;
        while (start < path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) end = path.length();
            if (!(n instanceof Directory d)) throw new ErrnoException(ENOTDIR);
            n = d.get(path.substring(start, end));
            if (n == null) throw new ErrnoException(ENOENT);
            start = end + 1;
        }
        return n;
    }

    private Directory parent(String path) throws ErrnoException {
        Node p = lookup(path.substring(0, Math.max(1, path.lastIndexOf('/'))));
        if (!(p instanceof Directory d)) throw new ErrnoException(ENOTDIR);
        return d;
    }

    private static String name(String path) throws ErrnoException {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (FileNames.toBytes(name).length > NAME_MAX) throw new ErrnoException(ENAMETOOLONG);
        return name;
    }

    /** The node of an open handle, or of {@code path}; reads the namespace. */
    private Node node(String path, FileInfo fi) throws ErrnoException {
        if (fi != null) {
            Handle h = open.get(fi.fh());
            if (h != null) return h.node();
        }
        if (path == null) throw new ErrnoException(ENOENT);
        Lock l = tree.readLock();
        l.lock();
        try {
            return lookup(path);
        } finally {
            l.unlock();
        }
    }

    private <T extends Node> T add(String path, T node) throws ErrnoException {
        Directory dir = parent(path);
        String name = name(path);
        if (dir.get(name) != null) throw new ErrnoException(EEXIST);
        synchronized (dir) {
            if ((dir.mode & S_ISGID) != 0) {
                node.gid = dir.gid;
                if (node instanceof Directory) node.mode |= S_ISGID;
            }
            dir.put(name, node);
            if (node instanceof Directory d) {
                d.parent = dir;
                dir.nlink++;
            }
            dir.mtime = dir.ctime = node.ctime;
        }
        return node;
    }

    private long newInode() throws ErrnoException {
        if (!space.allocateInode()) throw new ErrnoException(ENOSPC);
        return inodes.getAndIncrement();
    }

    /** One link fewer; the node's storage goes once no name and no open handle is left. */
    private void dropLink(Node node) {
        synchronized (node) {
            node.nlink -= node instanceof Directory ? 2 : 1;
            node.ctime = now();
            freeIfUnused(node);
        }
    }

    private void freeIfUnused(Node node) {
        if (node.nlink <= 0 && node.openCount == 0) {
            if (node instanceof RegularFile f) f.free(space);
            space.freeInode();
            node.nlink = 0;
            node.openCount = -1; // freed: never twice
        }
    }

    private static void killSuid(Node n) {
        if ((n.mode & (S_ISUID | S_ISGID)) != 0 && FuseContext.current().uid() != 0) {
            n.mode &= ~S_ISUID;
            if ((n.mode & 0010) != 0) n.mode &= ~S_ISGID;
        }
    }

    // ---- attributes -----------------------------------------------------------------------------

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) throws ErrnoException {
        node(path, fi).fill(stat);
        return 0;
    }

    @Override
    public int chmod(String path, int mode, FileInfo fi) throws ErrnoException {
        Node n = node(path, fi);
        synchronized (n) {
            n.mode = (n.mode & S_IFMT) | (mode & 07777);
            n.ctime = now();
        }
        return 0;
    }

    @Override
    public int chown(String path, int uid, int gid, FileInfo fi) throws ErrnoException {
        Node n = node(path, fi);
        synchronized (n) {
            if (uid != -1) n.uid = uid;
            if (gid != -1) n.gid = gid;
            if ((uid != -1 || gid != -1) && !(n instanceof Directory)) {
                n.mode &= ~S_ISUID;
                if ((n.mode & 0010) != 0) n.mode &= ~S_ISGID;
            }
            n.ctime = now();
        }
        return 0;
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws ErrnoException {
        Node n = node(path, fi);
        long now = now();
        synchronized (n) {
            if (!atime.isOmit()) n.atime = atime.isNow() ? now : atime.seconds() * 1_000_000_000L + atime.nanos();
            if (!mtime.isOmit()) n.mtime = mtime.isNow() ? now : mtime.seconds() * 1_000_000_000L + mtime.nanos();
            n.ctime = now;
        }
        return 0;
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) throws ErrnoException {
        if (!(node(path, fi) instanceof RegularFile f)) throw new ErrnoException(EISDIR);
        synchronized (f) {
            f.truncate(size, space);
            f.mtime = f.ctime = now();
            killSuid(f);
        }
        return 0;
    }

    @Override
    public int statfs(String path, StatVfs st) {
        long freePages = Math.max(0, space.maxPages - space.pagesUsed());
        long freeInodes = Math.max(0, space.maxInodes - space.inodesUsed());
        st.setBlockSize(PAGE).setFragmentSize(PAGE).setBlocks(space.maxPages).setBlocksFree(freePages)
                .setBlocksAvailable(freePages).setFiles(space.maxInodes).setFilesFree(freeInodes)
                .setFilesAvailable(freeInodes).setNameMax(NAME_MAX);
        return 0;
    }

    // ---- namespace ----------------------------------------------------------------------------

    private int modify(Op op) throws ErrnoException {
        Lock l = tree.writeLock();
        l.lock();
        try {
            return op.run();
        } finally {
            l.unlock();
        }
    }

    private interface Op {
        int run() throws ErrnoException;
    }

    @Override
    public int mkdir(String path, int mode) throws ErrnoException {
        return modify(() -> {
            add(path, new Directory(newInode(), S_IFDIR | (mode & 07777), caller(false), caller(true), now(), null));
            return 0;
        });
    }

    @Override
    public int mknod(String path, int mode, long rdev) throws ErrnoException {
        return modify(() -> {
            long ino = newInode();
            Node n = (mode & S_IFMT) == S_IFREG
                    ? new RegularFile(ino, mode, caller(false), caller(true), now())
                    : new Special(ino, mode, caller(false), caller(true), now(), rdev);
            add(path, n);
            return 0;
        });
    }

    @Override
    public int symlink(String target, String linkPath) throws ErrnoException {
        return modify(() -> {
            add(linkPath, new Symlink(newInode(), caller(false), caller(true), now(), target));
            return 0;
        });
    }

    @Override
    public int readlink(String path, LinkTarget target) throws ErrnoException {
        if (!(node(path, null) instanceof Symlink s)) throw new ErrnoException(EINVAL);
        target.set(s.target);
        return 0;
    }

    @Override
    public int link(String from, String to) throws ErrnoException {
        return modify(() -> {
            Node n = lookup(from);
            if (n instanceof Directory) throw new ErrnoException(EPERM);
            Directory dir = parent(to);
            String name = name(to);
            if (dir.get(name) != null) throw new ErrnoException(EEXIST);
            synchronized (n) {
                n.nlink++;
                n.ctime = now();
            }
            dir.put(name, n);
            dir.mtime = dir.ctime = n.ctime;
            return 0;
        });
    }

    @Override
    public int unlink(String path) throws ErrnoException {
        return modify(() -> {
            Directory dir = parent(path);
            String name = name(path);
            Node n = dir.get(name);
            if (n == null) throw new ErrnoException(ENOENT);
            if (n instanceof Directory) throw new ErrnoException(EISDIR);
            dir.remove(name);
            dir.mtime = dir.ctime = now();
            dropLink(n);
            return 0;
        });
    }

    @Override
    public int rmdir(String path) throws ErrnoException {
        return modify(() -> {
            Directory dir = parent(path);
            String name = name(path);
            Node n = dir.get(name);
            if (n == null) throw new ErrnoException(ENOENT);
            if (!(n instanceof Directory d)) throw new ErrnoException(ENOTDIR);
            if (!d.isEmpty()) throw new ErrnoException(ENOTEMPTY);
            dir.remove(name);
            dir.nlink--;
            dir.mtime = dir.ctime = now();
            dropLink(d);
            return 0;
        });
    }

    @Override
    public int rename(String from, String to, int flags) throws ErrnoException {
        boolean exchange = (flags & Posix.RENAME_EXCHANGE) != 0;
        boolean noReplace = (flags & Posix.RENAME_NOREPLACE) != 0;
        if ((flags & ~(Posix.RENAME_EXCHANGE | Posix.RENAME_NOREPLACE)) != 0 || (exchange && noReplace)) {
            throw new ErrnoException(EINVAL);
        }
        return modify(() -> {
            Directory fromDir = parent(from);
            String fromName = name(from);
            Directory toDir = parent(to);
            String toName = name(to);
            Node moving = fromDir.get(fromName);
            if (moving == null) throw new ErrnoException(ENOENT);
            Node existing = toDir.get(toName);
            if (moving instanceof Directory d && isWithin(toDir, d)) throw new ErrnoException(EINVAL);
            if (exchange) {
                if (existing == null) throw new ErrnoException(ENOENT);
                if (existing instanceof Directory e && isWithin(fromDir, e)) throw new ErrnoException(EINVAL);
                fromDir.put(fromName, existing);
                toDir.put(toName, moving);
                reparent(moving, fromDir, toDir);
                reparent(existing, toDir, fromDir);
                touch(fromDir, toDir, moving, existing);
                return 0;
            }
            if (existing == moving) return 0; // hard links of one inode: nothing to do
            if (existing != null) {
                if (noReplace) throw new ErrnoException(EEXIST);
                if (moving instanceof Directory) {
                    if (!(existing instanceof Directory e)) throw new ErrnoException(ENOTDIR);
                    if (!e.isEmpty()) throw new ErrnoException(ENOTEMPTY);
                    toDir.nlink--;
                } else if (existing instanceof Directory) {
                    throw new ErrnoException(EISDIR);
                }
                toDir.remove(toName);
                dropLink(existing);
            }
            fromDir.remove(fromName);
            toDir.put(toName, moving);
            reparent(moving, fromDir, toDir);
            touch(fromDir, toDir, moving, null);
            return 0;
        });
    }

    /** Whether {@code dir} is {@code ancestor} or below it. */
    private static boolean isWithin(Directory dir, Directory ancestor) {
        for (Directory d = dir; ; d = d.parent) {
            if (d == ancestor) return true;
            if (d.parent == d) return false;
        }
    }

    private static void reparent(Node n, Directory from, Directory to) {
        if (n instanceof Directory d && from != to) {
            d.parent = to;
            from.nlink--;
            to.nlink++;
        }
    }

    private static void touch(Directory a, Directory b, Node moved, Node other) {
        long now = now();
        a.mtime = a.ctime = b.mtime = b.ctime = now;
        synchronized (moved) {
            moved.ctime = now;
        }
        if (other != null) {
            synchronized (other) {
                other.ctime = now;
            }
        }
    }

    // ---- directories --------------------------------------------------------------------------

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws ErrnoException {
        boolean plus = (flags & DirFiller.READDIR_PLUS) != 0;
        Lock l = tree.readLock();
        l.lock();
        try {
            Handle h = fi == null ? null : open.get(fi.fh());
            if (!((h != null ? h.node() : node(path, null)) instanceof Directory d)) throw new ErrnoException(ENOTDIR);
            if (h != null && offset == 0) h.listEnd = d.nextCookie();
            long end = h == null ? Long.MAX_VALUE : h.listEnd;
            if (offset < 1 && add(filler, ".", 1, d, plus)) return 0;
            if (offset < 2 && add(filler, "..", 2, d.parent, plus)) return 0;
            for (Directory.Entry e : d.between(Math.max(offset, 2), end).values()) {
                if (add(filler, e.name(), e.cookie(), e.node(), plus)) break;
            }
            synchronized (d) {
                long now = now();
                if (d.atime <= d.mtime || d.atime <= d.ctime || now - d.atime > DAY_NANOS) d.atime = now;
            }
            return 0;
        } finally {
            l.unlock();
        }
    }

    /** With nullpath_ok, readdir of an open directory gets no path: it is found by this handle. */
    @Override
    public int opendir(String path, FileInfo fi) throws ErrnoException {
        if (!(node(path, null) instanceof Directory d)) throw new ErrnoException(ENOTDIR);
        Handle h = openHandle(d, fi);
        Lock l = tree.readLock();
        l.lock();
        try {
            h.listEnd = d.nextCookie();
        } finally {
            l.unlock();
        }
        return 0;
    }

    @Override
    public int releasedir(String path, FileInfo fi) {
        return release(path, fi);
    }

    private static boolean add(DirFiller filler, String name, long cookie, Node n, boolean plus) {
        if (!plus) {
            Stat st = filler.attributes();
            st.setIno(n.ino).setMode(n.mode & S_IFMT);
            return filler.add(name, cookie, st);
        }
        Stat st = filler.attributes();
        n.fill(st);
        return filler.add(name, cookie, st);
    }

    // ---- files --------------------------------------------------------------------------------

    @Override
    public int create(String path, int mode, FileInfo fi) throws ErrnoException {
        return modify(() -> {
            RegularFile f = add(path, new RegularFile(newInode(), S_IFREG | (mode & 07777), caller(false), caller(true), now()));
            openHandle(f, fi);
            return 0;
        });
    }

    @Override
    public int open(String path, FileInfo fi) throws ErrnoException {
        Node n = node(path, null);
        if ((fi.flags() & Posix.O_TRUNC) != 0 && n instanceof RegularFile f) {
            synchronized (f) {
                f.truncate(0, space);
                f.mtime = f.ctime = now();
                killSuid(f);
            }
        }
        openHandle(n, fi);
        return 0;
    }

    private Handle openHandle(Node n, FileInfo fi) {
        synchronized (n) {
            n.openCount++;
        }
        long fh = handles.getAndIncrement();
        Handle h = new Handle(n, fi.flags());
        open.put(fh, h);
        fi.setFh(fh);
        return h;
    }

    @Override
    public int release(String path, FileInfo fi) {
        Handle h = open.remove(fi.fh());
        if (h != null) {
            synchronized (h.node()) {
                h.node().openCount--;
                freeIfUnused(h.node());
            }
        }
        return 0;
    }

    @Override
    public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) throws ErrnoException {
        if (!(node(path, fi) instanceof RegularFile f)) throw new ErrnoException(EISDIR);
        synchronized (f) {
            int n = f.read(buffer, offset);
            long now = now();
            if (f.atime <= f.mtime || f.atime <= f.ctime || now - f.atime > DAY_NANOS) f.atime = now;
            return n;
        }
    }

    @Override
    public int write(String path, ByteBuffer buffer, long offset, FileInfo fi) throws ErrnoException {
        Handle h = fi == null ? null : open.get(fi.fh());
        if (!((h != null ? h.node() : node(path, fi)) instanceof RegularFile f)) throw new ErrnoException(EISDIR);
        synchronized (f) {
            long at = h != null && (h.flags() & Posix.O_APPEND) != 0 ? f.size : offset;
            int n = f.write(buffer, at, space);
            if (n < 0) throw new ErrnoException(ENOSPC);
            f.mtime = f.ctime = now();
            killSuid(f);
            return n;
        }
    }

    @Override
    public int fallocate(String path, int mode, long offset, long length, FileInfo fi) throws ErrnoException {
        if (!(node(path, fi) instanceof RegularFile f)) throw new ErrnoException(EISDIR);
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
        }
        return 0;
    }

    @Override
    public long lseek(String path, long offset, int whence, FileInfo fi) throws ErrnoException {
        if (!(node(path, fi) instanceof RegularFile f)) throw new ErrnoException(EINVAL);
        synchronized (f) {
            long r = switch (whence) {
                case Posix.SEEK_DATA -> f.nextData(offset);
                case Posix.SEEK_HOLE -> f.nextHole(offset);
                default -> throw new ErrnoException(EINVAL);
            };
            if (r < 0) throw new ErrnoException(ENXIO);
            return r;
        }
    }

    @Override
    public long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn, String pathOut, FileInfo fiOut,
                              long offsetOut, long size, int flags) throws ErrnoException {
        if (!(node(pathIn, fiIn) instanceof RegularFile in) || !(node(pathOut, fiOut) instanceof RegularFile out)) {
            throw new ErrnoException(EISDIR);
        }
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(size, 1 << 20));
        long done = 0;
        while (done < size) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), size - done));
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
                done += w;
                if (w < n) break;
            }
        }
        return done;
    }

    // ---- extended attributes ------------------------------------------------------------------

    private static void checkName(String name) throws ErrnoException {
        if (FileNames.toBytes(name).length > XATTR_NAME_MAX || name.isEmpty()) throw new ErrnoException(ERANGE);
        if (!(name.startsWith("user.") || name.startsWith("trusted.") || name.startsWith("security."))) {
            throw new ErrnoException(EOPNOTSUPP);
        }
    }

    @Override
    public int setxattr(String path, String name, ByteBuffer value, int flags) throws ErrnoException {
        checkName(name);
        if (value.remaining() > XATTR_SIZE_MAX) throw new ErrnoException(E2BIG);
        Node n = node(path, null);
        synchronized (n) {
            boolean exists = n.hasXattrs() && n.xattrs().containsKey(name);
            if ((flags & Posix.XATTR_CREATE) != 0 && exists) throw new ErrnoException(EEXIST);
            if ((flags & Posix.XATTR_REPLACE) != 0 && !exists) throw new ErrnoException(ENODATA);
            byte[] v = new byte[value.remaining()];
            value.get(v);
            n.xattrs().put(name, v);
            n.ctime = now();
        }
        return 0;
    }

    @Override
    public int getxattr(String path, String name, ByteBuffer value) throws ErrnoException {
        Node n = node(path, null);
        synchronized (n) {
            byte[] v = n.hasXattrs() ? n.xattrs().get(name) : null;
            if (v == null) throw new ErrnoException(ENODATA);
            if (value.capacity() == 0) return v.length;
            if (value.capacity() < v.length) throw new ErrnoException(ERANGE);
            value.put(v);
            return v.length;
        }
    }

    @Override
    public int listxattr(String path, XattrNames names) throws ErrnoException {
        Node n = node(path, null);
        synchronized (n) {
            if (n.hasXattrs()) n.xattrs().keySet().forEach(names::add);
        }
        return 0;
    }

    @Override
    public int removexattr(String path, String name) throws ErrnoException {
        Node n = node(path, null);
        synchronized (n) {
            if (!n.hasXattrs() || n.xattrs().remove(name) == null) throw new ErrnoException(ENODATA);
            n.ctime = now();
        }
        return 0;
    }
}
