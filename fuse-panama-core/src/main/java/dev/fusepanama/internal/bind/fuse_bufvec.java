package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct fuse_bufvec} (fuse_common.h): {@code count} buffers, the first one inline. */
public final class fuse_bufvec {
    private fuse_bufvec() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_LONG.withName("count"),
            C_LONG.withName("idx"),
            C_LONG.withName("off"),
            MemoryLayout.sequenceLayout(1, fuse_buf.LAYOUT).withName("buf")).withName("fuse_bufvec");
    public static final long SIZE = LAYOUT.byteSize();
    public static final long BUF = LAYOUT.byteOffset(groupElement("buf"));

    private static final VarHandle count = LAYOUT.varHandle(groupElement("count"));
    private static final VarHandle idx = LAYOUT.varHandle(groupElement("idx"));
    private static final VarHandle off = LAYOUT.varHandle(groupElement("off"));

    public static long count(long v) { return (long) count.get(ALL, v); }
    public static long idx(long v) { return (long) idx.get(ALL, v); }
    public static long off(long v) { return (long) off.get(ALL, v); }
    public static void count(long v, long x) { count.set(ALL, v, x); }
    public static void idx(long v, long x) { idx.set(ALL, v, x); }
    public static void off(long v, long x) { off.set(ALL, v, x); }

    /** Address of {@code buf[i]}. */
    public static long buf(long v, long i) { return v + BUF + i * fuse_buf.SIZE; }

    /** Makes {@code v} a one-buffer vector, as FUSE_BUFVEC_INIT does. */
    public static void init(long v, long size) {
        ALL.asSlice(v, SIZE).fill((byte) 0);
        count(v, 1);
        fuse_buf.size(buf(v, 0), size);
    }
}
