package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct fuse_bufvec} (fuse_common.h): {@code count} buffers, the first one inline. Its
 * size and the stride of {@code buf[]} follow {@code struct fuse_buf}, which grew in 3.17, so
 * the methods that touch the array take the loaded release's layout.
 */
public final class fuse_bufvec {
    private fuse_bufvec() {}

    public static StructLayout layout(StructLayout buf) {
        return MemoryLayout.structLayout(
                C_LONG.withName("count"),
                C_LONG.withName("idx"),
                C_LONG.withName("off"),
                MemoryLayout.sequenceLayout(1, buf).withName("buf")).withName("fuse_bufvec");
    }

    private static final StructLayout LAYOUT = layout(fuse_buf.LAYOUT_310);
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

    /** Address of {@code buf[i]}, with {@code bufSize} the release's {@code sizeof(struct fuse_buf)}. */
    public static long buf(long v, long i, long bufSize) { return v + BUF + i * bufSize; }

    /** Makes {@code v}, of {@code vecSize} bytes, a one-buffer vector, as FUSE_BUFVEC_INIT does. */
    public static void init(long v, long vecSize, long size) {
        ALL.asSlice(v, vecSize).fill((byte) 0);
        count(v, 1);
        fuse_buf.size(v + BUF, size);
    }
}
