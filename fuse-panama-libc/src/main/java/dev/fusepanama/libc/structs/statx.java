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

    public static final long SIZE = LAYOUT.byteSize();

    private static long at(String field) {
        return LAYOUT.byteOffset(groupElement(field));
    }

    public static final long MASK = at("stx_mask");
    public static final long BLKSIZE = at("stx_blksize");
    public static final long ATTRIBUTES = at("stx_attributes");
    public static final long NLINK = at("stx_nlink");
    public static final long UID = at("stx_uid");
    public static final long GID = at("stx_gid");
    public static final long MODE = at("stx_mode");
    public static final long INO = at("stx_ino");
    public static final long SIZE_FIELD = at("stx_size");
    public static final long BLOCKS = at("stx_blocks");
    public static final long ATTRIBUTES_MASK = at("stx_attributes_mask");
    public static final long ATIME = at("stx_atime");
    public static final long BTIME = at("stx_btime");
    public static final long CTIME = at("stx_ctime");
    public static final long MTIME = at("stx_mtime");
    public static final long RDEV_MAJOR = at("stx_rdev_major");
    public static final long RDEV_MINOR = at("stx_rdev_minor");
    /** Within a timestamp. */
    public static final long TV_NSEC = TIMESTAMP.byteOffset(groupElement("tv_nsec"));

    public static int getInt(long s, long field) { return ALL.get(JAVA_INT, s + field); }
    public static long getLong(long s, long field) { return ALL.get(JAVA_LONG, s + field); }
    public static void setInt(long s, long field, int v) { ALL.set(JAVA_INT, s + field, v); }
    public static void setLong(long s, long field, long v) { ALL.set(JAVA_LONG, s + field, v); }
    public static int mode(long s) { return Short.toUnsignedInt(ALL.get(JAVA_SHORT, s + MODE)); }
    public static void mode(long s, int v) { ALL.set(JAVA_SHORT, s + MODE, (short) v); }
}
