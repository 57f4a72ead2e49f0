package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code struct fuse_dirent} of the kernel's FUSE protocol (linux/fuse.h): one entry of a READDIR
 * answer, {@code ino}, {@code off}, {@code namelen}, {@code type} and the name, padded to 8 bytes.
 * It is the wire format, the same in every kernel and libfuse release and on every architecture,
 * and what {@code fuse_add_direntry} writes; packing it here saves a native call per entry of a
 * large listing. A test compares the bytes with libfuse's own for every length of name.
 */
public final class fuse_dirent {
    private fuse_dirent() {}

    /** {@code FUSE_NAME_OFFSET}: where the name starts. */
    public static final int NAME_OFFSET = 24;

    /** {@code FUSE_DIRENT_SIZE}: the bytes an entry with a name of {@code nameLength} bytes takes. */
    public static long size(int nameLength) {
        return (NAME_OFFSET + nameLength + 7L) & ~7L;
    }

    /**
     * Writes the entry at {@code at} (which has room for {@link #size}): the type is the
     * {@code S_IFMT} bits of {@code mode}, as {@code fuse_add_direntry} takes them from a stat.
     */
    public static void put(long at, long ino, long nextOffset, byte[] name, int mode) {
        ALL.set(C_LONG, at, ino);
        ALL.set(C_LONG, at + 8, nextOffset);
        ALL.set(C_INT, at + 16, name.length);
        ALL.set(C_INT, at + 20, (mode & 0170000) >>> 12);
        // The padding is zero: clear the entry's last 8 bytes (its name ends in them), then copy the name over them.
        ALL.set(C_LONG, at + size(name.length) - 8, 0L);
        MemorySegment.copy(name, 0, ALL, ValueLayout.JAVA_BYTE, at + NAME_OFFSET, name.length);
    }
}
