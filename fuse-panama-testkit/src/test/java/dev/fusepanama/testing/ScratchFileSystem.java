package dev.fusepanama.testing;

import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFLNK;
import static dev.fusepanama.Posix.S_IFMT;
import static dev.fusepanama.Posix.S_IFREG;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Flock;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.LinkTarget;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Posix;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.Timespec;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.XattrNames;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small in-memory filesystem implementing every operation, for the binding's tests: simple
 * rather than fast (one lock, paths as keys), and counting each call so tests can show that a
 * client's system call really reached the Java method through the kernel.
 */
public class ScratchFileSystem implements FuseFileSystem {
    /** {@code _IOWR('F', 1, int)}: the test ioctl, answers with the int doubled. */
    public static final int IOCTL_DOUBLE = (3 << 30) | (4 << 16) | ('F' << 8) | 1;

    public static final class Node {
        int mode;
        byte[] data = new byte[0];
        String target;
        long ino;
        long nlink = 1;
        int uid;
        int gid;
        long rdev;
        Instant atime = Instant.now();
        Instant mtime = atime;
        Instant ctime = atime;
        final Map<String, byte[]> xattrs = new TreeMap<>();
    }

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Map<String, Node> nodes = new TreeMap<>();
    private final Map<Long, Node> open = new ConcurrentHashMap<>();
    private final AtomicLong handles = new AtomicLong(100);
    private final AtomicLong inodes = new AtomicLong(1);
    public volatile int lastLockCmd;
    public volatile int lastFlockOp;
    public volatile int lastRenameFlags;
    public volatile int lastFallocateMode;
    public volatile PollHandle retainedPoll;
    /** What a second retain() of the same poll call returned: must be {@link #retainedPoll}. */
    public volatile PollHandle retainedPollAgain;
    /** The handle poll() was given (the per-thread view a later request reuses). */
    public volatile PollHandle pollArgument;

    public ScratchFileSystem() {
        Node root = new Node();
        root.mode = S_IFDIR | 0755;
        root.nlink = 2;
        root.ino = inodes.getAndIncrement();
        nodes.put("/", root);
    }

    /** Every path that exists now. */
    public synchronized java.util.Set<String> paths() {
        return new java.util.TreeSet<>(nodes.keySet());
    }

    /** Changes a file's contents behind the kernel's back, as another writer of the data would. */
    public synchronized void replaceData(String path, byte[] data) {
        Node n = nodes.get(path);
        n.data = data.clone();
        n.mtime = n.ctime = Instant.now();
    }

    /** How often {@code operation} (the Java method name) was called. */
    public int calls(String operation) {
        AtomicInteger n = calls.get(operation);
        return n == null ? 0 : n.get();
    }

    protected void count(String op) {
        calls.computeIfAbsent(op, k -> new AtomicInteger()).incrementAndGet();
    }

