package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct fuse_ctx} (fuse_lowlevel.h): who made a low-level request; valid until it is answered. */
public final class fuse_ctx {
    private fuse_ctx() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_INT.withName("uid"),
            C_INT.withName("gid"),
            C_INT.withName("pid"),
            C_INT.withName("umask")).withName("fuse_ctx");

    private static final VarHandle uid = LAYOUT.varHandle(groupElement("uid"));
    private static final VarHandle gid = LAYOUT.varHandle(groupElement("gid"));
    private static final VarHandle pid = LAYOUT.varHandle(groupElement("pid"));
    private static final VarHandle umask = LAYOUT.varHandle(groupElement("umask"));

    public static int uid(long c) { return (int) uid.get(ALL, c); }
    public static int gid(long c) { return (int) gid.get(ALL, c); }
    public static int pid(long c) { return (int) pid.get(ALL, c); }
    public static int umask(long c) { return (int) umask.get(ALL, c); }
}
