package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct statvfs} (sys/statvfs.h, glibc, 64-bit fsblkcnt_t/fsfilcnt_t). */
public final class statvfs {
    private statvfs() {}

    /** The layout of {@code struct statvfs}: 112 bytes. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("f_bsize"),
            JAVA_LONG.withName("f_frsize"),
            JAVA_LONG.withName("f_blocks"),
            JAVA_LONG.withName("f_bfree"),
            JAVA_LONG.withName("f_bavail"),
            JAVA_LONG.withName("f_files"),
            JAVA_LONG.withName("f_ffree"),
            JAVA_LONG.withName("f_favail"),
            JAVA_LONG.withName("f_fsid"),
            JAVA_LONG.withName("f_flag"),
            JAVA_LONG.withName("f_namemax"),
            MemoryLayout.sequenceLayout(6, JAVA_INT).withName("__f_spare")).withName("statvfs");

    private static VarHandle vh(String name) { return LAYOUT.varHandle(groupElement(name)); }

    private static final VarHandle f_bsize = vh("f_bsize");
    private static final VarHandle f_frsize = vh("f_frsize");
    private static final VarHandle f_blocks = vh("f_blocks");
    private static final VarHandle f_bfree = vh("f_bfree");
    private static final VarHandle f_bavail = vh("f_bavail");
    private static final VarHandle f_files = vh("f_files");
    private static final VarHandle f_ffree = vh("f_ffree");
    private static final VarHandle f_favail = vh("f_favail");
    private static final VarHandle f_fsid = vh("f_fsid");
    private static final VarHandle f_flag = vh("f_flag");
    private static final VarHandle f_namemax = vh("f_namemax");

    /**
     * {@return {@code f_bsize}: the filesystem's preferred I/O block size, in bytes}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_bsize(long s) { return (long) f_bsize.get(ALL, s); }
    /**
     * {@return {@code f_frsize}: the fragment size, in bytes: the unit of {@code f_blocks}, {@code f_bfree} and {@code f_bavail}}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_frsize(long s) { return (long) f_frsize.get(ALL, s); }
    /**
     * {@return {@code f_blocks}: the filesystem's size, in {@code f_frsize} units}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_blocks(long s) { return (long) f_blocks.get(ALL, s); }
    /**
     * {@return {@code f_bfree}: the free blocks, in {@code f_frsize} units}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_bfree(long s) { return (long) f_bfree.get(ALL, s); }
    /**
     * {@return {@code f_bavail}: the free blocks an unprivileged user may use, in {@code f_frsize} units}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_bavail(long s) { return (long) f_bavail.get(ALL, s); }
    /**
     * {@return {@code f_files}: the number of inodes}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_files(long s) { return (long) f_files.get(ALL, s); }
    /**
     * {@return {@code f_ffree}: the free inodes}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_ffree(long s) { return (long) f_ffree.get(ALL, s); }
    /**
     * {@return {@code f_favail}: the free inodes an unprivileged user may use}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_favail(long s) { return (long) f_favail.get(ALL, s); }
    /**
     * {@return {@code f_fsid}: the filesystem id}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_fsid(long s) { return (long) f_fsid.get(ALL, s); }
    /**
     * {@return {@code f_flag}: the mount flags ({@code ST_RDONLY} 1, {@code ST_NOSUID} 2, ...)}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_flag(long s) { return (long) f_flag.get(ALL, s); }
    /**
     * {@return {@code f_namemax}: the longest file name, in bytes}
     *
     * @param s the address of a {@code struct statvfs}
     */
    public static long f_namemax(long s) { return (long) f_namemax.get(ALL, s); }

    /**
     * Sets {@code f_bsize}: the filesystem's preferred I/O block size, in bytes.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_bsize(long s, long v) { f_bsize.set(ALL, s, v); }
    /**
     * Sets {@code f_frsize}: the fragment size, in bytes: the unit of {@code f_blocks}, {@code f_bfree} and {@code f_bavail}.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_frsize(long s, long v) { f_frsize.set(ALL, s, v); }
    /**
     * Sets {@code f_blocks}: the filesystem's size, in {@code f_frsize} units.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_blocks(long s, long v) { f_blocks.set(ALL, s, v); }
    /**
     * Sets {@code f_bfree}: the free blocks, in {@code f_frsize} units.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_bfree(long s, long v) { f_bfree.set(ALL, s, v); }
    /**
     * Sets {@code f_bavail}: the free blocks an unprivileged user may use, in {@code f_frsize} units.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_bavail(long s, long v) { f_bavail.set(ALL, s, v); }
    /**
     * Sets {@code f_files}: the number of inodes.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_files(long s, long v) { f_files.set(ALL, s, v); }
    /**
     * Sets {@code f_ffree}: the free inodes.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_ffree(long s, long v) { f_ffree.set(ALL, s, v); }
    /**
     * Sets {@code f_favail}: the free inodes an unprivileged user may use.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_favail(long s, long v) { f_favail.set(ALL, s, v); }
    /**
     * Sets {@code f_fsid}: the filesystem id.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_fsid(long s, long v) { f_fsid.set(ALL, s, v); }
    /**
     * Sets {@code f_flag}: the mount flags ({@code ST_RDONLY} 1, {@code ST_NOSUID} 2, ...).
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_flag(long s, long v) { f_flag.set(ALL, s, v); }
    /**
     * Sets {@code f_namemax}: the longest file name, in bytes.
     *
     * @param s the address of a {@code struct statvfs}
     * @param v the new value
     */
    public static void f_namemax(long s, long v) { f_namemax.set(ALL, s, v); }
}
