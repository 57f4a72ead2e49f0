package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct flock} (fcntl.h, 64-bit off_t): a POSIX record lock. */
public final class flock {
    private flock() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("l_type"),
            JAVA_SHORT.withName("l_whence"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("l_start"),
            JAVA_LONG.withName("l_len"),
            JAVA_INT.withName("l_pid"),
            MemoryLayout.paddingLayout(4)).withName("flock");

    private static final VarHandle l_type = LAYOUT.varHandle(groupElement("l_type"));
    private static final VarHandle l_whence = LAYOUT.varHandle(groupElement("l_whence"));
    private static final VarHandle l_start = LAYOUT.varHandle(groupElement("l_start"));
    private static final VarHandle l_len = LAYOUT.varHandle(groupElement("l_len"));
    private static final VarHandle l_pid = LAYOUT.varHandle(groupElement("l_pid"));

    public static short l_type(long f) { return (short) l_type.get(ALL, f); }
    public static short l_whence(long f) { return (short) l_whence.get(ALL, f); }
    public static long l_start(long f) { return (long) l_start.get(ALL, f); }
    public static long l_len(long f) { return (long) l_len.get(ALL, f); }
    public static int l_pid(long f) { return (int) l_pid.get(ALL, f); }

    public static void l_type(long f, short v) { l_type.set(ALL, f, v); }
    public static void l_whence(long f, short v) { l_whence.set(ALL, f, v); }
    public static void l_start(long f, long v) { l_start.set(ALL, f, v); }
    public static void l_len(long f, long v) { l_len.set(ALL, f, v); }
    public static void l_pid(long f, int v) { l_pid.set(ALL, f, v); }
}
