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
 *
 * <p>Paths, names and buffers are native memory the caller owns (a {@link Scratch} of the calling
 * thread, typically); a path is NUL-terminated. A function this C library does not export fails
 * only when it is called, with {@link UnsatisfiedLinkError}; the class itself always loads.
 */
public final class Libc {
    private Libc() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");
    /**
     * Each thread's errno capture segment, allocated on its first call that can fail and reused
     * by every later one: a fresh capture segment per call is the cost openjdk PR 23517 measured.
     */
    static final ThreadLocal<MemorySegment> THREAD_ERRNO =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    /** As a {@code dirfd}: a relative path is taken from the current working directory. */
    public static final int AT_FDCWD = -100;
    /** The *at calls: act on a final symbolic link itself, not on the file it points to. */
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    /** unlinkat: remove a directory, as {@code rmdir(2)} does, instead of a file. */
    public static final int AT_REMOVEDIR = 0x200;
    /** faccessat: check as the effective (and filesystem) user, not the real one; the same bit as AT_REMOVEDIR. */
    public static final int AT_EACCESS = 0x200;
    /** The *at calls: with an empty path, act on {@code dirfd} itself (any file, an {@code O_PATH} descriptor included). */
    public static final int AT_EMPTY_PATH = 0x1000;
    /** linkat: follow a last symbolic link (as through /proc/self/fd). */
    public static final int AT_SYMLINK_FOLLOW = 0x400;
    /** {@code open_tree(2)}, {@code mount_setattr(2)}: the whole subtree of mounts. */
    public static final int AT_RECURSIVE = 0x8000;

    /**
     * The flags {@code openat2(2)} accepts ({@code VALID_OPEN_FLAGS}, include/linux/fcntl.h): it
     * rejects others with EINVAL, and the kernel's FUSE open passes some ({@code __FMODE_EXEC} on
     * execve) that a filesystem must not forward.
     */
    public static final int VALID_OPEN_FLAGS = 03 | 0100 | 0200 | 0400 | 01000 | 02000 | 04000 | 04010000
            | 020000 | 040000 | 0100000 | 0200000 | 0400000 | 01000000 | 02000000 | 010000000 | 020000000;

