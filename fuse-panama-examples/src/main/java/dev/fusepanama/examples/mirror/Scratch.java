package dev.fusepanama.examples.mirror;

import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirror's own native memory per libfuse worker thread, allocated on its first request and
 * reused for every later one: path buffers, small structs, a getdents batch. Nothing on a
 * request's path allocates native memory. (The binding's per-thread memory, the views libfuse's
 * structs are read through, is the core's; errno is captured into the thread's one
 * {@link Libc#errno()} segment that the core and the mirror share.)
 */
final class Scratch {
    private static final Logger LOG = LoggerFactory.getLogger(Scratch.class);

    /** {@code PATH_MAX}: the longest path a system call takes, NUL included. */
    static final int PATH_MAX = 4096;
    /** Room for one {@code getdents64(2)} batch. */
    static final int DENTS = 32 * 1024;
    /** {@code XATTR_LIST_MAX}: the longest list {@code listxattr(2)} returns. */
    static final int XATTR_LIST_MAX = 64 * 1024;

    private static final ThreadLocal<Scratch> PER_THREAD = ThreadLocal.withInitial(Scratch::new);

    private final Arena arena = Arena.ofAuto();
    final MemorySegment errno = Libc.errno();
    /** Names of the first and second operand of a request (rename; an attribute's name; symlink's target). */
    final MemorySegment path = arena.allocate(PATH_MAX);
    final MemorySegment path2 = arena.allocate(PATH_MAX);
    /** {@code /proc/self/fd/N}, and readlink's answer. */
    final MemorySegment text = arena.allocate(PATH_MAX + 32);
    /** Two timespecs, two loff_t, or a {@code struct statvfs} (112 bytes). */
    final MemorySegment small = arena.allocate(128, 8);
    private MemorySegment dents;
    /** A read's answer: a direct buffer, kept and grown, and the same memory as a segment for pread. */
    private java.nio.ByteBuffer readBuffer;
    private MemorySegment readMemory;
    private MemorySegment stat;
    private MemorySegment xattrList;

    private Scratch() {
        // Each worker gets its own fs_struct, so the umask can be 0 for it alone: the kernel has
        // already applied the caller's umask to every mode it sends, and the JVM's other threads
        // keep the process's umask.
        int rc = Libc.unshare(errno, Libc.CLONE_FS);
        if (rc == 0) {
            Libc.umask(0);
        } else {
            LOG.warn("unshare(CLONE_FS) failed ({}): new files get the process umask applied twice", -rc);
        }
    }

    static Scratch get() {
        return PER_THREAD.get();
    }

    /** The read buffer, at least {@code size} bytes (at least 128 KiB, the kernel's usual read), cleared. */
    java.nio.ByteBuffer readBuffer(long size) {
        if (readBuffer == null || readBuffer.capacity() < size) {
            readMemory = arena.allocate(Math.max(size, 128 * 1024), 16);
            readBuffer = readMemory.asByteBuffer();
        }
        return readBuffer.clear();
    }

    /** The memory of {@link #readBuffer}. */
    MemorySegment readMemory() {
        return readMemory;
    }

    /** Room for one {@code struct stat}. */
    MemorySegment stat() {
        if (stat == null) {
            stat = arena.allocate(dev.fusepanama.Stat.SIZE, 8);
        }
        return stat;
    }

    MemorySegment dents() {
        if (dents == null) {
            dents = arena.allocate(DENTS, 8);
        }
        return dents;
    }

    MemorySegment xattrList() {
        if (xattrList == null) {
            xattrList = arena.allocate(XATTR_LIST_MAX);
        }
        return xattrList;
    }
}
