package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct fuse_forget_data} (fuse_lowlevel.h): one entry of a batch forget. */
public final class fuse_forget_data {
    private fuse_forget_data() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_LONG.withName("ino"),
            C_LONG.withName("nlookup")).withName("fuse_forget_data");

    private static final VarHandle ino = LAYOUT.varHandle(groupElement("ino"));
    private static final VarHandle nlookup = LAYOUT.varHandle(groupElement("nlookup"));

    public static long ino(long f) { return (long) ino.get(ALL, f); }
    public static long nlookup(long f) { return (long) nlookup.get(ALL, f); }
}