    /** {@code sizeof(struct open_how)} (linux/openat2.h): flags, mode, resolve, three u64s in that order. */
    public static final long OPEN_HOW_SIZE = 24;
    /** openat2's resolve: refuse to follow a magic link such as {@code /proc/self/fd/N} (-ELOOP). */
    public static final long RESOLVE_NO_MAGICLINKS = 0x02;
    /** openat2's resolve: refuse to follow any symbolic link on the way, the last one included (-ELOOP). */
    public static final long RESOLVE_NO_SYMLINKS = 0x04;
    /**
     * openat2's resolve: refuse a path that leads out of {@code dirfd} (an absolute path, a
     * {@code ..} or a symbolic link above it: -EXDEV).
     */
    public static final long RESOLVE_BENEATH = 0x08;

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
    static MethodHandle bind(String name, FunctionDescriptor fd, Linker.Option... options) {
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

    static FunctionDescriptor i(MemoryLayout... args) { return FunctionDescriptor.of(JAVA_INT, args); }

    static FunctionDescriptor l(MemoryLayout... args) { return FunctionDescriptor.of(JAVA_LONG, args); }

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
    private static final MethodHandle CLOCK_GETTIME = bind("clock_gettime", i(JAVA_INT, ADDRESS), Linker.Option.critical(true));
    private static final MethodHandle GETEUID = bind("geteuid", i());
    private static final MethodHandle GETEGID = bind("getegid", i());
    private static final MethodHandle SETCANCELSTATE = bind("pthread_setcancelstate", i(JAVA_INT, ADDRESS));
    private static final MethodHandle NAME_TO_HANDLE_AT = bind("name_to_handle_at", i(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT),
            CAPTURE);
    private static final MethodHandle OPEN_BY_HANDLE_AT = bind("open_by_handle_at", i(JAVA_INT, ADDRESS, JAVA_INT), CAPTURE);

    static int r(int rc, MemorySegment errno) {
        return rc < 0 ? -(int) ERRNO.get(errno, 0L) : rc;
    }

    static long r(long rc, MemorySegment errno) {
        return rc < 0 ? -(int) ERRNO.get(errno, 0L) : rc;
    }

    static RuntimeException broken(Throwable t) {
        if (t instanceof UnsatisfiedLinkError missing) {
            throw missing;
        }
        return new IllegalStateException("libc downcall failed", t);
    }

    /**
     * {@code openat(2)}: opens {@code path}, creating it with {@code O_CREAT}.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param flags the {@code O_*} flags (those that differ between architectures from {@link Arch})
     * @param mode the permission bits of a file it creates ({@code O_CREAT}, {@code O_TMPFILE}), before the umask
     * @return the new descriptor, or -errno
     */
    public static int openat(int dirfd, MemorySegment path, int flags, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) OPENAT.invokeExact(errno, dirfd, path, flags, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code openat2(2)} (glibc 2.36 has no wrapper): {@code openat(2)} with resolve flags, which
     * rejects unknown flags instead of ignoring them.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param how a {@code struct open_how} of {@link #OPEN_HOW_SIZE} bytes: flags (only
     *     {@link #VALID_OPEN_FLAGS}), mode, and the {@code RESOLVE_*} flags
     * @return the new descriptor, or -errno: -ENOSYS before Linux 5.6, -EINVAL for a flag outside
     *     {@link #VALID_OPEN_FLAGS}
     */
    public static int openat2(int dirfd, MemorySegment path, MemorySegment how) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_OPENAT2, (long) dirfd, path.address(), how.address(), OPEN_HOW_SIZE), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fchmodat2(2)}, which honours {@link #AT_SYMLINK_NOFOLLOW} in the kernel (glibc's
     * {@link #fchmodat} emulates it, and refuses a symbolic link).
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param mode the new permission bits (07777)
     * @param flags {@link #AT_SYMLINK_NOFOLLOW}, {@link #AT_EMPTY_PATH}, or 0
     * @return 0, or -errno: -ENOSYS before Linux 6.6
     */
    public static int fchmodat2(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_FCHMODAT2, (long) dirfd, path.address(), (long) mode, (long) flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /** The size of {@code struct io_uring_params} (linux/io_uring.h), which {@link #ioUringSetup} takes. */
    public static final long IO_URING_PARAMS_SIZE = 120;

    /**
     * {@code io_uring_setup(2)} (no libc wrapper): a new io_uring.
     *
     * @param entries the number of submission queue entries (the kernel rounds it up to a power of two)
     * @param params a zeroed {@code struct io_uring_params} of {@link #IO_URING_PARAMS_SIZE} bytes,
     *     flags set as wanted; the kernel fills in the rest (the rings' sizes and offsets)
     * @return the ring's descriptor, or -errno: -EPERM where io_uring is forbidden
     *     ({@code kernel.io_uring_disabled}, a seccomp filter), -ENOSYS before Linux 5.1
     */
    public static int ioUringSetup(int entries, MemorySegment params) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return (int) r((long) SYSCALL4.invokeExact(errno, SYS_IO_URING_SETUP, (long) entries, params.address(), 0L, 0L), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /** {@link #pthreadSetcancelstate}: a cancellation request acts at the thread's next cancellation point. */
    public static final int PTHREAD_CANCEL_ENABLE = 0;
    /** {@link #pthreadSetcancelstate}: a cancellation request waits until cancellation is enabled again. */
    public static final int PTHREAD_CANCEL_DISABLE = 1;

    /**
     * {@code pthread_setcancelstate(3)} for the calling thread.
     *
     * @param state {@link #PTHREAD_CANCEL_ENABLE} or {@link #PTHREAD_CANCEL_DISABLE}
     * @param old an int the previous state is written to
     * @return 0, or a positive error number (this call does not use errno)
     */
    public static int pthreadSetcancelstate(int state, MemorySegment old) {
        try { return (int) SETCANCELSTATE.invokeExact(state, old); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code close(2)}. The descriptor is released even when it fails (with -EINTR or -EIO, say): do
     * not close it again.
     *
     * @param fd the descriptor
     * @return 0, or -errno
     */
    public static int close(int fd) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) CLOSE.invokeExact(errno, fd), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fstatat(2)}: the attributes of {@code path} into a {@code struct stat}, which
     * {@link dev.fusepanama.libc.structs.stat} reads. On glibc before 2.33 it is made as the system call.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param stat room for a {@code struct stat}: {@link Arch#statSize} bytes ({@link Scratch#stat()})
     * @param flags {@link #AT_SYMLINK_NOFOLLOW}, {@link #AT_EMPTY_PATH}, or 0
     * @return 0, or -errno
     */
    public static int fstatat(int dirfd, MemorySegment path, MemorySegment stat, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_FSTATAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_NEWFSTATAT, (long) dirfd, path.address(), stat.address(), (long) flags), errno);
            }
            return r((int) FSTATAT.invokeExact(errno, dirfd, path, stat, flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fstat(2)}: the attributes of the open file {@code fd} into a {@code struct stat}, which
     * {@link dev.fusepanama.libc.structs.stat} reads. On glibc before 2.33 it is made as the system call.
     *
     * @param fd the descriptor
     * @param stat room for a {@code struct stat}: {@link Arch#statSize} bytes ({@link Scratch#stat()})
     * @return 0, or -errno
     */
    public static int fstat(int fd, MemorySegment stat) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_FSTAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_FSTAT, (long) fd, stat.address(), 0L, 0L), errno);
            }
            return r((int) FSTAT.invokeExact(errno, fd, stat), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /** {@code MAX_HANDLE_SZ} (linux/exportfs.h): the most bytes a file handle holds. */
    public static final int MAX_HANDLE_SZ = 128;
    /**
     * The room a {@code struct file_handle} needs with {@link #MAX_HANDLE_SZ} bytes of handle:
     * {@code handle_bytes} (u32, set to the room before the call), {@code handle_type} (int), then the
     * handle ({@code f_handle}).
     */
    public static final long FILE_HANDLE_SIZE = 8 + MAX_HANDLE_SZ;

    /**
     * {@code name_to_handle_at(2)}: the file handle of {@code path}. The handle names one inode for
     * the filesystem's life: unlike the inode number, it is not given to a new file when the old one
     * is deleted (it carries the inode's generation).
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param handle a {@code struct file_handle} of {@link #FILE_HANDLE_SIZE} bytes whose
     *     {@code handle_bytes} the caller set to {@link #MAX_HANDLE_SZ}; the handle is written there
     * @param mountId an int the id of the file's mount is written to
     * @param flags {@link #AT_SYMLINK_FOLLOW}, {@link #AT_EMPTY_PATH}, or 0
     * @return 0, or -errno: -EOPNOTSUPP where the filesystem has no handles
     */
    public static int nameToHandleAt(int dirfd, MemorySegment path, MemorySegment handle, MemorySegment mountId, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return r((int) NAME_TO_HANDLE_AT.invokeExact(errno, dirfd, path, handle, mountId, flags), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code open_by_handle_at(2)}: opens the file {@code handle} names.
     *
     * @param mountFd any descriptor on the filesystem the handle is of
     * @param handle a {@code struct file_handle} that {@link #nameToHandleAt} filled
     * @param flags the {@code O_*} flags, as for {@link #openat}
     * @return the new descriptor, or -errno: -EPERM without CAP_DAC_READ_SEARCH, -ESTALE if the file is gone
     */
    public static int openByHandleAt(int mountFd, MemorySegment handle, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) OPEN_BY_HANDLE_AT.invokeExact(errno, mountFd, handle, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /** {@code sizeof(struct statx)}: the room {@link #statx} fills. */
    public static final long STATX_SIZE = 256;

    /**
     * {@code statx(2)} (glibc 2.28 and later): the attributes {@code mask} asks for into a
     * {@code struct statx}, which {@link dev.fusepanama.libc.structs.statx} reads; its
     * {@code stx_mask} says which of them the filesystem filled in.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param flags {@link #AT_SYMLINK_NOFOLLOW}, {@link #AT_EMPTY_PATH}, an {@code AT_STATX_*} sync flag, or 0
     * @param mask the {@code STATX_*} bits of the attributes wanted
     * @param buf room for a {@code struct statx}: {@link #STATX_SIZE} bytes
     * @return 0, or -errno
     */
    public static int statx(int dirfd, MemorySegment path, int flags, int mask, MemorySegment buf) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) STATX.invokeExact(errno, dirfd, path, flags, mask, buf), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code write(2)} at the file offset, which it advances.
     *
     * @param fd the descriptor
     * @param buf the bytes
     * @param size how many of them
     * @return the number of bytes written (possibly fewer than {@code size}), or -errno
     */
    public static long write(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) WRITE.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code read(2)} at the file offset, which it advances.
     *
     * @param fd the descriptor
     * @param buf where the bytes go
     * @param size the most bytes to read
     * @return the number of bytes read (possibly fewer than {@code size}), 0 at the end of the file, or -errno
     */
    public static long read(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) READ.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code pread(2)}: reads at {@code offset}, leaving the file offset as it is.
     *
     * @param fd the descriptor
     * @param buf where the bytes go
     * @param size the most bytes to read
     * @param offset where in the file, in bytes
     * @return the number of bytes read (possibly fewer than {@code size}), 0 at or past the end, or -errno
     */
    public static long pread(int fd, MemorySegment buf, long size, long offset) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) PREAD.invokeExact(errno, fd, buf, size, offset), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code pwrite(2)}: writes at {@code offset}, leaving the file offset as it is (Linux appends
     * anyway on an {@code O_APPEND} descriptor).
     *
     * @param fd the descriptor
     * @param buf the bytes
     * @param size how many of them
     * @param offset where in the file, in bytes
     * @return the number of bytes written (possibly fewer than {@code size}), or -errno
     */
    public static long pwrite(int fd, MemorySegment buf, long size, long offset) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) PWRITE.invokeExact(errno, fd, buf, size, offset), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code renameat2(2)}: renames {@code from} to {@code to}.
     *
     * @param fromDir the directory a relative {@code from} is taken from, or {@link #AT_FDCWD}
     * @param from the NUL-terminated old path
     * @param toDir the directory a relative {@code to} is taken from, or {@link #AT_FDCWD}
     * @param to the NUL-terminated new path
     * @param flags {@code RENAME_NOREPLACE} (1), {@code RENAME_EXCHANGE} (2), {@code RENAME_WHITEOUT} (4), or 0
     * @return 0, or -errno: -EINVAL where the filesystem does not support a flag
     */
    public static int renameat2(int fromDir, MemorySegment from, int toDir, MemorySegment to, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) RENAMEAT2.invokeExact(errno, fromDir, from, toDir, to, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code linkat(2)}: a new name {@code to} for the file {@code from}.
     *
     * @param fromDir the directory a relative {@code from} is taken from, or {@link #AT_FDCWD}
     * @param from the NUL-terminated path of the file
     * @param toDir the directory a relative {@code to} is taken from, or {@link #AT_FDCWD}
     * @param to the NUL-terminated new path
     * @param flags {@link #AT_SYMLINK_FOLLOW}, {@link #AT_EMPTY_PATH}, or 0
     * @return 0, or -errno
     */
    public static int linkat(int fromDir, MemorySegment from, int toDir, MemorySegment to, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) LINKAT.invokeExact(errno, fromDir, from, toDir, to, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code symlinkat(2)}: a symbolic link at {@code path} that holds {@code target}.
     *
     * @param target the NUL-terminated text of the link, not resolved
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path of the new link
     * @return 0, or -errno
     */
    public static int symlinkat(MemorySegment target, int dirfd, MemorySegment path) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) SYMLINKAT.invokeExact(errno, target, dirfd, path), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code readlinkat(2)}: the text of the symbolic link {@code path}, not NUL-terminated.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path (empty, with an {@code O_PATH} {@code dirfd}, for the link itself)
     * @param buf where the text goes
     * @param size the room there; a text of {@code size} bytes may have been cut off
     * @return the number of bytes placed in {@code buf}, or -errno
     */
    public static long readlinkat(int dirfd, MemorySegment path, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) READLINKAT.invokeExact(errno, dirfd, path, buf, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code mknodat(2)}: a regular file, device, FIFO or socket at {@code path}. On glibc before 2.33
     * it is made as the system call.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param mode the file type ({@code S_IF*}) and permission bits, before the umask
     * @param dev the device number of a character or block device, else ignored
     * @return 0, or -errno
     */
    public static int mknodat(int dirfd, MemorySegment path, int mode, long dev) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            if (!HAS_MKNODAT) {
                return (int) r((long) SYSCALL4.invokeExact(errno, SYS_MKNODAT, (long) dirfd, path.address(), (long) mode, dev), errno);
            }
            return r((int) MKNODAT.invokeExact(errno, dirfd, path, mode, dev), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code mkdirat(2)}.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path of the new directory
     * @param mode its permission bits, before the umask
     * @return 0, or -errno
     */
    public static int mkdirat(int dirfd, MemorySegment path, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) MKDIRAT.invokeExact(errno, dirfd, path, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code unlinkat(2)}: removes a name, or with {@link #AT_REMOVEDIR} an empty directory.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param flags {@link #AT_REMOVEDIR} or 0
     * @return 0, or -errno
     */
    public static int unlinkat(int dirfd, MemorySegment path, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UNLINKAT.invokeExact(errno, dirfd, path, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code utimensat(2)}: sets the access and modification times; with a NULL {@code path} it is
     * {@code futimens(dirfd, times)}.
     *
     * @param dirfd the directory a relative {@code path} is taken from, {@link #AT_FDCWD}, or the file itself
     * @param path the NUL-terminated path, or {@link MemorySegment#NULL}
     * @param times two {@code struct timespec} (access, then modification; {@code UTIME_NOW} or
     *     {@code UTIME_OMIT} in {@code tv_nsec}), or {@link MemorySegment#NULL} for now
     * @param flags {@link #AT_SYMLINK_NOFOLLOW} or 0
     * @return 0, or -errno
     */
    public static int utimensat(int dirfd, MemorySegment path, MemorySegment times, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) UTIMENSAT.invokeExact(errno, dirfd, path, times, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code faccessat(2)}: whether the caller may access {@code path} as {@code mode} asks.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param mode {@code F_OK} (0), or any of {@code R_OK} (4), {@code W_OK} (2), {@code X_OK} (1)
     * @param flags {@link #AT_EACCESS}, {@link #AT_SYMLINK_NOFOLLOW}, or 0
     * @return 0 if allowed, or -errno (-EACCES if not)
     */
    public static int faccessat(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FACCESSAT.invokeExact(errno, dirfd, path, mode, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fchmodat(2)}. glibc emulates {@link #AT_SYMLINK_NOFOLLOW} and refuses it on a symbolic
     * link (-EOPNOTSUPP); {@link #fchmodat2} does it in the kernel.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param mode the new permission bits (07777)
     * @param flags {@link #AT_SYMLINK_NOFOLLOW} or 0
     * @return 0, or -errno
     */
    public static int fchmodat(int dirfd, MemorySegment path, int mode, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHMODAT.invokeExact(errno, dirfd, path, mode, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fchmod(2)}.
     *
     * @param fd the descriptor
     * @param mode the new permission bits (07777)
     * @return 0, or -errno
     */
    public static int fchmod(int fd, int mode) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHMOD.invokeExact(errno, fd, mode), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fchownat(2)}.
     *
     * @param dirfd the directory a relative {@code path} is taken from, or {@link #AT_FDCWD}
     * @param path the NUL-terminated path
     * @param uid the new owner, or -1 to keep it
     * @param gid the new group, or -1 to keep it
     * @param flags {@link #AT_SYMLINK_NOFOLLOW}, {@link #AT_EMPTY_PATH}, or 0
     * @return 0, or -errno
     */
    public static int fchownat(int dirfd, MemorySegment path, int uid, int gid, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHOWNAT.invokeExact(errno, dirfd, path, uid, gid, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fchown(2)}.
     *
     * @param fd the descriptor
     * @param uid the new owner, or -1 to keep it
     * @param gid the new group, or -1 to keep it
     * @return 0, or -errno
     */
    public static int fchown(int fd, int uid, int gid) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCHOWN.invokeExact(errno, fd, uid, gid), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code truncate(2)}: cuts the file at {@code path} to {@code size} bytes, or extends it with zeros.
     *
     * @param path the NUL-terminated path (a symbolic link is followed)
     * @param size the new size in bytes
     * @return 0, or -errno
     */
    public static int truncate(MemorySegment path, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) TRUNCATE.invokeExact(errno, path, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code ftruncate(2)}: cuts the open file to {@code size} bytes, or extends it with zeros.
     *
     * @param fd a descriptor open for writing
     * @param size the new size in bytes
     * @return 0, or -errno
     */
    public static int ftruncate(int fd, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FTRUNCATE.invokeExact(errno, fd, size), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fallocate(2)}: allocates (or with {@code mode}'s flags punches, zeroes, collapses) a range.
     *
     * @param fd a descriptor open for writing
     * @param mode 0 (allocate, extending the size), or {@code FALLOC_FL_*} flags such as
     *     {@code KEEP_SIZE} (1) and {@code PUNCH_HOLE} (2)
     * @param offset where the range starts, in bytes
     * @param length its length in bytes
     * @return 0, or -errno: -EOPNOTSUPP where the filesystem does not support {@code mode}
     */
    public static int fallocate(int fd, int mode, long offset, long length) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FALLOCATE.invokeExact(errno, fd, mode, offset, length), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code copy_file_range(2)}: copies bytes between two files in the kernel.
     *
     * @param in the descriptor copied from
     * @param offIn a {@code loff_t} with the offset to read at, which the call advances, or
     *     {@link MemorySegment#NULL} for {@code in}'s file offset
     * @param out the descriptor copied to
     * @param offOut as {@code offIn}, for {@code out}
     * @param len the most bytes to copy
     * @param flags 0
     * @return the number of bytes copied, 0 at the end of {@code in}, or -errno
     */
    public static long copyFileRange(int in, MemorySegment offIn, int out, MemorySegment offOut, long len, int flags) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) COPY_FILE_RANGE.invokeExact(errno, in, offIn, out, offOut, len, flags), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code lseek(2)}: moves the file offset, or finds data and holes.
     *
     * @param fd the descriptor
     * @param offset the offset in bytes, counted from where {@code whence} says
     * @param whence {@code SEEK_SET} (0), {@code SEEK_CUR} (1), {@code SEEK_END} (2), {@code SEEK_DATA} (3), {@code SEEK_HOLE} (4)
     * @return the resulting offset from the start of the file, or -errno (-ENXIO past the last data for {@code SEEK_DATA})
     */
    public static long lseek(int fd, long offset, int whence) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) LSEEK.invokeExact(errno, fd, offset, whence), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code flock(2)}: a whole-file lock, held by the open file description.
     *
     * @param fd the descriptor
     * @param operation {@code LOCK_SH} (1), {@code LOCK_EX} (2) or {@code LOCK_UN} (8), with {@code LOCK_NB} (4) not to wait
     * @return 0, or -errno (-EWOULDBLOCK for a lock held elsewhere with {@code LOCK_NB})
     */
    public static int flock(int fd, int operation) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FLOCK.invokeExact(errno, fd, operation), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fcntl(2)} with a pointer argument ({@code struct flock *} for the lock commands, which
     * {@link dev.fusepanama.libc.structs.flock} reads and writes).
     *
     * @param fd the descriptor
     * @param cmd the command, such as {@code F_GETLK}, {@code F_SETLK}, {@code F_OFD_SETLKW}
     * @param arg the command's argument
     * @return what the command returns (0 for the lock commands), or -errno
     */
    public static int fcntl(int fd, int cmd, MemorySegment arg) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) FCNTL.invokeExact(errno, fd, cmd, arg), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code ioctl(2)} with a pointer argument.
     *
     * @param fd the descriptor
     * @param request the request number ({@code _IOR}/{@code _IOW} encode the argument's size and direction)
     * @param arg the argument
     * @return what the request returns (usually 0), or -errno (-ENOTTY where the file does not know the request)
     */
    public static int ioctl(int fd, long request, MemorySegment arg) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) IOCTL.invokeExact(errno, fd, request, arg), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code poll(2)}: waits until one of the descriptors is ready; each {@code revents} tells what it is ready for.
     *
     * @param fds {@code nfds} {@code struct pollfd}s (fd, events, revents: 8 bytes each)
     * @param nfds how many
     * @param timeoutMillis the longest wait in milliseconds, -1 for no limit, 0 not to wait
     * @return the number of ready descriptors, 0 on timeout, or -errno (-EINTR for a signal)
     */
    public static int poll(MemorySegment fds, long nfds, int timeoutMillis) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) POLL.invokeExact(errno, fds, nfds, timeoutMillis), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fsync(2)}, or {@code fdatasync(2)} when only the data (and the size) must reach the disk.
     *
     * @param fd the descriptor
     * @param dataOnly whether {@code fdatasync(2)}: the data, not the metadata the data does not need
     * @return 0, or -errno
     */
    public static int fsync(int fd, boolean dataOnly) {
        MemorySegment errno = THREAD_ERRNO.get();
        try {
            return r(dataOnly ? (int) FDATASYNC.invokeExact(errno, fd) : (int) FSYNC.invokeExact(errno, fd), errno);
        } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code statvfs(3)}: the state of the filesystem {@code path} is on, into a
     * {@code struct statvfs} ({@link dev.fusepanama.libc.structs.statvfs}).
     *
     * @param path the NUL-terminated path of any file on it
     * @param buf room for a {@code struct statvfs}
     * @return 0, or -errno
     */
    public static int statvfs(MemorySegment path, MemorySegment buf) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) STATVFS.invokeExact(errno, path, buf), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code fstatvfs(3)}: the state of the filesystem the open file {@code fd} is on, into a
     * {@code struct statvfs} ({@link dev.fusepanama.libc.structs.statvfs}).
     *
     * @param fd the descriptor
     * @param buf room for a {@code struct statvfs}
     * @return 0, or -errno
     */
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

    /**
     * {@code getrlimit(2)}: the soft and hard limits of {@code resource}.
     *
     * @param resource the {@code RLIMIT_*} resource, such as {@link #RLIMIT_NOFILE}
     * @param rlim room for a {@code struct rlimit} ({@link #RLIMIT_SIZE} bytes)
     * @return 0, or -errno
     */
    public static int getrlimit(int resource, MemorySegment rlim) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((int) GETRLIMIT.invokeExact(errno, resource, rlim), errno); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code getdents64(2)}: the next {@code struct linux_dirent64} records of a directory, which
     * {@link Dirents} reads.
     *
     * @param fd a descriptor of the directory, its offset where the last call left it
     * @param buf where the records go, 8-aligned
     * @param size the room there (-EINVAL if not even one record fits)
     * @return the number of bytes filled, 0 at the end of the directory, or -errno
     */
    public static long getdents64(int fd, MemorySegment buf, long size) {
        MemorySegment errno = THREAD_ERRNO.get();
        try { return r((long) GETDENTS64.invokeExact(errno, fd, buf, size), errno); } catch (Throwable t) { throw broken(t); }
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
     *
     * @param clock the {@code CLOCK_*} clock, such as {@link #CLOCK_REALTIME_COARSE}
     * @return its time in nanoseconds
     * @throws IllegalArgumentException for a clock this kernel does not have
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

    /**
     * {@code geteuid(2)}; cannot fail.
     *
     * @return the process's effective user id
     */
    public static int geteuid() {
        try { return (int) GETEUID.invokeExact(); } catch (Throwable t) { throw broken(t); }
    }

    /**
     * {@code getegid(2)}; cannot fail.
     *
     * @return the process's effective group id
     */
    public static int getegid() {
        try { return (int) GETEGID.invokeExact(); } catch (Throwable t) { throw broken(t); }
    }

}
