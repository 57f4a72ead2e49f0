package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct timespec} (time.h), 64-bit time_t. */
public final class timespec {
    private timespec() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")).withName("timespec");

    private static final VarHandle tv_sec = LAYOUT.varHandle(groupElement("tv_sec"));
    private static final VarHandle tv_nsec = LAYOUT.varHandle(groupElement("tv_nsec"));

    public static long tv_sec(long ts) { return (long) tv_sec.get(ALL, ts); }
    public static long tv_nsec(long ts) { return (long) tv_nsec.get(ALL, ts); }
    public static void tv_sec(long ts, long v) { tv_sec.set(ALL, ts, v); }
    public static void tv_nsec(long ts, long v) { tv_nsec.set(ALL, ts, v); }
}
