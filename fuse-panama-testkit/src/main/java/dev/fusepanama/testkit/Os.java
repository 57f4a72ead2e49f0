package dev.fusepanama.testkit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.internal.bind.stat;
import dev.fusepanama.internal.bind.statvfs;
import dev.fusepanama.internal.bind.timespec;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plain system calls for tests, through FFM: what a C program would do to a mount, with the raw
 * result. Every call returns its non-negative result or {@code -errno}. Paths are byte arrays
 * (or Strings, encoded as UTF-8), so tests can use names that are not UTF-8.
 */
public final class Os {
    private Os() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ConcurrentHashMap<String, MethodHandle> HANDLES = new ConcurrentHashMap<>();

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;

    /** C functions declared with "...": index of the first variadic argument. */
    private static final java.util.Map<String, Integer> VARIADIC = java.util.Map.of("open", 2, "fcntl", 2, "ioctl", 2);

    private static MethodHandle handle(String name, FunctionDescriptor fd) {
        return HANDLES.computeIfAbsent(name + fd, k -> LINKER.downcallHandle(
                LINKER.defaultLookup().find(name).orElseThrow(() -> new IllegalArgumentException(name)),
                fd, VARIADIC.containsKey(name)
                        ? new Linker.Option[] {Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(VARIADIC.get(name))}
                        : new Linker.Option[] {Linker.Option.captureCallState("errno")}));
    }

