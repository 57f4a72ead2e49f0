package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_DOUBLE;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct fuse_entry_param} (fuse_lowlevel.h): a name's inode, its generation, its
 * attributes and how long the kernel may cache the name and the attributes. The same in every
 * release.
 */
public final class fuse_entry_param {
    private fuse_entry_param() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_LONG.withName("ino"),
            C_LONG.withName("generation"),
            stat.LAYOUT.withName("attr"),
            C_DOUBLE.withName("attr_timeout"),
            C_DOUBLE.withName("entry_timeout")).withName("fuse_entry_param");

    /** Offset of the embedded {@code struct stat}. */
    public static final long ATTR = LAYOUT.byteOffset(groupElement("attr"));

    private static final VarHandle ino = LAYOUT.varHandle(groupElement("ino"));
    private static final VarHandle generation = LAYOUT.varHandle(groupElement("generation"));
    private static final VarHandle attr_timeout = LAYOUT.varHandle(groupElement("attr_timeout"));
    private static final VarHandle entry_timeout = LAYOUT.varHandle(groupElement("entry_timeout"));

    public static void ino(long e, long v) { ino.set(ALL, e, v); }
    public static void generation(long e, long v) { generation.set(ALL, e, v); }
    public static void attr_timeout(long e, double v) { attr_timeout.set(ALL, e, v); }
    public static void entry_timeout(long e, double v) { entry_timeout.set(ALL, e, v); }
}
