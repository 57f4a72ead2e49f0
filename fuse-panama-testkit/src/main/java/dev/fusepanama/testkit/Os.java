package dev.fusepanama.testkit;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.structs.flock;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.structs.statvfs;
import dev.fusepanama.libc.structs.timespec;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plain system calls for tests: what a C program would do to a mount, with the raw result. Every
 * call returns its non-negative result or {@code -errno}. Paths are byte arrays (or Strings,
 * encoded as UTF-8), so tests can use names that are not UTF-8. The calls are the library's own
 * {@link Libc} bindings; this class only copies Java arrays to native memory and back.
 */
public final class Os {
    private Os() {}

    public static final int AT_FDCWD = Libc.AT_FDCWD;
    public static final int AT_SYMLINK_NOFOLLOW = Libc.AT_SYMLINK_NOFOLLOW;

    public static byte[] bytes(Path p) {
        return p.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code dir + "/" + name} as bytes. */
    public static byte[] child(Path dir, byte[] name) {
        byte[] d = bytes(dir);
        byte[] r = Arrays.copyOf(d, d.length + 1 + name.length);
        r[d.length] = '/';
        System.arraycopy(name, 0, r, d.length + 1, name.length);
        return r;
    }

    private static MemorySegment cstr(Arena a, byte[] s) {
        MemorySegment m = a.allocate(s.length + 1L);
        MemorySegment.copy(s, 0, m, ValueLayout.JAVA_BYTE, 0, s.length);
        return m;
    }

    private static MemorySegment data(Arena a, byte[] d) {
        MemorySegment m = a.allocate(Math.max(1, d.length));
        MemorySegment.copy(d, 0, m, ValueLayout.JAVA_BYTE, 0, d.length);
        return m;
    }


