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

    /** The layout of {@code struct timespec}: two longs, 16 bytes. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_LONG.withName("tv_sec"),
            JAVA_LONG.withName("tv_nsec")).withName("timespec");

    private static final VarHandle tv_sec = LAYOUT.varHandle(groupElement("tv_sec"));
    private static final VarHandle tv_nsec = LAYOUT.varHandle(groupElement("tv_nsec"));

    /**
     * {@return {@code tv_sec}: the seconds (since the epoch, for a time of day)}
     *
     * @param ts the address of a {@code struct timespec}
     */
    public static long tv_sec(long ts) { return (long) tv_sec.get(ALL, ts); }
    /**
     * {@return {@code tv_nsec}: the nanoseconds, 0 to 999,999,999 (or {@code UTIME_NOW}, {@code UTIME_OMIT} for {@code utimensat(2)})}
     *
     * @param ts the address of a {@code struct timespec}
     */
    public static long tv_nsec(long ts) { return (long) tv_nsec.get(ALL, ts); }
    /**
     * Sets {@code tv_sec}: the seconds (since the epoch, for a time of day).
     *
     * @param ts the address of a {@code struct timespec}
     * @param v the new value
     */
    public static void tv_sec(long ts, long v) { tv_sec.set(ALL, ts, v); }
    /**
     * Sets {@code tv_nsec}: the nanoseconds, 0 to 999,999,999 (or {@code UTIME_NOW}, {@code UTIME_OMIT} for {@code utimensat(2)}).
     *
     * @param ts the address of a {@code struct timespec}
     * @param v the new value
     */
    public static void tv_nsec(long ts, long v) { tv_nsec.set(ALL, ts, v); }
}
