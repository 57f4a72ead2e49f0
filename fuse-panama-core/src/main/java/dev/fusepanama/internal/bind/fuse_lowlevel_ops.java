package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.Arrays;

/**
 * {@code struct fuse_lowlevel_ops} (fuse_lowlevel.h): the inode-based API's operations, one
 * function pointer each. Releases only ever appended slots: 3.17 {@code tmpfile}, 3.18
 * {@code statx}. libfuse copies as many bytes as it is given and answers ENOSYS for an empty
 * slot; a present slot also negotiates capabilities ({@code write_buf} splice reads,
 * {@code flock} and {@code getlk}+{@code setlk} locks, {@code readdirplus}), so only operations a
 * filesystem implements may be filled.
 */
public final class fuse_lowlevel_ops {
    private fuse_lowlevel_ops() {}

    private static final String[] NAMES_310 = {
            "init", "destroy", "lookup", "forget", "getattr", "setattr", "readlink", "mknod", "mkdir", "unlink",
            "rmdir", "symlink", "rename", "link", "open", "read", "write", "flush", "release", "fsync",
            "opendir", "readdir", "releasedir", "fsyncdir", "statfs", "setxattr", "getxattr", "listxattr",
            "removexattr", "access", "create", "getlk", "setlk", "bmap", "ioctl", "poll", "write_buf",
            "retrieve_reply", "forget_multi", "flock", "fallocate", "readdirplus", "copy_file_range", "lseek"};

    /** 3.10 to 3.16: 44 operations. */
    public static final StructLayout LAYOUT_310 = layout(NAMES_310);
    /** 3.17 appended {@code tmpfile}. */
    public static final StructLayout LAYOUT_317 = layout(append(NAMES_310, "tmpfile"));
    /** 3.18 appended {@code statx}. */
    public static final StructLayout LAYOUT_318 = layout(append(append(NAMES_310, "tmpfile"), "statx"));

    private static String[] append(String[] names, String name) {
        String[] more = Arrays.copyOf(names, names.length + 1);
        more[names.length] = name;
        return more;
    }

    private static StructLayout layout(String[] names) {
        return MemoryLayout.structLayout(Arrays.stream(names).map(C_ADDRESS::withName).toArray(MemoryLayout[]::new))
                .withName("fuse_lowlevel_ops");
    }

    /** The loaded release's struct, as its headers declare it. */
    public static StructLayout layout(LibFuseVersion version) {
        return version.atLeast(3, 18, 0) ? LAYOUT_318 : version.atLeast(3, 17, 0) ? LAYOUT_317 : LAYOUT_310;
    }

    /** Offset of the slot named as in C; the same in every release that has it. */
    public static long offset(String operation) {
        return LAYOUT_318.byteOffset(groupElement(operation));
    }
}
