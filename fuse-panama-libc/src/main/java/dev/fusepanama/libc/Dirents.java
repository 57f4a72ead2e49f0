package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The records of {@code getdents64(2)}, read one by one from a buffer: {@link #read} fills it
 * with the next batch of a directory, {@link #next} steps to each record in turn, and the
 * accessors read the record it stands on ({@code struct linux_dirent64}: d_ino, d_off, d_reclen,
 * d_type, d_name). One reader per buffer; not for more than one thread.
 *
 * <pre>{@code
 * Dirents d = Scratch.get().dirents();
 * long n;
 * while ((n = d.read(fd)) > 0) {
 *     while (d.next()) use(d.name(), d.ino(), d.type());
 * }
 * if (n < 0) fail(-n);
 * }</pre>
 */
public final class Dirents {
    /** Offsets in a {@code struct linux_dirent64}. */
    private static final long INO = 0;
    private static final long OFF = 8;
    private static final long RECLEN = 16;
    private static final long TYPE = 18;
    private static final long NAME = 19;

    private final MemorySegment buffer;
    private long end;
    private long at;
    private long nextAt;

    /**
     * A reader of batches in {@code buffer}.
     *
     * @param buffer native memory for the batches, 8-aligned, at least a page to hold long names
     *     ({@link Scratch#dents()} is one); the reader is its only user
     */
    public Dirents(MemorySegment buffer) {
        this.buffer = buffer;
    }

    /**
     * Reads the next batch of an open directory, from its file offset, and stands before its first record.
     *
     * @param fd a descriptor of the directory
     * @return the number of bytes read (records to step through with {@link #next}), 0 at the end of
     *     the directory, or {@code -errno} (the batch is then empty)
     */
    public long read(int fd) {
        long n = Libc.getdents64(fd, buffer, buffer.byteSize());
        end = Math.max(n, 0);
        at = -1;
        nextAt = 0;
        return n;
    }

    /**
     * Steps to the next record of the batch.
     *
     * @return whether there is one; false after the last
     */
    public boolean next() {
        if (nextAt >= end) {
            return false;
        }
        at = nextAt;
        nextAt = at + Short.toUnsignedInt(buffer.get(JAVA_SHORT_UNALIGNED, at + RECLEN));
        return true;
    }

    /** {@return the record's inode number ({@code d_ino})} */
    public long ino() {
        return buffer.get(JAVA_LONG_UNALIGNED, at + INO);
    }

    /**
     * {@return the directory offset after this record ({@code d_off})}: to seek to, or to hand the
     * kernel as the next entry's offset. Opaque: a cookie of the filesystem, not a byte count.
     */
    public long offset() {
        return buffer.get(JAVA_LONG_UNALIGNED, at + OFF);
    }

    /** {@return the record's file type ({@code d_type})}: a {@code DT_*} value, {@code DT_UNKNOWN} 0 where the filesystem does not say. */
    public int type() {
        return Byte.toUnsignedInt(buffer.get(JAVA_BYTE, at + TYPE));
    }

    /** {@return the length of the record's name in bytes}, without its NUL. */
    public int nameLength() {
        long end = at + NAME;
        while (buffer.get(JAVA_BYTE, end) != 0) {
            end++;
        }
        return (int) (end - at - NAME);
    }

    /** {@return the record's name as a new array of bytes}, without its NUL. */
    public byte[] name() {
        return buffer.asSlice(at + NAME, nameLength()).toArray(JAVA_BYTE);
    }

    /** {@return whether the record's name is "." or ".."} */
    public boolean isDotOrDotDot() {
        long p = at + NAME;
        return buffer.get(JAVA_BYTE, p) == '.'
                && (buffer.get(JAVA_BYTE, p + 1) == 0 || buffer.get(JAVA_BYTE, p + 1) == '.' && buffer.get(JAVA_BYTE, p + 2) == 0);
    }
}
