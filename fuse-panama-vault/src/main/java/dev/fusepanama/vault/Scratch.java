package dev.fusepanama.vault;

import dev.fusepanama.Stat;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The vault's native memory per libfuse worker thread, made on the thread's first request and
 * reused: names and paths for system calls, small structs, a getdents batch, and the ciphertext
 * and plaintext buffers of reads and writes. Nothing on a request's path allocates native memory.
 * Each vault keeps its own ({@link VaultFileSystem}) and frees them, wiped, when it closes: an
 * application mounting vault after vault must not wait for a full garbage collection to get
 * its worker threads' 2 MiB each back, nor leave plaintext behind in freed memory.
 */
final class Scratch {
    /** {@code PATH_MAX}: the longest path a system call takes, NUL included. */
    static final int PATH_MAX = 4096;
    /** The largest read or write the kernel sends (its max_pages limit, 256 pages). */
    static final int MAX_IO = 1 << 20;
    static final int DENTS = 32 * 1024;

    private final Arena arena = Arena.ofShared();
    final MemorySegment errno = Libc.errno();
    /** A path below the cipher directory's top, or a name (NUL-terminated). */
    final MemorySegment path = arena.allocate(PATH_MAX);
    /** A second name, for rename and link. */
    final MemorySegment path2 = arena.allocate(PATH_MAX);
    /** {@code struct open_how}, two timespecs, a {@code struct statvfs}, a file header. */
    final MemorySegment small = arena.allocate(256, 8);
    final MemorySegment dents = arena.allocate(DENTS, 8);
    /** A {@code struct stat} of the vault's own, and the view that reads it. */
    final MemorySegment stat = arena.allocate(Stat.SIZE, 8);
    final Stat statView = Stat.over(stat);
    /** Ciphertext of one request: its blocks, and one block more for an unaligned start. */
    final MemorySegment cipher;
    final ByteBuffer cipherBuffer;
    /** Plaintext of one request, and one block more. */
    final ByteBuffer plain;
    private final MemorySegment plainSegment;

    Scratch() {
        int blocks = MAX_IO / 4096 + 2;
        cipher = arena.allocate((long) blocks * (4096 + 32), 64);
        cipherBuffer = cipher.asByteBuffer();
        plainSegment = arena.allocate((long) blocks * 4096, 64);
        plain = plainSegment.asByteBuffer();
        // Each worker gets its own fs_struct, so its umask can be 0: the kernel has already
        // applied the caller's umask to every mode it sends.
        if (Libc.unshare(errno, Libc.CLONE_FS) == 0) {
            Libc.umask(0);
        }
    }

    /**
     * Zeroes and frees the memory, once the vault is closed and no request runs; false (and
     * left to the garbage collector) if a thread is in a system call with it.
     */
    boolean free() {
        try {
            for (MemorySegment m : new MemorySegment[] {path, path2, small, dents, cipher, plainSegment}) m.fill((byte) 0);
            arena.close();
            return true;
        } catch (IllegalStateException inUse) {
            return false;
        }
    }
}
