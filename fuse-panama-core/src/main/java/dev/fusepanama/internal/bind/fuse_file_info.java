package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct fuse_file_info} (fuse_common.h). The C bit fields ({@code writepage},
 * {@code direct_io}, ...) share the 32-bit word {@code bits}; their positions are the
 * {@code BIT_*} constants, which LayoutTest checks against the compiler's placement.
 */
public final class fuse_file_info {
    private fuse_file_info() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_INT.withName("flags"),
            C_INT.withName("bits"),
            C_INT.withName("padding2"),
            MemoryLayout.paddingLayout(4),
            C_LONG.withName("fh"),
            C_LONG.withName("lock_owner"),
            C_INT.withName("poll_events"),
            MemoryLayout.paddingLayout(4)).withName("fuse_file_info");

    public static final int BIT_WRITEPAGE = 0;
    public static final int BIT_DIRECT_IO = 1;
    public static final int BIT_KEEP_CACHE = 2;
    public static final int BIT_FLUSH = 3;
    public static final int BIT_NONSEEKABLE = 4;
    public static final int BIT_FLOCK_RELEASE = 5;
    public static final int BIT_CACHE_READDIR = 6;
    public static final int BIT_NOFLUSH = 7;

    private static final VarHandle flags = LAYOUT.varHandle(groupElement("flags"));
    private static final VarHandle bits = LAYOUT.varHandle(groupElement("bits"));
    private static final VarHandle fh = LAYOUT.varHandle(groupElement("fh"));
    private static final VarHandle lock_owner = LAYOUT.varHandle(groupElement("lock_owner"));
    private static final VarHandle poll_events = LAYOUT.varHandle(groupElement("poll_events"));

    public static int flags(long fi) { return (int) flags.get(ALL, fi); }
    public static void flags(long fi, int v) { flags.set(ALL, fi, v); }
    public static long fh(long fi) { return (long) fh.get(ALL, fi); }
    public static void fh(long fi, long v) { fh.set(ALL, fi, v); }
    public static long lock_owner(long fi) { return (long) lock_owner.get(ALL, fi); }
    public static int poll_events(long fi) { return (int) poll_events.get(ALL, fi); }

    public static boolean bit(long fi, int bit) {
        return (((int) bits.get(ALL, fi)) & (1 << bit)) != 0;
    }

    public static void bit(long fi, int bit, boolean on) {
        int word = (int) bits.get(ALL, fi);
        bits.set(ALL, fi, on ? word | (1 << bit) : word & ~(1 << bit));
    }
}
