package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_SHORT;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@code struct fuse_conn_info} (fuse_common.h). 128 bytes in every 3.x release; 3.17 carved
 * {@code max_backing_stack_depth}, a flags word and the 64-bit {@code capable_ext}/{@code want_ext}
 * out of {@code reserved}, 3.18 a 16-bit {@code request_timeout}. From 3.17 on libfuse refuses an
 * init that sets both {@code want} and {@code want_ext}: callers go through
 * {@link dev.fusepanama.internal.view.NativeConnectionInfo}, which writes exactly one of them.
 */
public final class fuse_conn_info {
    private fuse_conn_info() {}

    private static StructLayout struct(MemoryLayout... tail) {
        MemoryLayout[] head = {
                C_INT.withName("proto_major"),
                C_INT.withName("proto_minor"),
                C_INT.withName("max_write"),
                C_INT.withName("max_read"),
                C_INT.withName("max_readahead"),
                C_INT.withName("capable"),
                C_INT.withName("want"),
                C_INT.withName("max_background"),
                C_INT.withName("congestion_threshold"),
                C_INT.withName("time_gran")};
        MemoryLayout[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return MemoryLayout.structLayout(all).withName("fuse_conn_info");
    }

    /** 3.10 to 3.16.x. */
    public static final StructLayout LAYOUT_310 = struct(
            MemoryLayout.sequenceLayout(22, C_INT).withName("reserved"));

    /** 3.17.x. */
    public static final StructLayout LAYOUT_317 = struct(
            C_INT.withName("max_backing_stack_depth"),
            C_INT.withName("bits"),
            C_LONG.withName("capable_ext"),
            C_LONG.withName("want_ext"),
            MemoryLayout.sequenceLayout(16, C_INT).withName("reserved"));

    /** 3.18 and later. */
    public static final StructLayout LAYOUT_318 = struct(
            C_INT.withName("max_backing_stack_depth"),
            C_INT.withName("bits"),
            C_LONG.withName("capable_ext"),
            C_LONG.withName("want_ext"),
            C_SHORT.withName("request_timeout"),
            MemoryLayout.sequenceLayout(31, C_SHORT).withName("reserved"));

    public static StructLayout layout(LibFuseVersion version) {
        if (version.atLeast(3, 18, 0)) return LAYOUT_318;
        if (version.atLeast(3, 17, 0)) return LAYOUT_317;
        return LAYOUT_310;
    }

    private static final StructLayout LAYOUT = LAYOUT_310;
    /** libfuse 3.17+ only: {@code uint64_t capable_ext}. */
    public static final long CAPABLE_EXT_317 = LAYOUT_317.byteOffset(groupElement("capable_ext"));
    /** libfuse 3.17+ only: {@code uint64_t want_ext}. */
    public static final long WANT_EXT_317 = LAYOUT_317.byteOffset(groupElement("want_ext"));

    private static VarHandle vh(String name) { return LAYOUT.varHandle(groupElement(name)); }

    private static final VarHandle proto_major = vh("proto_major");
    private static final VarHandle proto_minor = vh("proto_minor");
    private static final VarHandle max_write = vh("max_write");
    private static final VarHandle max_read = vh("max_read");
    private static final VarHandle max_readahead = vh("max_readahead");
    private static final VarHandle capable = vh("capable");
    private static final VarHandle want = vh("want");
    private static final VarHandle max_background = vh("max_background");
    private static final VarHandle congestion_threshold = vh("congestion_threshold");
    private static final VarHandle time_gran = vh("time_gran");

    public static int proto_major(long c) { return (int) proto_major.get(ALL, c); }
    public static int proto_minor(long c) { return (int) proto_minor.get(ALL, c); }
    public static int max_write(long c) { return (int) max_write.get(ALL, c); }
    public static int max_read(long c) { return (int) max_read.get(ALL, c); }
    public static int max_readahead(long c) { return (int) max_readahead.get(ALL, c); }
    public static int capable(long c) { return (int) capable.get(ALL, c); }
    public static int want(long c) { return (int) want.get(ALL, c); }
    public static int max_background(long c) { return (int) max_background.get(ALL, c); }
    public static int congestion_threshold(long c) { return (int) congestion_threshold.get(ALL, c); }
    public static int time_gran(long c) { return (int) time_gran.get(ALL, c); }

    public static void max_write(long c, int v) { max_write.set(ALL, c, v); }
    public static void max_read(long c, int v) { max_read.set(ALL, c, v); }
    public static void max_readahead(long c, int v) { max_readahead.set(ALL, c, v); }
    public static void want(long c, int v) { want.set(ALL, c, v); }
    public static void max_background(long c, int v) { max_background.set(ALL, c, v); }
    public static void congestion_threshold(long c, int v) { congestion_threshold.set(ALL, c, v); }
    public static void time_gran(long c, int v) { time_gran.set(ALL, c, v); }

    /** libfuse 3.17+ only: {@code uint32_t max_backing_stack_depth}. */
    public static final long MAX_BACKING_STACK_DEPTH_317 = LAYOUT_317.byteOffset(groupElement("max_backing_stack_depth"));

    public static int max_backing_stack_depth(long c) { return ALL.get(C_INT, c + MAX_BACKING_STACK_DEPTH_317); }

    /** libfuse 3.18+ only: {@code uint16_t request_timeout}, seconds. */
    public static final long REQUEST_TIMEOUT_318 = LAYOUT_318.byteOffset(groupElement("request_timeout"));

    public static void request_timeout(long c, int seconds) { ALL.set(C_SHORT, c + REQUEST_TIMEOUT_318, (short) seconds); }

    public static long capable_ext(long c) { return ALL.get(C_LONG, c + CAPABLE_EXT_317); }
    public static long want_ext(long c) { return ALL.get(C_LONG, c + WANT_EXT_317); }
    public static void want_ext(long c, long v) { ALL.set(C_LONG, c + WANT_EXT_317, v); }
}
