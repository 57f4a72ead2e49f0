package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct timespec} (time.h), 64-bit time_t. */
public final class timespec {
    private timespec() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_LONG.withName("tv_sec"),
            C_LONG.withName("tv_nsec")).withName("timespec");

    private static final VarHandle tv_sec = LAYOUT.varHandle(groupElement("tv_sec"));
    private static final VarHandle tv_nsec = LAYOUT.varHandle(groupElement("tv_nsec"));

    public static long tv_sec(long ts) { return (long) tv_sec.get(ALL, ts); }
    public static long tv_nsec(long ts) { return (long) tv_nsec.get(ALL, ts); }
    public static void tv_sec(long ts, long v) { tv_sec.set(ALL, ts, v); }
    public static void tv_nsec(long ts, long v) { tv_nsec.set(ALL, ts, v); }
}
