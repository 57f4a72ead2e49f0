package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct fuse_buf} (fuse_common.h): a run of data in memory or behind a file descriptor.
 * 3.17 appended {@code mem_size}, so the stride of a {@code fuse_bufvec}'s array is 40 bytes
 * before and 48 after; the fields mapped here never moved.
 */
public final class fuse_buf {
    private fuse_buf() {}

    private static final MemoryLayout[] FIELDS = {
            C_LONG.withName("size"),
            C_INT.withName("flags"),
            MemoryLayout.paddingLayout(4),
            C_ADDRESS.withName("mem"),
            C_INT.withName("fd"),
            MemoryLayout.paddingLayout(4),
            C_LONG.withName("pos")};

    /** 3.10 to 3.16.x. */
    public static final StructLayout LAYOUT_310 = MemoryLayout.structLayout(FIELDS).withName("fuse_buf");

    /** 3.17 and later. */
    public static final StructLayout LAYOUT_317 = MemoryLayout.structLayout(
            FIELDS[0], FIELDS[1], FIELDS[2], FIELDS[3], FIELDS[4], FIELDS[5], FIELDS[6],
            C_LONG.withName("mem_size")).withName("fuse_buf");

    public static StructLayout layout(LibFuseVersion version) {
        return version.atLeast(3, 17, 0) ? LAYOUT_317 : LAYOUT_310;
    }

    private static final StructLayout LAYOUT = LAYOUT_310;

    /** {@code enum fuse_buf_flags}. */
    public static final int FUSE_BUF_IS_FD = 1 << 1;
    public static final int FUSE_BUF_FD_SEEK = 1 << 2;
    public static final int FUSE_BUF_FD_RETRY = 1 << 3;

    private static final VarHandle size = LAYOUT.varHandle(groupElement("size"));
    private static final VarHandle flags = LAYOUT.varHandle(groupElement("flags"));
    private static final long mem = LAYOUT.byteOffset(groupElement("mem"));
    private static final VarHandle fd = LAYOUT.varHandle(groupElement("fd"));
    private static final VarHandle pos = LAYOUT.varHandle(groupElement("pos"));

    public static long size(long b) { return (long) size.get(ALL, b); }
    public static int flags(long b) { return (int) flags.get(ALL, b); }
    public static long mem(long b) { return Native.getAddress(b + mem); }
    public static int fd(long b) { return (int) fd.get(ALL, b); }
    public static long pos(long b) { return (long) pos.get(ALL, b); }

    public static void size(long b, long v) { size.set(ALL, b, v); }
    public static void flags(long b, int v) { flags.set(ALL, b, v); }
    public static void mem(long b, long v) { Native.putAddress(b + mem, v); }
    public static void fd(long b, int v) { fd.set(ALL, b, v); }
    public static void pos(long b, long v) { pos.set(ALL, b, v); }
}
