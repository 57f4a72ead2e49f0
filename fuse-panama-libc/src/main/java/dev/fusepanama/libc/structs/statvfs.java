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

    public static long f_bsize(long s) { return (long) f_bsize.get(ALL, s); }
    public static long f_frsize(long s) { return (long) f_frsize.get(ALL, s); }
    public static long f_blocks(long s) { return (long) f_blocks.get(ALL, s); }
    public static long f_bfree(long s) { return (long) f_bfree.get(ALL, s); }
    public static long f_bavail(long s) { return (long) f_bavail.get(ALL, s); }
    public static long f_files(long s) { return (long) f_files.get(ALL, s); }
    public static long f_ffree(long s) { return (long) f_ffree.get(ALL, s); }
    public static long f_favail(long s) { return (long) f_favail.get(ALL, s); }
    public static long f_fsid(long s) { return (long) f_fsid.get(ALL, s); }
    public static long f_flag(long s) { return (long) f_flag.get(ALL, s); }
    public static long f_namemax(long s) { return (long) f_namemax.get(ALL, s); }

    public static void f_bsize(long s, long v) { f_bsize.set(ALL, s, v); }
    public static void f_frsize(long s, long v) { f_frsize.set(ALL, s, v); }
    public static void f_blocks(long s, long v) { f_blocks.set(ALL, s, v); }
    public static void f_bfree(long s, long v) { f_bfree.set(ALL, s, v); }
    public static void f_bavail(long s, long v) { f_bavail.set(ALL, s, v); }
    public static void f_files(long s, long v) { f_files.set(ALL, s, v); }
    public static void f_ffree(long s, long v) { f_ffree.set(ALL, s, v); }
    public static void f_favail(long s, long v) { f_favail.set(ALL, s, v); }
    public static void f_fsid(long s, long v) { f_fsid.set(ALL, s, v); }
    public static void f_flag(long s, long v) { f_flag.set(ALL, s, v); }
    public static void f_namemax(long s, long v) { f_namemax.set(ALL, s, v); }
}
