package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static dev.fusepanama.internal.bind.Native.C_INT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/** {@code struct fuse_args} (fuse_opt.h): argc/argv handed to fuse_new. */
public final class fuse_args {
    private fuse_args() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_INT.withName("argc"),
            MemoryLayout.paddingLayout(4),
            C_ADDRESS.withName("argv"),
            C_INT.withName("allocated"),
            MemoryLayout.paddingLayout(4)).withName("fuse_args");

    public static void set(MemorySegment args, int argc, MemorySegment argv) {
        args.set(ValueLayout.JAVA_INT, 0, argc);
        args.set(ValueLayout.ADDRESS, 8, argv);
        args.set(ValueLayout.JAVA_INT, 16, 0);
    }
}