    public static int open(byte[] path, int flags, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.openat(AT_FDCWD, cstr(a, path), flags, mode);
        }
    }

    public static int open(Path path, int flags) { return open(bytes(path), flags, 0644); }

    public static int close(int fd) {
        return Libc.close(fd);
    }

    public static long pwrite(int fd, byte[] data, long offset) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.pwrite(fd, data(a, data), data.length, offset);
        }
    }

    public static long write(int fd, byte[] data) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.write(fd, data(a, data), data.length);
        }
    }

    /**
     * What {@code echo DATA > PATH} does: open (create, truncate), one write, close. 0, or the
     * first call's {@code -errno} (a short write is -ENOSPC, as the shell's write would report it).
     */
    public static int writeFile(Path path, byte[] data) {
        int fd = open(bytes(path), Posix.O_CREAT | Posix.O_WRONLY | Posix.O_TRUNC, 0644);
        if (fd < 0) return fd;
        long n = write(fd, data);
        int closed = close(fd);
        if (n < 0) return (int) n;
        if (n < data.length) return -Errno.ENOSPC;
        return closed;
    }

    /**
     * Drops the kernel's clean page cache and unused dentries and inodes
     * ({@code /proc/sys/vm/drop_caches}, root only): what a FUSE filesystem is asked afterwards is
     * what it stored, not what the kernel kept.
     */
    public static void dropCaches() throws IOException {
        Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }

    /**
     * pread of up to {@code size} bytes into a page-aligned buffer (as O_DIRECT on a real
     * filesystem, and so on a passed-through FUSE file, requires); throws {@link OsException} on error.
     */
    public static byte[] pread(int fd, int size, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, size), 4096);
            long n = Libc.pread(fd, buf, size, offset);
            if (n < 0) {
                throw new OsException("pread", (int) -n);
            }
            return buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    public static long lseek(int fd, long offset, int whence) {
        return Libc.lseek(fd, offset, whence);
    }

    public static int ftruncate(int fd, long size) {
        return Libc.ftruncate(fd, size);
    }

    public static int fsync(int fd) {
        return Libc.fsync(fd, false);
    }

    public static int fdatasync(int fd) {
        return Libc.fsync(fd, true);
    }

    public static int flock(int fd, int op) {
        return Libc.flock(fd, op);
    }

    /** fcntl record lock; for F_GETLK returns the lock type found (F_UNLCK if none). */
    public static int fcntlLock(int fd, int cmd, short type, long start, long len) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fl = a.allocate(flock.LAYOUT);
            long addr = fl.address();
            flock.l_type(addr, type);
            flock.l_whence(addr, (short) 0);
            flock.l_start(addr, start);
            flock.l_len(addr, len);
            int rc = Libc.fcntl(fd, cmd, fl);
            return rc < 0 ? rc : (cmd == Posix.F_GETLK ? flock.l_type(addr) : rc);
        }
    }

    public static int fallocate(int fd, int mode, long offset, long len) {
        return Libc.fallocate(fd, mode, offset, len);
    }

    public static long copyFileRange(int in, long offIn, int out, long offOut, long len) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.copyFileRange(in, a.allocateFrom(JAVA_LONG, offIn), out, a.allocateFrom(JAVA_LONG, offOut), len, 0);
        }
    }

    /** ioctl with a pointer to {@code arg} (in/out). */
    public static int ioctl(int fd, long cmd, MemorySegment arg) {
        return Libc.ioctl(fd, cmd, arg);
    }

    /** poll one fd; returns revents, 0 on timeout, or -errno. */
    public static int poll(int fd, short events, int timeoutMillis) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(8, 4);
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, events);
            int rc = Libc.poll(pfd, 1, timeoutMillis);
            return rc <= 0 ? rc : pfd.get(ValueLayout.JAVA_SHORT, 6);
        }
    }

    public static int renameat2(byte[] from, byte[] to, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.renameat2(AT_FDCWD, cstr(a, from), AT_FDCWD, cstr(a, to), flags);
        }
    }

    public static int mknod(byte[] path, int mode, long dev) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.mknodat(AT_FDCWD, cstr(a, path), mode, dev);
        }
    }

    public static int unlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.unlinkat(AT_FDCWD, cstr(a, path), 0);
        }
    }

    public static int access(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.faccessat(AT_FDCWD, cstr(a, path), mode, 0);
        }
    }

    public static int chown(byte[] path, int uid, int gid) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.fchownat(AT_FDCWD, cstr(a, path), uid, gid, 0);
        }
    }

    public static int truncate(byte[] path, long size) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.truncate(cstr(a, path), size);
        }
    }

    /** utimensat with explicit nanoseconds (may be UTIME_NOW / UTIME_OMIT). */
    public static int utimens(byte[] path, long aSec, long aNsec, long mSec, long mNsec) {
        try (Arena a = Arena.ofConfined()) {
            long size = timespec.LAYOUT.byteSize();
            MemorySegment tv = a.allocate(size * 2, 8);
            timespec.tv_sec(tv.address(), aSec);
            timespec.tv_nsec(tv.address(), aNsec);
            timespec.tv_sec(tv.address() + size, mSec);
            timespec.tv_nsec(tv.address() + size, mNsec);
            return Libc.utimensat(AT_FDCWD, cstr(a, path), tv, 0);
        }
    }

    public static int setxattr(byte[] path, String name, byte[] value, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.setxattr(cstr(a, path), a.allocateFrom(name), data(a, value), value.length, flags);
        }
    }

    /** getxattr into a buffer of {@code size} bytes; result is -errno, or the value (size 0: length only, as byte[n] of zeros). */
    public static Result getxattr(byte[] path, String name, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = Libc.getxattr(cstr(a, path), a.allocateFrom(name), size == 0 ? MemorySegment.NULL : v, size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** listxattr into a buffer of {@code size} bytes; size 0 queries the length. */
    public static Result listxattr(byte[] path, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = Libc.listxattr(cstr(a, path), size == 0 ? MemorySegment.NULL : v, size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    public static int removexattr(byte[] path, String name) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.removexattr(cstr(a, path), a.allocateFrom(name));
        }
    }

    /** A result with data: {@code rc} is the count or -errno. */
    public record Result(long rc, byte[] data) {
        public List<String> names() {
            List<String> out = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < data.length; i++) {
                if (data[i] == 0) {
                    out.add(new String(data, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            return out;
        }
    }

    /** lstat, as the fields tests look at; throws OsException on failure. */
    public static StatResult lstat(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(stat.LAYOUT);
            int rc = Libc.fstatat(AT_FDCWD, cstr(a, path), st, AT_SYMLINK_NOFOLLOW);
            if (rc < 0) {
                throw new OsException("lstat", -rc);
            }
            return StatResult.of(st.address());
        }
    }

    /** fstat of an open descriptor; throws OsException on failure. */
    public static StatResult fstat(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(stat.LAYOUT);
            int rc = Libc.fstat(fd, st);
            if (rc < 0) {
                throw new OsException("fstat", -rc);
            }
            return StatResult.of(st.address());
        }
    }

    /** What {@link #statx} returns: the mask of fields filled, the birth time, the mode and size. */
    public record StatxResult(int mask, long btimeSeconds, int btimeNanos, int mode, long size) {}

    /** {@code statx(2)} of {@code path} (not following a last symlink) asking for {@code mask}; throws OsException on failure. */
    public static StatxResult statx(byte[] path, int mask) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(dev.fusepanama.libc.structs.statx.LAYOUT);
            int rc = Libc.statx(AT_FDCWD, cstr(a, path), AT_SYMLINK_NOFOLLOW, mask, buf);
            if (rc < 0) {
                throw new OsException("statx", -rc);
            }
            long s = buf.address();
            return new StatxResult(dev.fusepanama.libc.structs.statx.getInt(s, dev.fusepanama.libc.structs.statx.MASK),
                    dev.fusepanama.libc.structs.statx.getLong(s, dev.fusepanama.libc.structs.statx.BTIME),
                    dev.fusepanama.libc.structs.statx.getInt(s, dev.fusepanama.libc.structs.statx.BTIME + dev.fusepanama.libc.structs.statx.TV_NSEC),
                    dev.fusepanama.libc.structs.statx.mode(s),
                    dev.fusepanama.libc.structs.statx.getLong(s, dev.fusepanama.libc.structs.statx.SIZE_FIELD));
        }
    }

    public static int mkdir(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.mkdirat(AT_FDCWD, cstr(a, path), mode);
        }
    }

    public static int rmdir(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.unlinkat(AT_FDCWD, cstr(a, path), Libc.AT_REMOVEDIR);
        }
    }

    public static int symlink(byte[] target, byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.symlinkat(cstr(a, target), AT_FDCWD, cstr(a, path));
        }
    }

    public static int link(byte[] from, byte[] to) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.linkat(AT_FDCWD, cstr(a, from), AT_FDCWD, cstr(a, to), 0);
        }
    }

    /** {@code linkat} of an open descriptor's file to {@code to}, through its /proc/self/fd name (as a tool links an O_TMPFILE file). */
    public static int linkOpen(int fd, byte[] to) {
        try (Arena a = Arena.ofConfined()) {
            byte[] proc = ("/proc/self/fd/" + fd).getBytes(StandardCharsets.US_ASCII);
            return Libc.linkat(AT_FDCWD, cstr(a, proc), AT_FDCWD, cstr(a, to), Libc.AT_SYMLINK_FOLLOW);
        }
    }

    public static int chmod(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.fchmodat(AT_FDCWD, cstr(a, path), mode, 0);
        }
    }

    /** readlink: the target bytes; throws {@link OsException} on failure. */
    public static byte[] readlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(4096);
            long n = Libc.readlinkat(AT_FDCWD, cstr(a, path), buf, 4096);
            if (n < 0) {
                throw new OsException("readlink", (int) -n);
            }
            return buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    public record StatResult(int mode, long ino, long nlink, long size, int uid, int gid, long rdev,
                             long atimeSec, long atimeNsec, long mtimeSec, long mtimeNsec, long blocks) {
        static StatResult of(long s) {
            return new StatResult(stat.st_mode(s), stat.st_ino(s), stat.st_nlink(s), stat.st_size(s), stat.st_uid(s), stat.st_gid(s),
                    stat.st_rdev(s), timespec.tv_sec(s + stat.st_atim), timespec.tv_nsec(s + stat.st_atim),
                    timespec.tv_sec(s + stat.st_mtim), timespec.tv_nsec(s + stat.st_mtim), stat.st_blocks(s));
        }
    }

    public record StatVfsResult(long bsize, long blocks, long bfree, long bavail, long files, long ffree, long namemax) {}

    public static StatVfsResult statvfs(Path path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(statvfs.LAYOUT);
            int rc = Libc.statvfs(cstr(a, bytes(path)), st);
            if (rc < 0) {
                throw new OsException("statvfs", -rc);
            }
            long s = st.address();
            return new StatVfsResult(statvfs.f_bsize(s), statvfs.f_blocks(s), statvfs.f_bfree(s), statvfs.f_bavail(s),
                    statvfs.f_files(s), statvfs.f_ffree(s), statvfs.f_namemax(s));
        }
    }

    /** The directory's entry names as raw bytes, in the order getdents64(2) returns them ("." and ".." included). */
    public static List<byte[]> listBytes(Path dir) {
        int fd = open(bytes(dir), Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
        if (fd < 0) {
            throw new OsException("open " + dir, -fd);
        }
        try {
            List<byte[]> names = new ArrayList<>();
            List<byte[]> batch;
            while (!(batch = getdents(fd, 32 * 1024)).isEmpty()) {
                names.addAll(batch);
            }
            return names;
        } finally {
            close(fd);
        }
    }

    /**
     * One getdents64(2) on the open directory {@code fd} with a buffer of {@code bufferSize}
     * bytes: the names it returned, none at the end of the directory; throws {@link OsException}.
     */
    public static List<byte[]> getdents(int fd, int bufferSize) {
        try (Arena a = Arena.ofConfined()) {
            Dirents d = new Dirents(a.allocate(bufferSize, 8));
            long n = d.read(fd);
            if (n < 0) {
                throw new OsException("getdents64", (int) -n);
            }
            List<byte[]> names = new ArrayList<>();
            while (d.next()) {
                names.add(d.name());
            }
            return names;
        }
    }

    /** A failed call, with its errno. */
    public static final class OsException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public final int errno;

        OsException(String call, int errno) {
            super(call + ": " + Errno.name(errno));
            this.errno = errno;
        }
    }
}
