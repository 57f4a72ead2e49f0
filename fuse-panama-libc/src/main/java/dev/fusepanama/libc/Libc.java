package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The libc calls, each bound once. See the package documentation for the conventions: a call
 * that can fail returns the C result, or {@code -errno} (captured on the calling thread, never
 * read from a global).
 *
 * <p>Constants and system call numbers are those of Linux on the architectures of {@link Arch}:
 * the few that differ between them come from there; the system calls from 424 on have one number
 * on every architecture.
 */
public final class Libc {
    private Libc() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    /**
     * Each thread's errno capture segment, allocated on its first call that can fail and reused
     * by every later one: a fresh capture segment per call is the cost openjdk PR 23517 measured.
     */
    private static final ThreadLocal<MemorySegment> THREAD_ERRNO =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    public static final int AT_REMOVEDIR = 0x200;
    /** faccessat: check as the effective (and filesystem) user, not the real one; the same bit as AT_REMOVEDIR. */
    public static final int AT_EACCESS = 0x200;
    public static final int AT_EMPTY_PATH = 0x1000;
    /** linkat: follow a last symbolic link (as through /proc/self/fd). */
    public static final int AT_SYMLINK_FOLLOW = 0x400;
    public static final int AT_RECURSIVE = 0x8000;

    /**
     * The flags {@code openat2(2)} accepts ({@code VALID_OPEN_FLAGS}, include/linux/fcntl.h): it
     * rejects others with EINVAL, and the kernel's FUSE open passes some ({@code __FMODE_EXEC} on
     * execve) that a filesystem must not forward.
     */
    public static final int VALID_OPEN_FLAGS = 03 | 0100 | 0200 | 0400 | 01000 | 02000 | 04000 | 04010000
            | 020000 | 040000 | 0100000 | 0200000 | 0400000 | 01000000 | 02000000 | 010000000 | 020000000;

    /** {@code struct open_how} (linux/openat2.h): flags, mode, resolve (3 x u64), and its resolve flags. */
    public static final long OPEN_HOW_SIZE = 24;
    public static final long RESOLVE_NO_MAGICLINKS = 0x02;
    public static final long RESOLVE_NO_SYMLINKS = 0x04;
    public static final long RESOLVE_BENEATH = 0x08;

    /** unshare(2): a private filesystem context (root, working directory, umask) for the thread. */
    public static final int CLONE_FS = 0x200;
    /** unshare(2): a mount namespace of the thread's own (implies {@link #CLONE_FS}). */
    public static final int CLONE_NEWNS = 0x00020000;
    /** umount2(2): detach now, finish when no longer busy. */
    public static final int MNT_DETACH = 2;
    /** mount(2): change the propagation of the whole subtree ({@code MS_REC}) to private ({@code MS_PRIVATE}). */
    public static final long MS_REC = 16384;
    public static final long MS_PRIVATE = 1L << 18;

    /** For glibc before 2.33, whose fstatat, fstat and mknodat are inline wrappers, not symbols. */
    private static final long SYS_NEWFSTATAT = Arch.constants().sysNewfstatat;
    private static final long SYS_FSTAT = Arch.constants().sysFstat;
    private static final long SYS_MKNODAT = Arch.constants().sysMknodat;
    private static final boolean HAS_FSTATAT = has("fstatat");
    private static final boolean HAS_FSTAT = has("fstat");
    private static final boolean HAS_MKNODAT = has("mknodat");
    private static final long SYS_IO_URING_SETUP = 425;
    private static final long SYS_OPENAT2 = 437;
    private static final long SYS_FCHMODAT2 = 452;

    /**
     * The downcall for {@code name}; if this libc lacks it, a handle of the same type that throws
     * {@link UnsatisfiedLinkError} when called, so that one missing function fails its callers
     * only, never the class (the core's own calls need four of them).
     */
    private static MethodHandle bind(String name, FunctionDescriptor fd, Linker.Option... options) {
        return LINKER.defaultLookup().find(name).map(f -> LINKER.downcallHandle(f, fd, options)).orElseGet(() -> {
            MethodType type = fd.toMethodType();
            if (Arrays.asList(options).contains(CAPTURE)) {
                type = type.insertParameterTypes(0, MemorySegment.class);
            }
            MethodHandle thrower = MethodHandles.throwException(type.returnType(), UnsatisfiedLinkError.class)
                    .bindTo(new UnsatisfiedLinkError("this C library has no " + name));
            return MethodHandles.dropArguments(thrower, 0, type.parameterList());
        });
    }

