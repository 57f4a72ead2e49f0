package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread's native memory for its {@link Libc} calls, made on the thread's first use and reused
 * by every later one, so that a request served by a filesystem's worker allocates no native
 * memory: two paths, a text buffer, small structs, a {@code struct stat}, a
 * {@code getdents64(2)} batch, an attribute list and a read buffer that grows. One thread uses
 * its own only, one call after another; nothing here is shared between threads.
 *
 * <p>The memory lives as long as the thread (an automatic arena: the garbage collector frees it
 * after the thread ended). Memory that must be wiped or freed at a known time, such as a
 * vault's plaintext, is not for here.
 *
 * <p>{@link #worker()} is {@link #get()} for a filesystem's worker threads: on a thread's first
 * call it also gives the thread a umask of 0 of its own ({@link ThreadContext#threadUmask}), as a
 * filesystem that creates files with the modes the kernel sends needs.
 */
public final class Scratch {
    private static final Logger LOG = LoggerFactory.getLogger(Scratch.class);

    /** {@code PATH_MAX}: the longest path a system call takes, NUL included. */
    public static final int PATH_MAX = 4096;
    /** The room of {@link #small}: two timespecs, a {@code struct statvfs} (112), an {@code open_how}, a short header. */
    public static final int SMALL = 256;
    /** Room for one {@code getdents64(2)} batch. */
    public static final int DENTS = 32 * 1024;
    /** {@code XATTR_LIST_MAX}: the longest list {@code listxattr(2)} returns. */
    public static final int XATTR_LIST_MAX = 64 * 1024;

    private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);
    private static final byte[] PROC_FD = "/proc/self/fd/".getBytes(StandardCharsets.US_ASCII);

    private final Arena arena = Arena.ofAuto();
    /** A path or name ({@link #PATH_MAX}), the first operand of a call. */
    public final MemorySegment path = arena.allocate(PATH_MAX);
    /** A second path or name, for rename, link, symlink's target, an attribute's name. */
    public final MemorySegment path2 = arena.allocate(PATH_MAX);
    /** A third: {@code /proc/self/fd/N} ({@link #procPath}), or readlink's answer. */
    public final MemorySegment text = arena.allocate(PATH_MAX + 32);
    /** {@link #SMALL} bytes, 8-aligned, for small structs. */
    public final MemorySegment small = arena.allocate(SMALL, 8);
    private MemorySegment stat;
    private MemorySegment dents;
    private Dirents dirents;
    private MemorySegment xattrList;
    private MemorySegment buffer;
    private ByteBuffer bufferView;
    private boolean ownUmask;

    private Scratch() {}

    /**
     * The calling thread's, made on its first call.
     *
     * @return the calling thread's scratch memory, the same object on every call from this thread
     */
    public static Scratch get() {
        return PER_THREAD.get();
    }

    /**
     * The calling thread's, on a filesystem's worker: the first call on a thread also gives the
     * thread its own filesystem context with a umask of 0 ({@link ThreadContext#threadUmask}), so that
     * files are created with the modes the kernel sent, to which it has applied the caller's
     * umask already. Where that is refused (a seccomp filter), it says so once per thread and
     * the process's umask stays.
     *
     * @return the calling thread's scratch memory, the same object as {@link #get()}
     */
    public static Scratch worker() {
        Scratch s = PER_THREAD.get();
        if (!s.ownUmask) {
            s.ownUmask = true;
            int rc = ThreadContext.threadUmask(0);
            if (rc < 0) {
                LOG.warn("unshare(CLONE_FS) failed on thread {} (errno {}): files it creates get the process's umask applied twice",
                        Thread.currentThread().getName(), -rc);
            }
        }
        return s;
    }

    /** {@return room for one {@code struct stat} of this architecture} ({@link Arch#statSize} bytes, 8-aligned), made on first use. */
    public MemorySegment stat() {
        if (stat == null) {
            stat = arena.allocate(Arch.constants().statSize, 8);
        }
        return stat;
    }

    /** {@return {@link #DENTS} bytes for {@code getdents64(2)}}, 8-aligned, made on first use. */
    public MemorySegment dents() {
        if (dents == null) {
            dents = arena.allocate(DENTS, 8);
        }
        return dents;
    }

    /** {@return a reader of {@link #dents()}}, the same on every call. */
    public Dirents dirents() {
        if (dirents == null) {
            dirents = new Dirents(dents());
        }
        return dirents;
    }

    /** {@return {@link #XATTR_LIST_MAX} bytes, for a {@code listxattr(2)}}, made on first use. */
    public MemorySegment xattrList() {
        if (xattrList == null) {
            xattrList = arena.allocate(XATTR_LIST_MAX);
        }
        return xattrList;
    }

    /**
     * A buffer of at least {@code size} bytes, the same until a larger one is asked for.
     *
     * @param size the bytes needed
     * @return the buffer: at least {@code size} and at least 128 KiB (the kernel's usual read),
     *     16-aligned; when it grows, what the old one held is not copied
     */
    public MemorySegment buffer(long size) {
        if (buffer == null || buffer.byteSize() < size) {
            buffer = arena.allocate(Math.max(size, 128 * 1024), 16);
            bufferView = buffer.asByteBuffer();
        }
        return buffer;
    }

    /**
     * {@return the memory of the last {@link #buffer}, as a cleared {@code ByteBuffer}}. It is the
     * same object until the buffer grows; with no buffer yet, it makes one of 128 KiB.
     */
    public ByteBuffer bufferView() {
        if (bufferView == null) {
            buffer(0);
        }
        return bufferView.clear();
    }

    /**
     * Copies {@code bytes}, NUL-terminated, to the start of {@code into}.
     *
     * @param into the memory to write to, such as {@link #path}
     * @param bytes the string's bytes, without a NUL
     * @return {@code into}, for the call that takes the string
     * @throws IndexOutOfBoundsException if {@code into} has no room for them and the NUL
     */
    public static MemorySegment cString(MemorySegment into, byte[] bytes) {
        MemorySegment.copy(bytes, 0, into, JAVA_BYTE, 0, bytes.length);
        into.set(JAVA_BYTE, bytes.length, (byte) 0);
        return into;
    }

    /**
     * Writes {@code /proc/self/fd/FD} to {@link #text}: how a descriptor's file is named to a call
     * that takes no descriptor.
     *
     * @param fd the descriptor, not negative
     * @return {@link #text}, holding the NUL-terminated path
     */
    public MemorySegment procPath(int fd) {
        MemorySegment t = text;
        int n = 0;
        for (byte c : PROC_FD) {
            t.set(JAVA_BYTE, n++, c);
        }
        int digits = 1;
        for (int v = fd; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = digits - 1, v = fd; i >= 0; i--, v /= 10) {
            t.set(JAVA_BYTE, n + i, (byte) ('0' + v % 10));
        }
        t.set(JAVA_BYTE, n + digits, (byte) 0);
        return t;
    }
}
