package dev.fusepanama.testkit;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Xattr;
import dev.fusepanama.libc.structs.flock;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.structs.statvfs;
import dev.fusepanama.libc.structs.timespec;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

    /** {@link Libc#AT_FDCWD}: the calls here take paths from the working directory (or absolute ones). */
    public static final int AT_FDCWD = Libc.AT_FDCWD;
    /** {@link Libc#AT_SYMLINK_NOFOLLOW}: act on a final symbolic link itself. */
    public static final int AT_SYMLINK_NOFOLLOW = Libc.AT_SYMLINK_NOFOLLOW;

    /**
     * {@return {@code p} as the bytes the calls here take}: its text in UTF-8, no NUL.
     *
     * @param p the path
     */
    public static byte[] bytes(Path p) {
        return p.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@return {@code dir + "/" + name} as bytes}, for a name that need not be UTF-8.
     *
     * @param dir the directory
     * @param name the entry's name, any bytes but NUL and '/'
     */
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


    /**
     * {@code open(2)}.
     *
     * @param path the path
     * @param flags the {@code O_*} flags ({@link Posix})
     * @param mode the permission bits of a file it creates, before the umask
     * @return the descriptor, or -errno
     */
    public static int open(byte[] path, int flags, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.openat(AT_FDCWD, cstr(a, path), flags, mode);
        }
    }

    /**
     * {@code open(2)} with the mode 0644 for a file it creates.
     *
     * @param path the path
     * @param flags the {@code O_*} flags ({@link Posix})
     * @return the descriptor, or -errno
     */
    public static int open(Path path, int flags) { return open(bytes(path), flags, 0644); }

    /**
     * {@code close(2)}: on a FUSE file, the flush the filesystem answered.
     *
     * @param fd the descriptor
     * @return 0, or -errno
     */
    public static int close(int fd) {
        return Libc.close(fd);
    }

    /**
     * {@code pwrite(2)} of all of {@code data}, in one call.
     *
     * @param fd the descriptor
     * @param data the bytes
     * @param offset where in the file
     * @return the number of bytes written, or -errno
     */
    public static long pwrite(int fd, byte[] data, long offset) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.pwrite(fd, data(a, data), data.length, offset);
        }
    }

    /**
     * {@code write(2)} of all of {@code data} at the file offset, in one call.
     *
     * @param fd the descriptor
     * @param data the bytes
     * @return the number of bytes written, or -errno
     */
    public static long write(int fd, byte[] data) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.write(fd, data(a, data), data.length);
        }
    }

    /**
     * What {@code echo DATA > PATH} does: open (create with 0644, truncate), one write, close.
     *
     * @param path the file
     * @param data its new contents
     * @return 0, or the first failing call's {@code -errno} (a short write is -ENOSPC, as the
     *     shell's write would report it)
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
     *
     * @throws IOException if the file cannot be written (not root)
     */
    public static void dropCaches() throws IOException {
        Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }

    /**
     * {@code pread(2)} into a page-aligned buffer, as O_DIRECT on a real filesystem (and so on a
     * passed-through FUSE file) requires.
     *
     * @param fd the descriptor
     * @param size the most bytes to read
     * @param offset where in the file
     * @return the bytes read, fewer than {@code size} at the end of the file, none past it
     * @throws OsException if the call fails
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

    /**
     * {@code lseek(2)}.
     *
     * @param fd the descriptor
     * @param offset the offset, counted from where {@code whence} says
     * @param whence {@code SEEK_SET}, {@code SEEK_CUR}, {@code SEEK_END}, {@code SEEK_DATA} or {@code SEEK_HOLE}
     * @return the resulting offset, or -errno
     */
    public static long lseek(int fd, long offset, int whence) {
        return Libc.lseek(fd, offset, whence);
    }

    /**
     * {@code ftruncate(2)}.
     *
     * @param fd a descriptor open for writing
     * @param size the new size in bytes
     * @return 0, or -errno
     */
    public static int ftruncate(int fd, long size) {
        return Libc.ftruncate(fd, size);
    }

    /**
     * {@code fsync(2)}.
     *
     * @param fd the descriptor
     * @return 0, or -errno
     */
    public static int fsync(int fd) {
        return Libc.fsync(fd, false);
    }

    /**
     * {@code fdatasync(2)}.
     *
     * @param fd the descriptor
     * @return 0, or -errno
     */
    public static int fdatasync(int fd) {
        return Libc.fsync(fd, true);
    }

    /**
     * {@code flock(2)}.
     *
     * @param fd the descriptor
     * @param op {@code LOCK_SH}, {@code LOCK_EX} or {@code LOCK_UN}, with {@code LOCK_NB} not to wait
     * @return 0, or -errno
     */
    public static int flock(int fd, int op) {
        return Libc.flock(fd, op);
    }

    /**
     * A record lock command ({@code fcntl(2)} with a {@code struct flock}), its range counted from
     * the start of the file.
     *
     * @param fd the descriptor
     * @param cmd {@code F_GETLK}, {@code F_SETLK}, {@code F_SETLKW} or an {@code F_OFD_*} one
     * @param type {@code F_RDLCK}, {@code F_WRLCK} or {@code F_UNLCK}
     * @param start the range's first byte
     * @param len its length, 0 for up to the end of the file
     * @return for {@code F_GETLK} the type of the lock found ({@code F_UNLCK} if none), else 0; or -errno
     */
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

    /**
     * {@code fallocate(2)}.
     *
     * @param fd a descriptor open for writing
     * @param mode 0, or {@code FALLOC_FL_*} flags
     * @param offset the range's first byte
     * @param len its length in bytes
     * @return 0, or -errno
     */
    public static int fallocate(int fd, int mode, long offset, long len) {
        return Libc.fallocate(fd, mode, offset, len);
    }

    /**
     * {@code copy_file_range(2)} between explicit offsets; the file offsets stay as they were.
     *
     * @param in the descriptor copied from
     * @param offIn where in {@code in}
     * @param out the descriptor copied to
     * @param offOut where in {@code out}
     * @param len the most bytes to copy
     * @return the number of bytes copied, 0 at the end of {@code in}, or -errno
     */
    public static long copyFileRange(int in, long offIn, int out, long offOut, long len) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.copyFileRange(in, a.allocateFrom(JAVA_LONG, offIn), out, a.allocateFrom(JAVA_LONG, offOut), len, 0);
        }
    }

    /**
     * {@code ioctl(2)} with a pointer to {@code arg}, which the request reads or fills.
     *
     * @param fd the descriptor
     * @param cmd the request number
     * @param arg the argument, in native memory
     * @return what the request returns, or -errno
     */
    public static int ioctl(int fd, long cmd, MemorySegment arg) {
        return Libc.ioctl(fd, cmd, arg);
    }

    /**
     * {@code poll(2)} of one descriptor.
     *
     * @param fd the descriptor
     * @param events the {@code POLL*} events to wait for
     * @param timeoutMillis the longest wait in milliseconds, -1 for no limit
     * @return the events that happened ({@code revents}), 0 on timeout, or -errno
     */
    public static int poll(int fd, short events, int timeoutMillis) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(8, 4);
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, events);
            int rc = Libc.poll(pfd, 1, timeoutMillis);
            return rc <= 0 ? rc : pfd.get(ValueLayout.JAVA_SHORT, 6);
        }
    }

    /**
     * {@code renameat2(2)}.
     *
     * @param from the old path
     * @param to the new path
     * @param flags {@code RENAME_NOREPLACE}, {@code RENAME_EXCHANGE}, {@code RENAME_WHITEOUT}, or 0
     * @return 0, or -errno
     */
    public static int renameat2(byte[] from, byte[] to, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.renameat2(AT_FDCWD, cstr(a, from), AT_FDCWD, cstr(a, to), flags);
        }
    }

    /**
     * {@code mknod(2)}.
     *
     * @param path the path
     * @param mode the file type ({@code S_IF*}) and permission bits
     * @param dev the device number of a device file
     * @return 0, or -errno
     */
    public static int mknod(byte[] path, int mode, long dev) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.mknodat(AT_FDCWD, cstr(a, path), mode, dev);
        }
    }

    /**
     * {@code unlink(2)}.
     *
     * @param path the path
     * @return 0, or -errno
     */
    public static int unlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.unlinkat(AT_FDCWD, cstr(a, path), 0);
        }
    }

    /**
     * {@code access(2)}: checked as the real user, following a final symbolic link.
     *
     * @param path the path
     * @param mode {@code F_OK}, or any of {@code R_OK}, {@code W_OK}, {@code X_OK}
     * @return 0 if allowed, or -errno
     */
    public static int access(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.faccessat(AT_FDCWD, cstr(a, path), mode, 0);
        }
    }

    /**
     * {@code chown(2)}, following a final symbolic link.
     *
     * @param path the path
     * @param uid the new owner, or -1 to keep it
     * @param gid the new group, or -1 to keep it
     * @return 0, or -errno
     */
    public static int chown(byte[] path, int uid, int gid) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.fchownat(AT_FDCWD, cstr(a, path), uid, gid, 0);
        }
    }

    /**
     * {@code truncate(2)}.
     *
     * @param path the path
     * @param size the new size in bytes
     * @return 0, or -errno
     */
    public static int truncate(byte[] path, long size) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.truncate(cstr(a, path), size);
        }
    }

    /**
     * {@code utimensat(2)} with explicit times, following a final symbolic link.
     *
     * @param path the path
     * @param aSec the access time's seconds
     * @param aNsec its nanoseconds, or {@code UTIME_NOW} or {@code UTIME_OMIT}
     * @param mSec the modification time's seconds
     * @param mNsec its nanoseconds, or {@code UTIME_NOW} or {@code UTIME_OMIT}
     * @return 0, or -errno
     */
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

    /**
     * {@code setxattr(2)}, following a final symbolic link.
     *
     * @param path the path
     * @param name the attribute's name with its namespace, such as {@code user.foo}
     * @param value its value
     * @param flags {@code XATTR_CREATE}, {@code XATTR_REPLACE}, or 0
     * @return 0, or -errno
     */
    public static int setxattr(byte[] path, String name, byte[] value, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return Xattr.setxattr(cstr(a, path), a.allocateFrom(name), data(a, value), value.length, flags);
        }
    }

    /**
     * {@code getxattr(2)} into a buffer of {@code size} bytes, following a final symbolic link.
     *
     * @param path the path
     * @param name the attribute's name with its namespace
     * @param size the buffer's size; 0 asks for the value's length only
     * @return the value's length (or -errno) and, unless {@code size} was 0 or the call failed, the value
     */
    public static Result getxattr(byte[] path, String name, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = Xattr.getxattr(cstr(a, path), a.allocateFrom(name), size == 0 ? MemorySegment.NULL : v, size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * {@code listxattr(2)} into a buffer of {@code size} bytes, following a final symbolic link.
     *
     * @param path the path
     * @param size the buffer's size; 0 asks for the list's length only
     * @return the list's length (or -errno) and, unless {@code size} was 0 or the call failed, the
     *     list ({@link Result#names()})
     */
    public static Result listxattr(byte[] path, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = Xattr.listxattr(cstr(a, path), size == 0 ? MemorySegment.NULL : v, size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * {@code removexattr(2)}, following a final symbolic link.
     *
     * @param path the path
     * @param name the attribute's name with its namespace
     * @return 0, or -errno
     */
    public static int removexattr(byte[] path, String name) {
        try (Arena a = Arena.ofConfined()) {
            return Xattr.removexattr(cstr(a, path), a.allocateFrom(name));
        }
    }

    /**
     * The result of a call that returns bytes.
     *
     * @param rc the number of bytes, or -errno
     * @param data the bytes, or null where the call failed or only a length was asked for
     */
    public record Result(long rc, byte[] data) {
        /**
         * {@return the names in {@link #data()}, an {@code xattr} list of NUL-terminated names}, decoded as UTF-8.
         *
         * @throws NullPointerException if the result has no data
         */
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

    /**
     * {@code lstat(2)}: the attributes of {@code path}, not following a final symbolic link.
     *
     * @param path the path
     * @return the fields tests look at
     * @throws OsException if the call fails
     */
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

    /**
     * {@code fstat(2)} of an open descriptor.
     *
     * @param fd the descriptor
     * @return the fields tests look at
     * @throws OsException if the call fails
     */
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

    /**
     * What {@link #statx} returns.
     *
     * @param mask the {@code STATX_*} bits of the fields the filesystem filled in
     * @param btimeSeconds the birth time's seconds since the epoch (0 unless {@code STATX_BTIME} is in the mask)
     * @param btimeNanos its nanoseconds
     * @param mode the file type and permission bits
     * @param size the size in bytes
     */
    public record StatxResult(int mask, long btimeSeconds, int btimeNanos, int mode, long size) {}

    /**
     * {@code statx(2)} of {@code path}, not following a final symbolic link.
     *
     * @param path the path
     * @param mask the {@code STATX_*} bits of the fields to ask for
     * @return the fields tests look at
     * @throws OsException if the call fails
     */
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

    /**
     * {@code mkdir(2)}.
     *
     * @param path the path
     * @param mode the permission bits, before the umask
     * @return 0, or -errno
     */
    public static int mkdir(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.mkdirat(AT_FDCWD, cstr(a, path), mode);
        }
    }

    /**
     * {@code rmdir(2)}.
     *
     * @param path the path
     * @return 0, or -errno
     */
    public static int rmdir(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.unlinkat(AT_FDCWD, cstr(a, path), Libc.AT_REMOVEDIR);
        }
    }

    /**
     * {@code symlink(2)}.
     *
     * @param target the text of the link
     * @param path where the link is made
     * @return 0, or -errno
     */
    public static int symlink(byte[] target, byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.symlinkat(cstr(a, target), AT_FDCWD, cstr(a, path));
        }
    }

    /**
     * {@code link(2)}: not following a final symbolic link of {@code from}.
     *
     * @param from the existing file
     * @param to the new name
     * @return 0, or -errno
     */
    public static int link(byte[] from, byte[] to) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.linkat(AT_FDCWD, cstr(a, from), AT_FDCWD, cstr(a, to), 0);
        }
    }

    /**
     * {@code linkat(2)} of an open descriptor's file to {@code to}, through its /proc/self/fd name
     * (as a tool links an O_TMPFILE file).
     *
     * @param fd the descriptor
     * @param to the new name
     * @return 0, or -errno
     */
    public static int linkOpen(int fd, byte[] to) {
        try (Arena a = Arena.ofConfined()) {
            byte[] proc = ("/proc/self/fd/" + fd).getBytes(StandardCharsets.US_ASCII);
            return Libc.linkat(AT_FDCWD, cstr(a, proc), AT_FDCWD, cstr(a, to), Libc.AT_SYMLINK_FOLLOW);
        }
    }

    /**
     * {@code chmod(2)}, following a final symbolic link.
     *
     * @param path the path
     * @param mode the new permission bits
     * @return 0, or -errno
     */
    public static int chmod(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return Libc.fchmodat(AT_FDCWD, cstr(a, path), mode, 0);
        }
    }

    /**
     * {@code readlink(2)}.
     *
     * @param path the symbolic link
     * @return its text (at most 4096 bytes)
     * @throws OsException if the call fails
     */
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

    /**
     * The fields of a {@code struct stat} that tests look at.
     *
     * @param mode the file type and permission bits
     * @param ino the inode number
     * @param nlink the number of hard links
     * @param size the size in bytes
     * @param uid the owner
     * @param gid the group
     * @param rdev the device a device file stands for
     * @param atimeSec the access time's seconds since the epoch
     * @param atimeNsec its nanoseconds
     * @param mtimeSec the modification time's seconds since the epoch
     * @param mtimeNsec its nanoseconds
     * @param blocks the space allocated, in 512-byte units
     */
    public record StatResult(int mode, long ino, long nlink, long size, int uid, int gid, long rdev,
                             long atimeSec, long atimeNsec, long mtimeSec, long mtimeNsec, long blocks) {
        static StatResult of(long s) {
            return new StatResult(stat.st_mode(s), stat.st_ino(s), stat.st_nlink(s), stat.st_size(s), stat.st_uid(s), stat.st_gid(s),
                    stat.st_rdev(s), timespec.tv_sec(s + stat.st_atim), timespec.tv_nsec(s + stat.st_atim),
                    timespec.tv_sec(s + stat.st_mtim), timespec.tv_nsec(s + stat.st_mtim), stat.st_blocks(s));
        }
    }

    /**
     * The fields of a {@code struct statvfs} that tests look at.
     *
     * @param bsize the block size, in bytes
     * @param blocks the filesystem's size in blocks
     * @param bfree the free blocks
     * @param bavail the free blocks an unprivileged user may use
     * @param files the number of inodes
     * @param ffree the free inodes
     * @param namemax the longest name, in bytes
     */
    public record StatVfsResult(long bsize, long blocks, long bfree, long bavail, long files, long ffree, long namemax) {}

    /**
     * {@code statvfs(3)} of the filesystem {@code path} is on.
     *
     * @param path any file on it
     * @return the fields tests look at
     * @throws OsException if the call fails
     */
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

    /**
     * The directory's entry names as raw bytes, in the order {@code getdents64(2)} returns them.
     *
     * @param dir the directory
     * @return the names, "." and ".." included
     * @throws OsException if it cannot be opened or read
     */
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
     * One {@code getdents64(2)} on an open directory, from its offset.
     *
     * @param fd the directory's descriptor
     * @param bufferSize the buffer's size in bytes (-EINVAL if not even one entry fits)
     * @return the names it returned, none at the end of the directory
     * @throws OsException if the call fails
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
        /** The errno, positive. */
        public final int errno;

        OsException(String call, int errno) {
            super(call + ": " + Errno.name(errno));
            this.errno = errno;
        }
    }
}
