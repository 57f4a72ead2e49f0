package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code struct fuse_file_info} (fuse_common.h). The C bit fields ({@code writepage},
 * {@code direct_io}, ...) share the 32-bit word {@code bits}; where each sits depends on the
 * release ({@link Bits}), which LayoutTest checks against the compiler's placement. The named
 * fields never moved; 3.17 grew the struct from 40 to 64 bytes ({@code backing_id},
 * {@code compat_flags}, reserved space). libfuse allocates it, so its size only matters to the
 * layout check.
 */
public final class fuse_file_info {
    private fuse_file_info() {}

    /** 3.10 to 3.16.x. */
    public static final StructLayout LAYOUT_310 = MemoryLayout.structLayout(
            C_INT.withName("flags"),
            C_INT.withName("bits"),
            C_INT.withName("padding2"),
            MemoryLayout.paddingLayout(4),
            C_LONG.withName("fh"),
            C_LONG.withName("lock_owner"),
            C_INT.withName("poll_events"),
            MemoryLayout.paddingLayout(4)).withName("fuse_file_info");

    /** 3.17 and later. */
    public static final StructLayout LAYOUT_317 = MemoryLayout.structLayout(
            C_INT.withName("flags"),
            C_INT.withName("bits"),
            C_INT.withName("padding2"),
            C_INT.withName("padding3"),
            C_LONG.withName("fh"),
            C_LONG.withName("lock_owner"),
            C_INT.withName("poll_events"),
            C_INT.withName("backing_id"),
            C_LONG.withName("compat_flags"),
            MemoryLayout.sequenceLayout(2, C_LONG).withName("reserved")).withName("fuse_file_info");

    /**
     * Bit positions in the {@code bits} word; -1 where the release has no such field. 3.14.1 put
     * {@code parallel_direct_writes} at bit 3 and moved the five after it up by one; 3.17 moved it
     * to the end and the others back.
     */
    public record Bits(int writepage, int directIo, int keepCache, int flush, int nonseekable,
                       int flockRelease, int cacheReaddir, int noflush, int parallelDirectWrites) {
        /** 3.10.x: no {@code noflush} yet. */
        public static final Bits V310 = new Bits(0, 1, 2, 3, 4, 5, 6, -1, -1);
        /** 3.11.0 to 3.14.0. */
        public static final Bits V311 = new Bits(0, 1, 2, 3, 4, 5, 6, 7, -1);
        /** 3.14.1 to 3.16.x. */
        public static final Bits V3141 = new Bits(0, 1, 2, 4, 5, 6, 7, 8, 3);
        /** 3.17 and later. */
        public static final Bits V317 = new Bits(0, 1, 2, 3, 4, 5, 6, 7, 8);

        /** By C field name, the present ones only: what the layout probe prints. */
        public Map<String, Integer> byName() {
            Map<String, Integer> m = new LinkedHashMap<>();
            put(m, "writepage", writepage);
            put(m, "direct_io", directIo);
            put(m, "keep_cache", keepCache);
            put(m, "flush", flush);
            put(m, "nonseekable", nonseekable);
            put(m, "flock_release", flockRelease);
            put(m, "cache_readdir", cacheReaddir);
            put(m, "noflush", noflush);
            put(m, "parallel_direct_writes", parallelDirectWrites);
            return m;
        }

        private static void put(Map<String, Integer> m, String name, int bit) {
            if (bit >= 0) m.put(name, bit);
        }
    }

    public static StructLayout layout(LibFuseVersion version) {
        return version.atLeast(3, 17, 0) ? LAYOUT_317 : LAYOUT_310;
    }

    public static Bits bits(LibFuseVersion version) {
        if (version.atLeast(3, 17, 0)) return Bits.V317;
        if (version.atLeast(3, 14, 1)) return Bits.V3141;
        if (version.atLeast(3, 11, 0)) return Bits.V311;
        return Bits.V310;
    }

    private static final VarHandle flags = LAYOUT_310.varHandle(groupElement("flags"));
    private static final VarHandle bits = LAYOUT_310.varHandle(groupElement("bits"));
    private static final VarHandle fh = LAYOUT_310.varHandle(groupElement("fh"));
    private static final VarHandle lock_owner = LAYOUT_310.varHandle(groupElement("lock_owner"));
    private static final VarHandle poll_events = LAYOUT_310.varHandle(groupElement("poll_events"));

    /** libfuse 3.17+ only: {@code int32_t backing_id}, which the open reply turns into FOPEN_PASSTHROUGH. */
    public static final long BACKING_ID_317 = LAYOUT_317.byteOffset(groupElement("backing_id"));

    public static int backing_id(long fi) { return ALL.get(C_INT, fi + BACKING_ID_317); }
    public static void backing_id(long fi, int v) { ALL.set(C_INT, fi + BACKING_ID_317, v); }

    public static int flags(long fi) { return (int) flags.get(ALL, fi); }
    public static void flags(long fi, int v) { flags.set(ALL, fi, v); }
    public static long fh(long fi) { return (long) fh.get(ALL, fi); }
    public static void fh(long fi, long v) { fh.set(ALL, fi, v); }
    public static long lock_owner(long fi) { return (long) lock_owner.get(ALL, fi); }
    public static int poll_events(long fi) { return (int) poll_events.get(ALL, fi); }

    /** The bit at {@code bit}; false where the release has no such field ({@code bit} &lt; 0). */
    public static boolean bit(long fi, int bit) {
        return bit >= 0 && (((int) bits.get(ALL, fi)) & (1 << bit)) != 0;
    }

    /** Sets the bit at {@code bit}; nothing where the release has no such field ({@code bit} &lt; 0). */
    public static void bit(long fi, int bit, boolean on) {
        if (bit < 0) {
            return;
        }
        int word = (int) bits.get(ALL, fi);
        bits.set(ALL, fi, on ? word | (1 << bit) : word & ~(1 << bit));
    }
}