    /** Calls {@code name}; result as long, or -errno when the C function returned -1. */
    private static long call(Arena arena, String name, FunctionDescriptor fd, Object... args) {
        MemorySegment capture = arena.allocate(CAPTURE);
        Object[] all = new Object[args.length + 1];
        all[0] = capture;
        System.arraycopy(args, 0, all, 1, args.length);
        try {
            Object r = handle(name, fd).invokeWithArguments(all);
            long rc = r instanceof Integer i ? i : (Long) r;
            return rc == -1 ? -(int) ERRNO.get(capture, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException(name, t);
        }
    }

    private static FunctionDescriptor ints(int n) {
        ValueLayout[] a = new ValueLayout[n];
        Arrays.fill(a, JAVA_INT);
        return FunctionDescriptor.of(JAVA_INT, a);
    }

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

    public static int open(byte[] path, int flags, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), cstr(a, path), flags, mode);
        }
    }

    public static int open(Path path, int flags) { return open(bytes(path), flags, 0644); }

    public static int close(int fd) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "close", ints(1), fd);
        }
    }

    public static long pwrite(int fd, byte[] data, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, data.length));
            MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 0, data.length);
            return call(a, "pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), fd, buf, (long) data.length, offset);
        }
    }

    public static long write(int fd, byte[] data) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, data.length));
            MemorySegment.copy(data, 0, buf, ValueLayout.JAVA_BYTE, 0, data.length);
            return call(a, "write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), fd, buf, (long) data.length);
        }
    }

    /** pread of up to {@code size} bytes; throws {@link OsException} on error. */
    public static byte[] pread(int fd, int size, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, size));
            long n = call(a, "pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), fd, buf, (long) size, offset);
            if (n < 0) {
                throw new OsException("pread", (int) -n);
            }
            return buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    public static long lseek(int fd, long offset, int whence) {
        try (Arena a = Arena.ofConfined()) {
            return call(a, "lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT), fd, offset, whence);
        }
    }

    public static int ftruncate(int fd, long size) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), fd, size);
        }
    }

    public static int fsync(int fd) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "fsync", ints(1), fd);
        }
    }

    public static int fdatasync(int fd) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "fdatasync", ints(1), fd);
        }
    }

    public static int flock(int fd, int op) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "flock", ints(2), fd, op);
        }
    }

    /** fcntl record lock; for F_GETLK returns the lock type found (F_UNLCK if none). */
    public static int fcntlLock(int fd, int cmd, short type, long start, long len) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fl = a.allocate(dev.fusepanama.internal.bind.flock.LAYOUT);
            long addr = fl.address();
            dev.fusepanama.internal.bind.flock.l_type(addr, type);
            dev.fusepanama.internal.bind.flock.l_whence(addr, (short) 0);
            dev.fusepanama.internal.bind.flock.l_start(addr, start);
            dev.fusepanama.internal.bind.flock.l_len(addr, len);
            int rc = (int) call(a, "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), fd, cmd, fl);
            return rc < 0 ? rc : (cmd == 5 ? dev.fusepanama.internal.bind.flock.l_type(addr) : rc);
        }
    }

    public static int fallocate(int fd, int mode, long offset, long len) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "fallocate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), fd, mode, offset, len);
        }
    }

    public static long copyFileRange(int in, long offIn, int out, long offOut, long len) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pin = a.allocateFrom(JAVA_LONG, offIn);
            MemorySegment pout = a.allocateFrom(JAVA_LONG, offOut);
            return call(a, "copy_file_range", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
                    in, pin, out, pout, len, 0);
        }
    }

    /** ioctl with a pointer to {@code arg} (in/out). */
    public static int ioctl(int fd, long cmd, MemorySegment arg) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), fd, cmd, arg);
        }
    }

    /** poll one fd; returns revents, 0 on timeout, or -errno. */
    public static int poll(int fd, short events, int timeoutMillis) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(8, 4);
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, events);
            int rc = (int) call(a, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), pfd, 1L, timeoutMillis);
            return rc <= 0 ? rc : pfd.get(ValueLayout.JAVA_SHORT, 6);
        }
    }

    public static int renameat2(byte[] from, byte[] to, int flags) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "renameat2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT),
                    AT_FDCWD, cstr(a, from), AT_FDCWD, cstr(a, to), flags);
        }
    }

    public static int mknod(byte[] path, int mode, long dev) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "mknod", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), cstr(a, path), mode, dev);
        }
    }

    public static int unlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "unlink", FunctionDescriptor.of(JAVA_INT, ADDRESS), cstr(a, path));
        }
    }

    public static int access(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "access", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), cstr(a, path), mode);
        }
    }

    public static int chown(byte[] path, int uid, int gid) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "chown", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), cstr(a, path), uid, gid);
        }
    }

    public static int truncate(byte[] path, long size) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "truncate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), cstr(a, path), size);
        }
    }

    /** utimensat with explicit nanoseconds (may be UTIME_NOW / UTIME_OMIT). */
    public static int utimens(byte[] path, long aSec, long aNsec, long mSec, long mNsec) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment tv = a.allocate(timespec.LAYOUT.byteSize() * 2, 8);
            timespec.tv_sec(tv.address(), aSec);
            timespec.tv_nsec(tv.address(), aNsec);
            timespec.tv_sec(tv.address() + 16, mSec);
            timespec.tv_nsec(tv.address() + 16, mNsec);
            return (int) call(a, "utimensat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT),
                    AT_FDCWD, cstr(a, path), tv, 0);
        }
    }

    public static int setxattr(byte[] path, String name, byte[] value, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, value.length));
            MemorySegment.copy(value, 0, v, ValueLayout.JAVA_BYTE, 0, value.length);
            return (int) call(a, "setxattr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT),
                    cstr(a, path), a.allocateFrom(name), v, (long) value.length, flags);
        }
    }

    /** getxattr into a buffer of {@code size} bytes; result is -errno, or the value (size 0: length only, as byte[n] of zeros). */
    public static Result getxattr(byte[] path, String name, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = call(a, "getxattr", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG),
                    cstr(a, path), a.allocateFrom(name), size == 0 ? MemorySegment.NULL : v, (long) size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** listxattr into a buffer of {@code size} bytes; size 0 queries the length. */
    public static Result listxattr(byte[] path, int size) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(Math.max(1, size));
            long n = call(a, "listxattr", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG),
                    cstr(a, path), size == 0 ? MemorySegment.NULL : v, (long) size);
            return n < 0 || size == 0 ? new Result(n, null) : new Result(n, v.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    public static int removexattr(byte[] path, String name) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "removexattr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), cstr(a, path), a.allocateFrom(name));
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
            int rc = (int) call(a, "lstat", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), cstr(a, path), st);
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
            int rc = (int) call(a, "fstat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), fd, st);
            if (rc < 0) {
                throw new OsException("fstat", -rc);
            }
            return StatResult.of(st.address());
        }
    }

    public static int mkdir(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "mkdir", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), cstr(a, path), mode);
        }
    }

    public static int rmdir(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "rmdir", FunctionDescriptor.of(JAVA_INT, ADDRESS), cstr(a, path));
        }
    }

    public static int symlink(byte[] target, byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "symlink", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), cstr(a, target), cstr(a, path));
        }
    }

    public static int link(byte[] from, byte[] to) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "link", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), cstr(a, from), cstr(a, to));
        }
    }

    public static int chmod(byte[] path, int mode) {
        try (Arena a = Arena.ofConfined()) {
            return (int) call(a, "chmod", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), cstr(a, path), mode);
        }
    }

    /** readlink: the target bytes, or null with the errno in {@code OsException}. */
    public static byte[] readlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(4096);
            long n = call(a, "readlink", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG), cstr(a, path), buf, 4096L);
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
            int rc = (int) call(a, "statvfs", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), cstr(a, bytes(path)), st);
            if (rc < 0) {
                throw new OsException("statvfs", -rc);
            }
            long s = st.address();
            return new StatVfsResult(statvfs.f_bsize(s), statvfs.f_blocks(s), statvfs.f_bfree(s), statvfs.f_bavail(s),
                    statvfs.f_files(s), statvfs.f_ffree(s), statvfs.f_namemax(s));
        }
    }

    /** The directory's entry names as raw bytes (opendir/readdir). */
    public static List<byte[]> listBytes(Path dir) {
        try (Arena a = Arena.ofConfined()) {
            MethodHandle opendir = LINKER.downcallHandle(LINKER.defaultLookup().find("opendir").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS));
            MethodHandle readdir = LINKER.downcallHandle(LINKER.defaultLookup().find("readdir").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS));
            MethodHandle closedir = LINKER.downcallHandle(LINKER.defaultLookup().find("closedir").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MemorySegment d = (MemorySegment) opendir.invokeExact(cstr(a, bytes(dir)));
            if (d.equals(MemorySegment.NULL)) {
                throw new OsException("opendir", 0);
            }
            List<byte[]> names = new ArrayList<>();
            try {
                while (true) {
                    MemorySegment e = (MemorySegment) readdir.invokeExact(d);
                    if (e.equals(MemorySegment.NULL)) {
                        break;
                    }
                    // struct dirent (x86-64/AArch64 glibc): d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name at 19
                    MemorySegment name = e.reinterpret(19 + 256).asSlice(19);
                    String s = name.getString(0, StandardCharsets.ISO_8859_1);
                    names.add(s.getBytes(StandardCharsets.ISO_8859_1));
                }
            } finally {
                int ignored = (int) closedir.invokeExact(d);
            }
            return names;
        } catch (OsException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A failed call, with its errno. */
    public static final class OsException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public final int errno;

        OsException(String call, int errno) {
            super(call + ": " + dev.fusepanama.Errno.name(errno));
            this.errno = errno;
        }
    }
}
