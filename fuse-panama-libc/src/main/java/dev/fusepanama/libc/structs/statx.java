package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * {@code struct statx} (linux/stat.h, glibc's sys/stat.h): the same on every architecture, 256
 * bytes, of which the fields up to {@code stx_dio_offset_align} are mapped (the rest are later
 * kernels' additions and spare room, left zero). Its timestamps are {@code struct
 * statx_timestamp}: 64-bit seconds, 32-bit nanoseconds and 32 reserved bits.
 */
public final class statx {
    private statx() {}

    private static final StructLayout TIMESTAMP = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"), JAVA_INT.withName("tv_nsec"), JAVA_INT.withName("__reserved")).withName("statx_timestamp");

    /** The layout of {@code struct statx}: 256 bytes on every architecture. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_INT.withName("stx_mask"),
            JAVA_INT.withName("stx_blksize"),
            JAVA_LONG.withName("stx_attributes"),
            JAVA_INT.withName("stx_nlink"),
            JAVA_INT.withName("stx_uid"),
            JAVA_INT.withName("stx_gid"),
            JAVA_SHORT.withName("stx_mode"),
            JAVA_SHORT.withName("__spare0"),
            JAVA_LONG.withName("stx_ino"),
            JAVA_LONG.withName("stx_size"),
            JAVA_LONG.withName("stx_blocks"),
            JAVA_LONG.withName("stx_attributes_mask"),
            TIMESTAMP.withName("stx_atime"),
            TIMESTAMP.withName("stx_btime"),
            TIMESTAMP.withName("stx_ctime"),
            TIMESTAMP.withName("stx_mtime"),
            JAVA_INT.withName("stx_rdev_major"),
            JAVA_INT.withName("stx_rdev_minor"),
            JAVA_INT.withName("stx_dev_major"),
            JAVA_INT.withName("stx_dev_minor"),
            JAVA_LONG.withName("stx_mnt_id"),
            JAVA_INT.withName("stx_dio_mem_align"),
            JAVA_INT.withName("stx_dio_offset_align"),
            MemoryLayout.sequenceLayout(12, JAVA_LONG).withName("__spare3")).withName("statx");

    /** {@code sizeof(struct statx)}: 256, {@link dev.fusepanama.libc.Libc#STATX_SIZE}. */
    public static final long SIZE = LAYOUT.byteSize();

    private static long at(String field) {
        return LAYOUT.byteOffset(groupElement(field));
    }

    /** The offset of {@code stx_mask} (u32): the {@code STATX_*} bits of the fields filled in. */
    public static final long MASK = at("stx_mask");
    /** The offset of {@code stx_blksize} (u32): the preferred I/O block size, in bytes. */
    public static final long BLKSIZE = at("stx_blksize");
    /** The offset of {@code stx_attributes} (u64): the {@code STATX_ATTR_*} flags (immutable, append-only, ...). */
    public static final long ATTRIBUTES = at("stx_attributes");
    /** The offset of {@code stx_nlink} (u32): the number of hard links. */
    public static final long NLINK = at("stx_nlink");
    /** The offset of {@code stx_uid} (u32): the owner. */
    public static final long UID = at("stx_uid");
    /** The offset of {@code stx_gid} (u32): the group. */
    public static final long GID = at("stx_gid");
    /** The offset of {@code stx_mode} (u16): the file type and permission bits; read it with {@link #mode(long)}. */
    public static final long MODE = at("stx_mode");
    /** The offset of {@code stx_ino} (u64): the inode number. */
    public static final long INO = at("stx_ino");
    /** The offset of {@code stx_size} (u64): the size in bytes ({@code SIZE} is the struct's). */
    public static final long SIZE_FIELD = at("stx_size");
    /** The offset of {@code stx_blocks} (u64): the space allocated, in 512-byte units. */
    public static final long BLOCKS = at("stx_blocks");
    /** The offset of {@code stx_attributes_mask} (u64): which bits of {@code stx_attributes} the filesystem supports. */
    public static final long ATTRIBUTES_MASK = at("stx_attributes_mask");
    /** The offset of {@code stx_atime}, the last access: a {@code statx_timestamp} (seconds as a long, then {@link #TV_NSEC}). */
    public static final long ATIME = at("stx_atime");
    /** The offset of {@code stx_btime}, the creation (birth) time: a {@code statx_timestamp}. */
    public static final long BTIME = at("stx_btime");
    /** The offset of {@code stx_ctime}, the last change of the inode: a {@code statx_timestamp}. */
    public static final long CTIME = at("stx_ctime");
    /** The offset of {@code stx_mtime}, the last modification of the contents: a {@code statx_timestamp}. */
    public static final long MTIME = at("stx_mtime");
    /** The offset of {@code stx_rdev_major} (u32): the major number of the device a device file stands for. */
    public static final long RDEV_MAJOR = at("stx_rdev_major");
    /** The offset of {@code stx_rdev_minor} (u32): its minor number. */
    public static final long RDEV_MINOR = at("stx_rdev_minor");
    /** The offset of the nanoseconds (u32) within a {@code statx_timestamp}; its seconds (s64) are at 0. */
    public static final long TV_NSEC = TIMESTAMP.byteOffset(groupElement("tv_nsec"));

    /**
     * {@return the 32-bit field at {@code field}}
     *
     * @param s the address of a {@code struct statx}
     * @param field the offset of a 32-bit field, such as {@link #UID}
     */
    public static int getInt(long s, long field) { return ALL.get(JAVA_INT, s + field); }
    /**
     * {@return the 64-bit field at {@code field}}
     *
     * @param s the address of a {@code struct statx}
     * @param field the offset of a 64-bit field, such as {@link #SIZE_FIELD}
     */
    public static long getLong(long s, long field) { return ALL.get(JAVA_LONG, s + field); }
    /**
     * Sets the 32-bit field at {@code field}.
     *
     * @param s the address of a {@code struct statx}
     * @param field the offset of a 32-bit field, such as {@link #UID}
     * @param v the new value
     */
    public static void setInt(long s, long field, int v) { ALL.set(JAVA_INT, s + field, v); }
    /**
     * Sets the 64-bit field at {@code field}.
     *
     * @param s the address of a {@code struct statx}
     * @param field the offset of a 64-bit field, such as {@link #SIZE_FIELD}
     * @param v the new value
     */
    public static void setLong(long s, long field, long v) { ALL.set(JAVA_LONG, s + field, v); }
    /**
     * {@return {@code stx_mode}, the file type and permission bits}, widened without sign.
     *
     * @param s the address of a {@code struct statx}
     */
    public static int mode(long s) { return Short.toUnsignedInt(ALL.get(JAVA_SHORT, s + MODE)); }
    /**
     * Sets {@code stx_mode}, the file type and permission bits.
     *
     * @param s the address of a {@code struct statx}
     * @param v the new value; its low 16 bits are stored
     */
    public static void mode(long s, int v) { ALL.set(JAVA_SHORT, s + MODE, (short) v); }
}
