package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_INT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code struct fuse_loop_config_v1} (fuse_common.h): the public loop config that
 * {@code fuse_loop_mt_32} takes on libfuse 3.2 to 3.11, before fuse_loop_cfg_create existed.
 */
public final class fuse_loop_config_v1 {
    private fuse_loop_config_v1() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_INT.withName("clone_fd"),
            C_INT.withName("max_idle_threads")).withName("fuse_loop_config_v1");

    public static void set(MemorySegment config, boolean cloneFd, int maxIdleThreads) {
        config.set(ValueLayout.JAVA_INT, 0, cloneFd ? 1 : 0);
        config.set(ValueLayout.JAVA_INT, 4, maxIdleThreads);
    }
}
