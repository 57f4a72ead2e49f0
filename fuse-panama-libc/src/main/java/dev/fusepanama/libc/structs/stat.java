package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.libc.Arch;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct stat} (sys/stat.h, glibc, 64-bit). The one struct whose layout differs between
 * the architectures we support ({@link Arch}): x86-64 has its own, AArch64 and RISC-V use
 * asm-generic's (include/uapi/asm-generic/stat.h), whose {@code st_nlink} and {@code st_blksize}
 * are 32 bits. The accessors widen every field to Java's {@code int}/{@code long}, so callers
 * never see the difference.
 */
public final class stat {
    private stat() {}

    private static final StructLayout X86_64 = MemoryLayout.structLayout(
            JAVA_LONG.withName("st_dev"),
            JAVA_LONG.withName("st_ino"),
            JAVA_LONG.withName("st_nlink"),
            JAVA_INT.withName("st_mode"),
            JAVA_INT.withName("st_uid"),
            JAVA_INT.withName("st_gid"),
            JAVA_INT.withName("__pad0"),
            JAVA_LONG.withName("st_rdev"),
            JAVA_LONG.withName("st_size"),
            JAVA_LONG.withName("st_blksize"),
            JAVA_LONG.withName("st_blocks"),
            timespec.LAYOUT.withName("st_atim"),
            timespec.LAYOUT.withName("st_mtim"),
            timespec.LAYOUT.withName("st_ctim"),
            MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("__glibc_reserved")).withName("stat");

