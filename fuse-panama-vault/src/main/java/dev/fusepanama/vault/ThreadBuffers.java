package dev.fusepanama.vault;

import dev.fusepanama.Stat;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * A libfuse worker thread's memory for one vault, made on the thread's first request and reused,
 * so that nothing on a request's path allocates native memory. The ciphertext and plaintext
 * buffers of reads and writes (2 MiB) are the vault's own: it frees them, wiped, when it closes,
 * since an application mounting vault after vault must not wait for a full garbage collection to
 * get them back, nor leave plaintext behind in freed memory. Paths, names, small structs and
 * getdents batches hold only ciphertext and are the thread's {@link Scratch} (aliased here by
 * name), as for any filesystem.
 */
final class ThreadBuffers {
    /** The largest read or write the kernel sends (its max_pages limit, 256 pages). */
    static final int MAX_IO = 1 << 20;

    /** A path below the cipher directory's top, or a name (NUL-terminated): the thread's {@link Scratch#path}. */
    final MemorySegment path;
    /** A second name, for rename and link. */
    final MemorySegment path2;
    /** {@code struct open_how}, two timespecs, a {@code struct statvfs}, a file header. */
    final MemorySegment small;
    /** A {@code struct stat}, and the view that reads it. */
    final MemorySegment stat;
    final Stat statView;
    /** The thread's getdents64 reader. */
    final Dirents dirents;
    private final Scratch scratch;

    private final Arena arena = Arena.ofShared();
    /** Ciphertext of one request: its blocks, and one block more for an unaligned start. */
    final MemorySegment cipher;
    final ByteBuffer cipherBuffer;
    /** Plaintext of one request, and one block more. */
    final ByteBuffer plain;
    private final MemorySegment plainSegment;
    /** A {@code struct file_handle} and a mount id, for {@link FileKeys}. */
    final MemorySegment handle;
    final MemorySegment mountId;

    /**
     * Leaves the thread's umask as it is: the application's thread that mounts the vault makes
     * some too (to watch the cipher directory), and must keep its own umask; a request's thread
     * gets a umask of 0 from {@link VaultFileSystem}.
     */
    ThreadBuffers() {
        Scratch s = scratch = Scratch.get();
        path = s.path;
        path2 = s.path2;
        small = s.small;
        stat = s.stat();
        statView = Stat.over(stat);
        dirents = s.dirents();
        int blocks = MAX_IO / 4096 + 2;
        cipher = arena.allocate((long) blocks * (4096 + 32), 64);
        cipherBuffer = cipher.asByteBuffer();
        plainSegment = arena.allocate((long) blocks * 4096, 64);
        plain = plainSegment.asByteBuffer();
        handle = arena.allocate(Libc.FILE_HANDLE_SIZE, 8);
        mountId = arena.allocate(ValueLayout.JAVA_INT);
    }

    /** {@code /proc/self/fd/FD}, NUL-terminated ({@link Scratch#procPath}): the file of a descriptor, to a call that takes a path. */
    MemorySegment procPath(int fd) {
        return scratch.procPath(fd);
    }

    /**
     * Zeroes and frees the vault's own memory, once the vault is closed and no request runs;
     * false (and left to the garbage collector) if a thread is in a system call with it.
     */
    boolean free() {
        try {
            cipher.fill((byte) 0);
            plainSegment.fill((byte) 0);
            arena.close();
            return true;
        } catch (IllegalStateException inUse) {
            return false;
        }
    }
}
