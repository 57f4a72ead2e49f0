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

    public static final StructLayout LAYOUT = GENERIC ? GENERIC_LAYOUT : X86_64;
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
    public static final long st_atim = LAYOUT.byteOffset(groupElement("st_atim"));
    public static final long st_mtim = LAYOUT.byteOffset(groupElement("st_mtim"));
    public static final long st_ctim = LAYOUT.byteOffset(groupElement("st_ctim"));

    public static long st_dev(long s) { return (long) st_dev.get(ALL, s); }
    public static long st_ino(long s) { return (long) st_ino.get(ALL, s); }
    public static long st_nlink(long s) { return GENERIC ? Integer.toUnsignedLong((int) st_nlink.get(ALL, s)) : (long) st_nlink.get(ALL, s); }
    public static int st_mode(long s) { return (int) st_mode.get(ALL, s); }
    public static int st_uid(long s) { return (int) st_uid.get(ALL, s); }
    public static int st_gid(long s) { return (int) st_gid.get(ALL, s); }
    public static long st_rdev(long s) { return (long) st_rdev.get(ALL, s); }
    public static long st_size(long s) { return (long) st_size.get(ALL, s); }
    public static long st_blksize(long s) { return GENERIC ? (int) st_blksize.get(ALL, s) : (long) st_blksize.get(ALL, s); }
    public static long st_blocks(long s) { return (long) st_blocks.get(ALL, s); }

    public static void st_dev(long s, long v) { st_dev.set(ALL, s, v); }
    public static void st_ino(long s, long v) { st_ino.set(ALL, s, v); }
    public static void st_nlink(long s, long v) { if (GENERIC) st_nlink.set(ALL, s, (int) v); else st_nlink.set(ALL, s, v); }
    public static void st_mode(long s, int v) { st_mode.set(ALL, s, v); }
    public static void st_uid(long s, int v) { st_uid.set(ALL, s, v); }
    public static void st_gid(long s, int v) { st_gid.set(ALL, s, v); }
    public static void st_rdev(long s, long v) { st_rdev.set(ALL, s, v); }
    public static void st_size(long s, long v) { st_size.set(ALL, s, v); }
    public static void st_blksize(long s, long v) { if (GENERIC) st_blksize.set(ALL, s, (int) v); else st_blksize.set(ALL, s, v); }
    public static void st_blocks(long s, long v) { st_blocks.set(ALL, s, v); }

    public static void clear(long s) { ALL.asSlice(s, SIZE).fill((byte) 0); }
}