    private static final StructLayout GENERIC_LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("st_dev"),
            JAVA_LONG.withName("st_ino"),
            JAVA_INT.withName("st_mode"),
            JAVA_INT.withName("st_nlink"),
            JAVA_INT.withName("st_uid"),
            JAVA_INT.withName("st_gid"),
            JAVA_LONG.withName("st_rdev"),
            JAVA_LONG.withName("__pad1"),
            JAVA_LONG.withName("st_size"),
            JAVA_INT.withName("st_blksize"),
            JAVA_INT.withName("__pad2"),
            JAVA_LONG.withName("st_blocks"),
            timespec.LAYOUT.withName("st_atim"),
            timespec.LAYOUT.withName("st_mtim"),
            timespec.LAYOUT.withName("st_ctim"),
            MemoryLayout.sequenceLayout(2, JAVA_INT).withName("__glibc_reserved")).withName("stat");

    /** Whether this architecture uses asm-generic's layout. */
    private static final boolean GENERIC = Arch.constants() != Arch.X86_64;

    /** The layout of {@code struct stat} on this architecture ({@link Arch#constants()}): 144 bytes on x86-64, 128 on the others. */
    public static final StructLayout LAYOUT = GENERIC ? GENERIC_LAYOUT : X86_64;
    /** {@code sizeof(struct stat)} on this architecture, the same as {@link Arch#statSize}. */
    public static final long SIZE = LAYOUT.byteSize();

    private static final VarHandle st_dev = LAYOUT.varHandle(groupElement("st_dev"));
    private static final VarHandle st_ino = LAYOUT.varHandle(groupElement("st_ino"));
    private static final VarHandle st_nlink = LAYOUT.varHandle(groupElement("st_nlink"));
    private static final VarHandle st_mode = LAYOUT.varHandle(groupElement("st_mode"));
    private static final VarHandle st_uid = LAYOUT.varHandle(groupElement("st_uid"));
    private static final VarHandle st_gid = LAYOUT.varHandle(groupElement("st_gid"));
    private static final VarHandle st_rdev = LAYOUT.varHandle(groupElement("st_rdev"));
    private static final VarHandle st_size = LAYOUT.varHandle(groupElement("st_size"));
    private static final VarHandle st_blksize = LAYOUT.varHandle(groupElement("st_blksize"));
    private static final VarHandle st_blocks = LAYOUT.varHandle(groupElement("st_blocks"));
    /** The offset of {@code st_atim}, the last access time: a {@link timespec} (read it at the struct's address plus this). */
    public static final long st_atim = LAYOUT.byteOffset(groupElement("st_atim"));
    /** The offset of {@code st_mtim}, the last modification of the contents: a {@link timespec}. */
    public static final long st_mtim = LAYOUT.byteOffset(groupElement("st_mtim"));
    /** The offset of {@code st_ctim}, the last change of the inode (contents or metadata): a {@link timespec}. */
    public static final long st_ctim = LAYOUT.byteOffset(groupElement("st_ctim"));

    /**
     * {@return {@code st_dev}: the device the file is on}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_dev(long s) { return (long) st_dev.get(ALL, s); }
    /**
     * {@return {@code st_ino}: the inode number}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_ino(long s) { return (long) st_ino.get(ALL, s); }
    /**
     * {@return {@code st_nlink}: the number of hard links}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_nlink(long s) { return GENERIC ? Integer.toUnsignedLong((int) st_nlink.get(ALL, s)) : (long) st_nlink.get(ALL, s); }
    /**
     * {@return {@code st_mode}: the file type ({@code S_IF*}) and permission bits}
     *
     * @param s the address of a {@code struct stat}
     */
    public static int st_mode(long s) { return (int) st_mode.get(ALL, s); }
    /**
     * {@return {@code st_uid}: the owner}
     *
     * @param s the address of a {@code struct stat}
     */
    public static int st_uid(long s) { return (int) st_uid.get(ALL, s); }
    /**
     * {@return {@code st_gid}: the group}
     *
     * @param s the address of a {@code struct stat}
     */
    public static int st_gid(long s) { return (int) st_gid.get(ALL, s); }
    /**
     * {@return {@code st_rdev}: the device a character or block device file stands for}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_rdev(long s) { return (long) st_rdev.get(ALL, s); }
    /**
     * {@return {@code st_size}: the size in bytes (of a symbolic link: its text's length)}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_size(long s) { return (long) st_size.get(ALL, s); }
    /**
     * {@return {@code st_blksize}: the preferred I/O block size, in bytes}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_blksize(long s) { return GENERIC ? (int) st_blksize.get(ALL, s) : (long) st_blksize.get(ALL, s); }
    /**
     * {@return {@code st_blocks}: the space allocated, in 512-byte units}
     *
     * @param s the address of a {@code struct stat}
     */
    public static long st_blocks(long s) { return (long) st_blocks.get(ALL, s); }

    /**
     * Sets {@code st_dev}: the device the file is on.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_dev(long s, long v) { st_dev.set(ALL, s, v); }
    /**
     * Sets {@code st_ino}: the inode number.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_ino(long s, long v) { st_ino.set(ALL, s, v); }
    /**
     * Sets {@code st_nlink}: the number of hard links.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_nlink(long s, long v) { if (GENERIC) st_nlink.set(ALL, s, (int) v); else st_nlink.set(ALL, s, v); }
    /**
     * Sets {@code st_mode}: the file type ({@code S_IF*}) and permission bits.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_mode(long s, int v) { st_mode.set(ALL, s, v); }
    /**
     * Sets {@code st_uid}: the owner.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_uid(long s, int v) { st_uid.set(ALL, s, v); }
    /**
     * Sets {@code st_gid}: the group.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_gid(long s, int v) { st_gid.set(ALL, s, v); }
    /**
     * Sets {@code st_rdev}: the device a character or block device file stands for.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_rdev(long s, long v) { st_rdev.set(ALL, s, v); }
    /**
     * Sets {@code st_size}: the size in bytes (of a symbolic link: its text's length).
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_size(long s, long v) { st_size.set(ALL, s, v); }
    /**
     * Sets {@code st_blksize}: the preferred I/O block size, in bytes.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_blksize(long s, long v) { if (GENERIC) st_blksize.set(ALL, s, (int) v); else st_blksize.set(ALL, s, v); }
    /**
     * Sets {@code st_blocks}: the space allocated, in 512-byte units.
     *
     * @param s the address of a {@code struct stat}
     * @param v the new value
     */
    public static void st_blocks(long s, long v) { st_blocks.set(ALL, s, v); }

    /**
     * Zeroes the whole struct, padding and reserved fields included.
     *
     * @param s the address of a {@code struct stat}
     */
    public static void clear(long s) { ALL.asSlice(s, SIZE).fill((byte) 0); }
}