    private static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i == 0 ? "/" : path.substring(0, i);
    }

    private Node node(String path, FileInfo fi) {
        if (path == null && fi != null) {
            return open.get(fi.fh());
        }
        return nodes.get(path);
    }

    private Node create(String path, int mode) {
        Node parent = nodes.get(parent(path));
        if (parent == null) return null;
        Node n = new Node();
        n.mode = mode;
        n.ino = inodes.getAndIncrement();
        nodes.put(path, n);
        parent.mtime = parent.ctime = Instant.now();
        return n;
    }

    @Override
    public synchronized int getattr(String path, Stat st, FileInfo fi) {
        count("getattr");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        st.setMode(n.mode).setIno(n.ino).setNlink(n.nlink).setUid(n.uid).setGid(n.gid).setRdev(n.rdev)
                .setSize((n.mode & S_IFMT) == S_IFLNK ? n.target.length() : n.data.length)
                .setBlocks((n.data.length + 511) / 512).setBlksize(4096)
                .setAtime(n.atime).setMtime(n.mtime).setCtime(n.ctime);
        return 0;
    }

    @Override
    public synchronized int readlink(String path, LinkTarget target) {
        count("readlink");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        if (n.target == null) return -Errno.EINVAL;
        target.set(n.target);
        return 0;
    }

    @Override
    public synchronized int mknod(String path, int mode, long rdev) {
        count("mknod");
        if (nodes.containsKey(path)) return -Errno.EEXIST;
        Node n = create(path, mode);
        if (n == null) return -Errno.ENOENT;
        n.rdev = rdev;
        return 0;
    }

    @Override
    public synchronized int mkdir(String path, int mode) {
        count("mkdir");
        if (nodes.containsKey(path)) return -Errno.EEXIST;
        Node n = create(path, S_IFDIR | (mode & 07777));
        if (n == null) return -Errno.ENOENT;
        n.nlink = 2;
        return 0;
    }

    @Override
    public synchronized int unlink(String path) {
        count("unlink");
        Node n = nodes.remove(path);
        if (n == null) return -Errno.ENOENT;
        n.nlink--;
        return 0;
    }

    @Override
    public synchronized int rmdir(String path) {
        count("rmdir");
        if (!nodes.containsKey(path)) return -Errno.ENOENT;
        for (String p : nodes.keySet()) {
            if (p.startsWith(path + "/")) return -Errno.ENOTEMPTY;
        }
        nodes.remove(path);
        return 0;
    }

    @Override
    public synchronized int symlink(String target, String linkPath) {
        count("symlink");
        if (nodes.containsKey(linkPath)) return -Errno.EEXIST;
        Node n = create(linkPath, S_IFLNK | 0777);
        if (n == null) return -Errno.ENOENT;
        n.target = target;
        return 0;
    }

    @Override
    public synchronized int rename(String from, String to, int flags) {
        count("rename");
        lastRenameFlags = flags;
        Node n = nodes.get(from);
        if (n == null) return -Errno.ENOENT;
        if ((flags & Posix.RENAME_NOREPLACE) != 0 && nodes.containsKey(to)) return -Errno.EEXIST;
        if ((flags & Posix.RENAME_EXCHANGE) != 0) {
            Node other = nodes.get(to);
            if (other == null) return -Errno.ENOENT;
            nodes.put(to, n);
            nodes.put(from, other);
            return 0;
        }
        List<String> moved = new ArrayList<>();
        for (String p : nodes.keySet()) {
            if (p.equals(from) || p.startsWith(from + "/")) moved.add(p);
        }
        nodes.remove(to);
        for (String p : moved) {
            nodes.put(to + p.substring(from.length()), nodes.remove(p));
        }
        return 0;
    }

    @Override
    public synchronized int link(String from, String to) {
        count("link");
        Node n = nodes.get(from);
        if (n == null) return -Errno.ENOENT;
        if (nodes.containsKey(to)) return -Errno.EEXIST;
        n.nlink++;
        nodes.put(to, n);
        return 0;
    }

    @Override
    public synchronized int chmod(String path, int mode, FileInfo fi) {
        count("chmod");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        n.mode = (n.mode & S_IFMT) | (mode & 07777);
        n.ctime = Instant.now();
        return 0;
    }

    @Override
    public synchronized int chown(String path, int uid, int gid, FileInfo fi) {
        count("chown");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        if (uid != -1) n.uid = uid;
        if (gid != -1) n.gid = gid;
        return 0;
    }

    @Override
    public synchronized int truncate(String path, long size, FileInfo fi) {
        count("truncate");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        n.data = Arrays.copyOf(n.data, (int) size);
        n.mtime = n.ctime = Instant.now();
        return 0;
    }

    @Override
    public synchronized int open(String path, FileInfo fi) {
        count("open");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        if ((fi.flags() & Posix.O_TRUNC) != 0) n.data = new byte[0];
        long fh = handles.getAndIncrement();
        open.put(fh, n);
        fi.setFh(fh);
        return 0;
    }

    @Override
    public synchronized int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
        count("read");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        int len = (int) Math.max(0, Math.min(buf.remaining(), n.data.length - offset));
        buf.put(n.data, (int) offset, len);
        return len;
    }

    @Override
    public synchronized int write(String path, ByteBuffer buf, long offset, FileInfo fi) {
        count("write");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        int len = buf.remaining();
        if (offset + len > n.data.length) n.data = Arrays.copyOf(n.data, (int) (offset + len));
        buf.get(n.data, (int) offset, len);
        n.mtime = n.ctime = Instant.now();
        return len;
    }

    @Override
    public synchronized int statfs(String path, StatVfs st) {
        count("statfs");
        st.setBlockSize(4096).setFragmentSize(4096).setBlocks(1000).setBlocksFree(600).setBlocksAvailable(500)
                .setFiles(100).setFilesFree(100 - nodes.size()).setFilesAvailable(100 - nodes.size()).setNameMax(255);
        return 0;
    }

    @Override public int flush(String path, FileInfo fi) { count("flush"); return 0; }

    @Override
    public int release(String path, FileInfo fi) {
        count("release");
        open.remove(fi.fh());
        return 0;
    }

    @Override public int fsync(String path, boolean dataOnly, FileInfo fi) { count(dataOnly ? "fdatasync" : "fsync"); return 0; }

    @Override
    public synchronized int setxattr(String path, String name, ByteBuffer value, int flags) {
        count("setxattr");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        boolean exists = n.xattrs.containsKey(name);
        if ((flags & Posix.XATTR_CREATE) != 0 && exists) return -Errno.EEXIST;
        if ((flags & Posix.XATTR_REPLACE) != 0 && !exists) return -Errno.ENODATA;
        byte[] v = new byte[value.remaining()];
        value.get(v);
        n.xattrs.put(name, v);
        return 0;
    }

    @Override
    public synchronized int getxattr(String path, String name, ByteBuffer value) {
        count("getxattr");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        byte[] v = n.xattrs.get(name);
        if (v == null) return -Errno.ENODATA;
        if (value.capacity() == 0) return v.length;
        if (value.capacity() < v.length) return -Errno.ERANGE;
        value.put(v);
        return v.length;
    }

    @Override
    public synchronized int listxattr(String path, XattrNames names) {
        count("listxattr");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        n.xattrs.keySet().forEach(names::add);
        return 0;
    }

    @Override
    public synchronized int removexattr(String path, String name) {
        count("removexattr");
        Node n = nodes.get(path);
        if (n == null) return -Errno.ENOENT;
        return n.xattrs.remove(name) == null ? -Errno.ENODATA : 0;
    }

    @Override public int opendir(String path, FileInfo fi) { count("opendir"); return 0; }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        count("readdir");
        List<String> names = new ArrayList<>(List.of(".", ".."));
        synchronized (this) {
            if (!nodes.containsKey(path)) return -Errno.ENOENT;
            String prefix = path.equals("/") ? "/" : path + "/";
            for (String p : nodes.keySet()) {
                if (p.startsWith(prefix) && p.length() > prefix.length() && p.indexOf('/', prefix.length()) < 0) {
                    names.add(p.substring(prefix.length()));
                }
            }
        }
        for (int i = (int) offset; i < names.size(); i++) {
            if (filler.add(names.get(i), i + 1)) break;
        }
        return 0;
    }

    @Override public int releasedir(String path, FileInfo fi) { count("releasedir"); return 0; }
    @Override public int fsyncdir(String path, boolean dataOnly, FileInfo fi) { count("fsyncdir"); return 0; }
    @Override public int access(String path, int mask) { count("access"); return nodes.containsKey(path) ? 0 : -Errno.ENOENT; }

    @Override
    public synchronized int create(String path, int mode, FileInfo fi) {
        count("create");
        Node n = nodes.get(path);
        if (n == null) {
            n = create(path, S_IFREG | (mode & 07777));
            if (n == null) return -Errno.ENOENT;
        }
        long fh = handles.getAndIncrement();
        open.put(fh, n);
        fi.setFh(fh);
        return 0;
    }

    @Override
    public int lock(String path, FileInfo fi, int cmd, Flock lock) {
        count("lock");
        lastLockCmd = cmd;
        if (cmd == Posix.F_GETLK) lock.setType(Posix.F_UNLCK);
        return 0;
    }

    @Override
    public synchronized int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) {
        count("utimens");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        Instant now = Instant.now();
        if (!atime.isOmit()) n.atime = atime.toInstant(now);
        if (!mtime.isOmit()) n.mtime = mtime.toInstant(now);
        n.ctime = now;
        return 0;
    }

    @Override public long bmap(String path, long blockSize, long index) { count("bmap"); return index; }

    @Override
    public int ioctl(String path, int cmd, long arg, FileInfo fi, int flags, ByteBuffer data) {
        count("ioctl");
        if (cmd != IOCTL_DOUBLE) return -Errno.ENOTTY;
        int v = data.order(java.nio.ByteOrder.nativeOrder()).getInt(0);
        data.putInt(0, v * 2);
        return 0;
    }

    @Override
    public int poll(String path, FileInfo fi, PollHandle handle) {
        count("poll");
        if (handle != null) {
            pollArgument = handle;
            retainedPoll = handle.retain();
            retainedPollAgain = handle.retain();
        }
        return Posix.POLLIN | Posix.POLLOUT;
    }

    @Override public int flock(String path, FileInfo fi, int operation) { count("flock"); lastFlockOp = operation; return 0; }

    @Override
    public synchronized int fallocate(String path, int mode, long offset, long length, FileInfo fi) {
        count("fallocate");
        lastFallocateMode = mode;
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        if ((mode & Posix.FALLOC_FL_KEEP_SIZE) == 0 && offset + length > n.data.length) {
            n.data = Arrays.copyOf(n.data, (int) (offset + length));
        }
        return 0;
    }

    @Override
    public synchronized long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn, String pathOut, FileInfo fiOut,
                                           long offsetOut, long size, int flags) {
        count("copyFileRange");
        Node in = node(pathIn, fiIn);
        Node out = node(pathOut, fiOut);
        if (in == null || out == null) return -Errno.ENOENT;
        int n = (int) Math.max(0, Math.min(size, in.data.length - offsetIn));
        if (offsetOut + n > out.data.length) out.data = Arrays.copyOf(out.data, (int) (offsetOut + n));
        System.arraycopy(in.data, (int) offsetIn, out.data, (int) offsetOut, n);
        return n;
    }

    @Override
    public synchronized long lseek(String path, long offset, int whence, FileInfo fi) {
        count("lseek");
        Node n = node(path, fi);
        if (n == null) return -Errno.ENOENT;
        if (whence == Posix.SEEK_DATA) return offset < n.data.length ? offset : -Errno.ENXIO;
        if (whence == Posix.SEEK_HOLE) return offset < n.data.length ? n.data.length : -Errno.ENXIO;
        return -Errno.EINVAL;
    }

    /** The same filesystem answering data through read_buf/write_buf, which libfuse then prefers. */
    public static class Buffered extends ScratchFileSystem {
        @Override
        public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) {
            count("writeBuf");
            try {
                ByteBuffer b = ByteBuffer.allocate((int) data.size());
                data.copyTo(b);
                b.flip();
                return write(path, b, offset, fi);
            } catch (java.io.IOException e) {
                return -Errno.EIO;
            }
        }

        @Override
        public int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) {
            count("readBuf");
            ByteBuffer b = ByteBuffer.allocate((int) size);
            int n = read(path, b, offset, fi);
            if (n < 0) return n;
            reply.fromBytes(b.flip());
            return 0;
        }
    }
}
