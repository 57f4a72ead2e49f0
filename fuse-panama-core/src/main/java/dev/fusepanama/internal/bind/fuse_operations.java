package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.Arrays;

/**
 * {@code struct fuse_operations} (fuse.h): one function pointer per operation, in
 * header order. A NULL slot tells libfuse the operation is absent, and libfuse then answers the
 * kernel itself (often ENOSYS, after which the kernel stops asking).
 */
public final class fuse_operations {
    private fuse_operations() {}

    private static final MemoryLayout[] SLOTS = {
            C_ADDRESS.withName("getattr"),
            C_ADDRESS.withName("readlink"),
            C_ADDRESS.withName("mknod"),
            C_ADDRESS.withName("mkdir"),
            C_ADDRESS.withName("unlink"),
            C_ADDRESS.withName("rmdir"),
            C_ADDRESS.withName("symlink"),
            C_ADDRESS.withName("rename"),
            C_ADDRESS.withName("link"),
            C_ADDRESS.withName("chmod"),
            C_ADDRESS.withName("chown"),
            C_ADDRESS.withName("truncate"),
            C_ADDRESS.withName("open"),
            C_ADDRESS.withName("read"),
            C_ADDRESS.withName("write"),
            C_ADDRESS.withName("statfs"),
            C_ADDRESS.withName("flush"),
            C_ADDRESS.withName("release"),
            C_ADDRESS.withName("fsync"),
            C_ADDRESS.withName("setxattr"),
            C_ADDRESS.withName("getxattr"),
            C_ADDRESS.withName("listxattr"),
            C_ADDRESS.withName("removexattr"),
            C_ADDRESS.withName("opendir"),
            C_ADDRESS.withName("readdir"),
            C_ADDRESS.withName("releasedir"),
            C_ADDRESS.withName("fsyncdir"),
            C_ADDRESS.withName("init"),
            C_ADDRESS.withName("destroy"),
            C_ADDRESS.withName("access"),
            C_ADDRESS.withName("create"),
            C_ADDRESS.withName("lock"),
            C_ADDRESS.withName("utimens"),
            C_ADDRESS.withName("bmap"),
            C_ADDRESS.withName("ioctl"),
            C_ADDRESS.withName("poll"),
            C_ADDRESS.withName("write_buf"),
            C_ADDRESS.withName("read_buf"),
            C_ADDRESS.withName("flock"),
            C_ADDRESS.withName("fallocate"),
            C_ADDRESS.withName("copy_file_range"),
            C_ADDRESS.withName("lseek")};

    /** 3.10 to 3.17.x: 42 operations. */
    public static final StructLayout LAYOUT_310 = MemoryLayout.structLayout(SLOTS).withName("fuse_operations");

    /** 3.18 and later appended {@code statx}. */
    public static final StructLayout LAYOUT_318 = MemoryLayout.structLayout(withStatx()).withName("fuse_operations");

    private static MemoryLayout[] withStatx() {
        MemoryLayout[] slots = Arrays.copyOf(SLOTS, SLOTS.length + 1);
        slots[SLOTS.length] = C_ADDRESS.withName("statx");
        return slots;
    }

    /**
     * The table handed to {@code fuse_new} with its size: libfuse copies that many bytes and
     * leaves later slots empty.
     */
    public static StructLayout layout(LibFuseVersion version) {
        return version.atLeast(3, 18, 0) ? LAYOUT_318 : LAYOUT_310;
    }

    /** Offset of the slot for the operation named as in C; the same in every release. */
    public static long offset(String operation) {
        return LAYOUT_310.byteOffset(groupElement(operation));
    }
}