    /** Whether this libc exports {@code name} (glibc before 2.33 has no fstatat, fstat, mknodat symbols). */
    private static boolean has(String name) {
        return LINKER.defaultLookup().find(name).isPresent();
    }

    private static FunctionDescriptor i(MemoryLayout... args) { return FunctionDescriptor.of(JAVA_INT, args); }

    private static FunctionDescriptor l(MemoryLayout... args) { return FunctionDescriptor.of(JAVA_LONG, args); }

    private static final MethodHandle OPENAT = bind("openat", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            CAPTURE, Linker.Option.firstVariadicArg(3));
    private static final MethodHandle SYSCALL4 = bind("syscall", l(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            CAPTURE, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle CLOSE = bind("close", i(JAVA_INT), CAPTURE);
    private static final MethodHandle FSTATAT = bind("fstatat", i(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle FSTAT = bind("fstat", i(JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle STATX = bind("statx", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle WRITE = bind("write", l(JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle READ = bind("read", l(JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle PREAD = bind("pread64", l(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), CAPTURE);
    private static final MethodHandle PWRITE = bind("pwrite64", l(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), CAPTURE);
    private static final MethodHandle RENAMEAT2 = bind("renameat2", i(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle LINKAT = bind("linkat", i(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle SYMLINKAT = bind("symlinkat", i(ADDRESS, JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle READLINKAT = bind("readlinkat", l(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle MKNODAT = bind("mknodat", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), CAPTURE);
    private static final MethodHandle MKDIRAT = bind("mkdirat", i(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle UNLINKAT = bind("unlinkat", i(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle UTIMENSAT = bind("utimensat", i(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle FACCESSAT = bind("faccessat", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FCHMODAT = bind("fchmodat", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FCHMOD = bind("fchmod", i(JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FCHOWNAT = bind("fchownat", i(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FCHOWN = bind("fchown", i(JAVA_INT, JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle TRUNCATE = bind("truncate64", i(ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle FTRUNCATE = bind("ftruncate64", i(JAVA_INT, JAVA_LONG), CAPTURE);
    private static final MethodHandle FALLOCATE = bind("fallocate64", i(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), CAPTURE);
    private static final MethodHandle COPY_FILE_RANGE = bind("copy_file_range",
            l(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE);
    private static final MethodHandle LSEEK = bind("lseek64", l(JAVA_INT, JAVA_LONG, JAVA_INT), CAPTURE);
    private static final MethodHandle FLOCK = bind("flock", i(JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FCNTL = bind("fcntl", i(JAVA_INT, JAVA_INT, ADDRESS), CAPTURE, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle IOCTL = bind("ioctl", i(JAVA_INT, JAVA_LONG, ADDRESS), CAPTURE, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle POLL = bind("poll", i(ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE);
    private static final MethodHandle FSYNC = bind("fsync", i(JAVA_INT), CAPTURE);
    private static final MethodHandle FDATASYNC = bind("fdatasync", i(JAVA_INT), CAPTURE);
    private static final MethodHandle STATVFS = bind("statvfs", i(ADDRESS, ADDRESS), CAPTURE);
    private static final MethodHandle FSTATVFS = bind("fstatvfs", i(JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle GETRLIMIT = bind("getrlimit", i(JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle GETDENTS64 = bind("getdents64", l(JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle GETXATTR = bind("getxattr", l(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle SETXATTR = bind("setxattr", i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE);
    private static final MethodHandle LISTXATTR = bind("listxattr", l(ADDRESS, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle REMOVEXATTR = bind("removexattr", i(ADDRESS, ADDRESS), CAPTURE);
    private static final MethodHandle LGETXATTR = bind("lgetxattr", l(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle LSETXATTR = bind("lsetxattr", i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE);
    private static final MethodHandle LLISTXATTR = bind("llistxattr", l(ADDRESS, ADDRESS, JAVA_LONG), CAPTURE);
    private static final MethodHandle LREMOVEXATTR = bind("lremovexattr", i(ADDRESS, ADDRESS), CAPTURE);
    private static final MethodHandle INOTIFY_INIT1 = bind("inotify_init1", i(JAVA_INT), CAPTURE);
    private static final MethodHandle INOTIFY_ADD_WATCH = bind("inotify_add_watch", i(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle INOTIFY_RM_WATCH = bind("inotify_rm_watch", i(JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FANOTIFY_INIT = bind("fanotify_init", i(JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle FANOTIFY_MARK = bind("fanotify_mark", i(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, ADDRESS), CAPTURE);
    private static final MethodHandle EVENTFD = bind("eventfd", i(JAVA_INT, JAVA_INT), CAPTURE);
    private static final MethodHandle UNSHARE = bind("unshare", i(JAVA_INT), CAPTURE);
    private static final MethodHandle UMOUNT2 = bind("umount2", i(ADDRESS, JAVA_INT), CAPTURE);
    private static final MethodHandle MOUNT = bind("mount", i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS), CAPTURE);
    private static final MethodHandle UMASK = bind("umask", i(JAVA_INT));
    private static final MethodHandle SETFSGID = bind("setfsgid", i(JAVA_INT));
    private static final MethodHandle CLOCK_GETTIME = bind("clock_gettime", i(JAVA_INT, ADDRESS), Linker.Option.critical(true));
    private static final MethodHandle GETEUID = bind("geteuid", i());
    private static final MethodHandle GETEGID = bind("getegid", i());
    private static final MethodHandle MALLOC = bind("malloc", l(JAVA_LONG), Linker.Option.critical(false));
    // Not critical: under memory pressure either may fault or wait on malloc's lock, and a critical
    // call holds up every safepoint while it runs.
    private static final MethodHandle CALLOC = bind("calloc", l(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle FREE = bind("free", FunctionDescriptor.ofVoid(JAVA_LONG));
    private static final MethodHandle VSNPRINTF = bind("vsnprintf", i(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle SETCANCELSTATE = bind("pthread_setcancelstate", i(JAVA_INT, ADDRESS));
    private static final MethodHandle NAME_TO_HANDLE_AT = bind("name_to_handle_at", i(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT),
            CAPTURE);
    private static final MethodHandle OPEN_BY_HANDLE_AT = bind("open_by_handle_at", i(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);

    private static int r(int rc, MemorySegment errno) {
        return rc < 0 ? -(int) ERRNO.get(errno, 0L) : rc;
    }

    private static long r(long rc, MemorySegment errno) {
        return rc < 0 ? -(int) ERRNO.get(errno, 0L) : rc;
    }

    private static RuntimeException broken(Throwable t) {
        if (t instanceof UnsatisfiedLinkError missing) {
            throw missing;
        }
        return new IllegalStateException("libc downcall failed", t);
    }

    public static int openat(int dirfd, MemorySegment path, int flags, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) OPENAT.invokeExact(errno, dirfd, path, flags, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code openat2(2)} (glibc 2.36 has no wrapper); {@code how} is a {@code struct open_how}; -ENOSYS before Linux 5.6. */
    public static int openat2(int dirfd, MemorySegment path, MemorySegment how) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_OPENAT2, (long) dirfd, path.address(), how.address(), OPEN_HOW_SIZE), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /** {@code fchmodat2(2)}, which honours AT_SYMLINK_NOFOLLOW in the kernel; -ENOSYS before Linux 6.6. */
    public static int fchmodat2(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_FCHMODAT2, (long) dirfd, path.address(), (long) mode, (long) flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /** The size of {@code struct io_uring_params} (linux/io_uring.h), which {@link #ioUringSetup} takes. */
    public static final long IO_URING_PARAMS_SIZE = 120;

    /**
     * {@code io_uring_setup(2)} (no libc wrapper): a ring of {@code entries} described by the
     * zeroed {@code struct io_uring_params} at {@code params}; its descriptor, or -EPERM where
     * io_uring is forbidden ({@code kernel.io_uring_disabled}, a seccomp filter), -ENOSYS before Linux 5.1.
     */
    public static int ioUringSetup(int entries, MemorySegment params) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_IO_URING_SETUP, (long) entries, params.address(), 0L, 0L), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    public static final int PTHREAD_CANCEL_ENABLE = 0;
    public static final int PTHREAD_CANCEL_DISABLE = 1;

    /**
     * {@code pthread_setcancelstate(3)} for the calling thread; the previous state is written to
     * the int at {@code old}. Returns 0 or a positive error number.
     */
    public static int pthreadSetcancelstate(int state, MemorySegment old) {
        try { return (int) SETCANCELSTATE.invokeExact(state, old); } catch (Throwable t) { throw broken(t); }
    }

    public static int close(int fd) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) CLOSE.invokeExact(errno, fd), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fstatat(int dirfd, MemorySegment path, MemorySegment stat, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_FSTATAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_NEWFSTATAT, (long) dirfd, path.address(), stat.address(), (long) flags), errno);
            }
            return r((int) FSTATAT.invokeExact(errno, dirfd, path, stat, flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    public static int fstat(int fd, MemorySegment stat) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_FSTAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_FSTAT, (long) fd, stat.address(), 0L, 0L), errno);
            }
            return r((int) FSTAT.invokeExact(errno, fd, stat), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * The most bytes a file handle holds ({@code MAX_HANDLE_SZ}, linux/exportfs.h), and the room a
     * {@code struct file_handle} needs with them: {@code handle_bytes} (u32, set to the room before
     * the call), {@code handle_type} (int), then the handle ({@code f_handle}).
     */
    public static final int MAX_HANDLE_SZ = 128;
    public static final long FILE_HANDLE_SIZE = 8 + MAX_HANDLE_SZ;

    /**
     * {@code name_to_handle_at(2)}: the file handle of {@code path} under {@code dirfd} into
     * {@code handle} (a {@code struct file_handle} of {@link #FILE_HANDLE_SIZE} bytes whose
     * {@code handle_bytes} the caller set to {@link #MAX_HANDLE_SZ}), and the id of its mount into
     * {@code mountId} (an int). The handle names one inode for the filesystem's life: unlike the
     * inode number, it is not given to a new file when the old one is deleted (it carries the
     * inode's generation). -EOPNOTSUPP where the filesystem has none.
     */
    public static int nameToHandleAt(int dirfd, MemorySegment path, MemorySegment handle, MemorySegment mountId, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return r((int) NAME_TO_HANDLE_AT.invokeExact(errno, dirfd, path, handle, mountId, flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code open_by_handle_at(2)}: opens the file {@code handle} names, on the filesystem of
     * {@code mountFd}; needs CAP_DAC_READ_SEARCH (-EPERM without), -ESTALE if the file is gone.
     */
    public static int openByHandleAt(int mountFd, MemorySegment handle, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) OPEN_BY_HANDLE_AT.invokeExact(errno, mountFd, handle, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code sizeof(struct statx)}: the room {@link #statx} fills. */
    public static final long STATX_SIZE = 256;

    /**
     * {@code statx(2)} (glibc 2.28 and later) into the {@code struct statx} at {@code buf}
     * ({@link #STATX_SIZE} bytes): what {@code mask} asks for, and the mask of what the
     * filesystem filled in.
     */
    public static int statx(int dirfd, MemorySegment path, int flags, int mask, MemorySegment buf) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) STATX.invokeExact(errno, dirfd, path, flags, mask, buf), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long write(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) WRITE.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long read(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) READ.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long pread(int fd, MemorySegment buf, long size, long offset) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) PREAD.invokeExact(errno, fd, buf, size, offset), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long pwrite(int fd, MemorySegment buf, long size, long offset) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) PWRITE.invokeExact(errno, fd, buf, size, offset), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int renameat2(int fromDir, MemorySegment from, int toDir, MemorySegment to, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) RENAMEAT2.invokeExact(errno, fromDir, from, toDir, to, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int linkat(int fromDir, MemorySegment from, int toDir, MemorySegment to, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) LINKAT.invokeExact(errno, fromDir, from, toDir, to, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int symlinkat(MemorySegment target, int dirfd, MemorySegment path) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) SYMLINKAT.invokeExact(errno, target, dirfd, path), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long readlinkat(int dirfd, MemorySegment path, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) READLINKAT.invokeExact(errno, dirfd, path, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int mknodat(int dirfd, MemorySegment path, int mode, long dev) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_MKNODAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_MKNODAT, (long) dirfd, path.address(), (long) mode, dev), errno);
            }
            return r((int) MKNODAT.invokeExact(errno, dirfd, path, mode, dev), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    public static int mkdirat(int dirfd, MemorySegment path, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) MKDIRAT.invokeExact(errno, dirfd, path, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int unlinkat(int dirfd, MemorySegment path, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UNLINKAT.invokeExact(errno, dirfd, path, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code utimensat(2)}; with a NULL {@code path} it is {@code futimens(dirfd, times)}. */
    public static int utimensat(int dirfd, MemorySegment path, MemorySegment times, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UTIMENSAT.invokeExact(errno, dirfd, path, times, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int faccessat(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FACCESSAT.invokeExact(errno, dirfd, path, mode, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fchmodat(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHMODAT.invokeExact(errno, dirfd, path, mode, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fchmod(int fd, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHMOD.invokeExact(errno, fd, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fchownat(int dirfd, MemorySegment path, int uid, int gid, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHOWNAT.invokeExact(errno, dirfd, path, uid, gid, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fchown(int fd, int uid, int gid) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHOWN.invokeExact(errno, fd, uid, gid), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int truncate(MemorySegment path, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) TRUNCATE.invokeExact(errno, path, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int ftruncate(int fd, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FTRUNCATE.invokeExact(errno, fd, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fallocate(int fd, int mode, long offset, long length) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FALLOCATE.invokeExact(errno, fd, mode, offset, length), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code copy_file_range(2)}; {@code offIn}/{@code offOut} point to {@code loff_t}s, or are NULL for the file offsets. */
    public static long copyFileRange(int in, MemorySegment offIn, int out, MemorySegment offOut, long len, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) COPY_FILE_RANGE.invokeExact(errno, in, offIn, out, offOut, len, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long lseek(int fd, long offset, int whence) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) LSEEK.invokeExact(errno, fd, offset, whence), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int flock(int fd, int operation) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FLOCK.invokeExact(errno, fd, operation), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code fcntl(2)} with a pointer argument ({@code struct flock *} for the lock commands). */
    public static int fcntl(int fd, int cmd, MemorySegment arg) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCNTL.invokeExact(errno, fd, cmd, arg), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code ioctl(2)} with a pointer argument. */
    public static int ioctl(int fd, long request, MemorySegment arg) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) IOCTL.invokeExact(errno, fd, request, arg), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code poll(2)} over {@code nfds} {@code struct pollfd}s (8 bytes each) at {@code fds}. */
    public static int poll(MemorySegment fds, long nfds, int timeoutMillis) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) POLL.invokeExact(errno, fds, nfds, timeoutMillis), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code fsync(2)}, or {@code fdatasync(2)} when only the data (and the size) must reach the disk. */
    public static int fsync(int fd, boolean dataOnly) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return r(dataOnly ? (int) FDATASYNC.invokeExact(errno, fd) : (int) FSYNC.invokeExact(errno, fd), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    public static int statvfs(MemorySegment path, MemorySegment buf) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) STATVFS.invokeExact(errno, path, buf), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int fstatvfs(int fd, MemorySegment buf) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FSTATVFS.invokeExact(errno, fd, buf), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code RLIMIT_NOFILE} (sys/resource.h): one more than the highest descriptor number a process may open. */
    public static final int RLIMIT_NOFILE = 7;
    /** {@code sizeof(struct rlimit)}: {@code rlim_cur} then {@code rlim_max}, each a {@code rlim_t} (unsigned long). */
    public static final long RLIMIT_SIZE = 16;
    /** {@code RLIM_INFINITY}: no limit. */
    public static final long RLIM_INFINITY = -1L;

    /** {@code getrlimit(2)}: the soft and hard limits of {@code resource} into {@code rlim} ({@link #RLIMIT_SIZE} bytes). */
    public static int getrlimit(int resource, MemorySegment rlim) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) GETRLIMIT.invokeExact(errno, resource, rlim), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code getdents64(2)}: {@code struct linux_dirent64} records, which {@link Dirents} reads. */
    public static long getdents64(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) GETDENTS64.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /*
     * Extended attributes: the plain calls follow a final symbolic link, the l-calls act on the
     * link itself.
     */

    public static long getxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) GETXATTR.invokeExact(errno, path, name, value, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int setxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) SETXATTR.invokeExact(errno, path, name, value, size, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long listxattr(MemorySegment path, MemorySegment list, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) LISTXATTR.invokeExact(errno, path, list, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int removexattr(MemorySegment path, MemorySegment name) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) REMOVEXATTR.invokeExact(errno, path, name), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long lgetxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) LGETXATTR.invokeExact(errno, path, name, value, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int lsetxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) LSETXATTR.invokeExact(errno, path, name, value, size, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static long llistxattr(MemorySegment path, MemorySegment list, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) LLISTXATTR.invokeExact(errno, path, list, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int lremovexattr(MemorySegment path, MemorySegment name) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) LREMOVEXATTR.invokeExact(errno, path, name), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** inotify(7) flags and event bits (linux/inotify.h). */
    public static final int IN_NONBLOCK = 04000;
    public static final int IN_CLOEXEC = 02000000;
    public static final int IN_MODIFY = 0x2;
    public static final int IN_ATTRIB = 0x4;
    public static final int IN_CLOSE_WRITE = 0x8;
    public static final int IN_MOVED_FROM = 0x40;
    public static final int IN_MOVED_TO = 0x80;
    public static final int IN_CREATE = 0x100;
    public static final int IN_DELETE = 0x200;
    public static final int IN_Q_OVERFLOW = 0x4000;
    public static final int IN_IGNORED = 0x8000;
    public static final int IN_ONLYDIR = 0x01000000;
    public static final int IN_EXCL_UNLINK = 0x04000000;
    /** {@code struct inotify_event}: wd, mask, cookie, len (4 x 32 bits), then {@code len} bytes of NUL-padded name. */
    public static final long INOTIFY_EVENT_SIZE = 16;
    /** fanotify(7): fanotify_init flags (linux/fanotify.h). */
    public static final int FAN_CLASS_NOTIF = 0;
    public static final int FAN_CLOEXEC = 0x1;
    public static final int FAN_NONBLOCK = 0x2;
    public static final int FAN_UNLIMITED_QUEUE = 0x10;
    public static final int FAN_REPORT_FID = 0x200;
    public static final int FAN_REPORT_DIR_FID = 0x400;
    public static final int FAN_REPORT_NAME = 0x800;
    /** fanotify_mark flags. */
    public static final int FAN_MARK_ADD = 0x1;
    public static final int FAN_MARK_REMOVE = 0x2;
    public static final int FAN_MARK_DONT_FOLLOW = 0x4;
    public static final int FAN_MARK_ONLYDIR = 0x8;
    public static final int FAN_MARK_INODE = 0;
    public static final int FAN_MARK_FILESYSTEM = 0x100;
    /** fanotify event bits. */
    public static final long FAN_MODIFY = 0x2;
    public static final long FAN_ATTRIB = 0x4;
    public static final long FAN_CLOSE_WRITE = 0x8;
    public static final long FAN_MOVED_FROM = 0x40;
    public static final long FAN_MOVED_TO = 0x80;
    public static final long FAN_CREATE = 0x100;
    public static final long FAN_DELETE = 0x200;
    public static final long FAN_DELETE_SELF = 0x400;
    public static final long FAN_MOVE_SELF = 0x800;
    public static final long FAN_Q_OVERFLOW = 0x4000;
    public static final long FAN_EVENT_ON_CHILD = 0x08000000;
    public static final long FAN_ONDIR = 0x40000000;
    /** {@code struct fanotify_event_metadata}: event_len (u32), vers (u8), reserved (u8), metadata_len (u16), mask (u64), fd (s32), pid (s32). */
    public static final long FANOTIFY_METADATA_SIZE = 24;
    public static final int FANOTIFY_METADATA_VERSION = 3;
    /** Info records after the metadata: {@code struct fanotify_event_info_header} (info_type u8, pad u8, len u16). */
    public static final int FAN_EVENT_INFO_TYPE_FID = 1;
    public static final int FAN_EVENT_INFO_TYPE_DFID_NAME = 2;
    public static final int FAN_EVENT_INFO_TYPE_DFID = 3;
    /**
     * Where the {@code struct file_handle} begins in {@code struct fanotify_event_info_fid}: after
     * the 4-byte header and the 8-byte {@code fsid}; a DFID_NAME record's NUL-terminated name
     * follows the handle.
     */
    public static final long FANOTIFY_INFO_FID_HANDLE = 12;

    /** {@code fanotify_init(2)}: a descriptor, or a negative errno (EPERM unprivileged before Linux 5.13, EINVAL for flags the kernel lacks). */
    public static int fanotifyInit(int flags, int eventFlags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FANOTIFY_INIT.invokeExact(errno, flags, eventFlags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code fanotify_mark(2)}; {@code path} may be {@link MemorySegment#NULL} to mark {@code dirFd} itself. */
    public static int fanotifyMark(int fd, int flags, long mask, int dirFd, MemorySegment path) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FANOTIFY_MARK.invokeExact(errno, fd, flags, mask, dirFd, path), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** eventfd(2) flags. */
    public static final int EFD_CLOEXEC = 02000000;
    public static final int EFD_NONBLOCK = 04000;

    public static int inotifyInit1(int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) INOTIFY_INIT1.invokeExact(errno, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code inotify_add_watch(2)}: the watch descriptor, the same one again for an inode already watched. */
    public static int inotifyAddWatch(int fd, MemorySegment path, int mask) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) INOTIFY_ADD_WATCH.invokeExact(errno, fd, path, mask), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int inotifyRmWatch(int fd, int wd) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) INOTIFY_RM_WATCH.invokeExact(errno, fd, wd), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int eventfd(int initval, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) EVENTFD.invokeExact(errno, initval, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int unshare(int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UNSHARE.invokeExact(errno, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    public static int umount2(MemorySegment path, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UMOUNT2.invokeExact(errno, path, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code mount(2)}; {@link MemorySegment#NULL} for an argument the call leaves out. */
    public static int mount(MemorySegment source, MemorySegment target, MemorySegment type, long flags, MemorySegment data) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) MOUNT.invokeExact(errno, source, target, type, flags, data), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * Gives the calling thread a filesystem context of its own ({@code unshare(CLONE_FS)}: root,
     * working directory, umask) and sets its umask to {@code mask} there, leaving the process's
     * other threads as they were. A filesystem's worker does it once with 0: the kernel has already
     * applied the caller's umask to every mode it sends, and a second mask would take bits away.
     *
     * @return 0, or -errno of the unshare (the umask is then left as it was)
     */
    public static int threadUmask(int mask) {
        int rc = unshare(CLONE_FS);
        if (rc == 0) {
            umask(mask);
        }
        return rc;
    }

    /** {@code umask(2)}: sets this filesystem context's mask, returns the previous one; cannot fail. */
    public static int umask(int mask) {
        try { return (int) UMASK.invokeExact(mask); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code setfsgid(2)}: this thread's group for file access; returns the previous one. */
    public static int setfsgid(int gid) {
        try { return (int) SETFSGID.invokeExact(gid); } catch (Throwable t) { throw broken(t); }
    }

    /** time.h: the realtime clock as of the last tick, the clock the kernel stamps file times from. */
    public static final int CLOCK_REALTIME_COARSE = 5;

    /** One timespec per thread: a filesystem reads the clock on every request, without garbage. */
    private static final ThreadLocal<long[]> TIMESPEC = ThreadLocal.withInitial(() -> new long[2]);

    /**
     * {@code clock_gettime(clock)} in nanoseconds since the epoch (a vDSO call, no system call).
     * {@link #CLOCK_REALTIME_COARSE} is what the kernel's {@code current_time()} reads for the
     * times it sets itself, a tick (1-10 ms) behind the precise clock: a filesystem whose times
     * the kernel also sets (FUSE's writeback cache) keeps their order by stamping from it too.
     */
    public static long clockNanos(int clock) {
        long[] timespec = TIMESPEC.get(); // struct timespec on 64-bit Linux: tv_sec, tv_nsec
        int rc;
        try {
            rc = (int) CLOCK_GETTIME.invokeExact(clock, MemorySegment.ofArray(timespec));
        } catch (Throwable t) {
            throw broken(t);
        }
        if (rc != 0) throw new IllegalArgumentException("clock_gettime: no clock " + clock);
        return timespec[0] * 1_000_000_000L + timespec[1];
    }

    public static int geteuid() {
        try { return (int) GETEUID.invokeExact(); } catch (Throwable t) { throw broken(t); }
    }

    public static int getegid() {
        try { return (int) GETEGID.invokeExact(); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code malloc(3)}, for memory that libfuse will {@code free()} itself; 0 when out of memory. */
    public static long malloc(long size) {
        try { return (long) MALLOC.invokeExact(size); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code calloc(3)}: {@code n * size} zeroed bytes off the Java heap, 0 when out of memory; give them back with {@link #free}. */
    public static long calloc(long n, long size) {
        try { return (long) CALLOC.invokeExact(n, size); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code free(3)} of what {@link #malloc} or {@link #calloc} returned (0 is allowed and does nothing). */
    public static void free(long address) {
        try { FREE.invokeExact(address); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code vsnprintf(3)} with raw addresses: formats a {@code va_list} that native code handed in. */
    public static int vsnprintf(long buffer, long size, long format, long vaList) {
        try { return (int) VSNPRINTF.invokeExact(buffer, size, format, vaList); } catch (Throwable t) { throw broken(t); }
    }
}
