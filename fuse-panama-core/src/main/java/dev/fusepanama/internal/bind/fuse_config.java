package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static dev.fusepanama.internal.bind.Native.C_DOUBLE;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code struct fuse_config} (fuse.h): the high-level library's settings, writable in init.
 * Later releases append fields; the prefix mapped here is stable since 3.0, and libfuse
 * allocates the struct, so its growth never reaches us.
 */
public final class fuse_config {
    private fuse_config() {}

    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            C_INT.withName("set_gid"),
            C_INT.withName("gid"),
            C_INT.withName("set_uid"),
            C_INT.withName("uid"),
            C_INT.withName("set_mode"),
            C_INT.withName("umask"),
            C_DOUBLE.withName("entry_timeout"),
            C_DOUBLE.withName("negative_timeout"),
            C_DOUBLE.withName("attr_timeout"),
            C_INT.withName("intr"),
            C_INT.withName("intr_signal"),
            C_INT.withName("remember"),
            C_INT.withName("hard_remove"),
            C_INT.withName("use_ino"),
            C_INT.withName("readdir_ino"),
            C_INT.withName("direct_io"),
            C_INT.withName("kernel_cache"),
            C_INT.withName("auto_cache"),
            C_INT.withName("no_rofd_flush"),
            C_INT.withName("ac_attr_timeout_set"),
            MemoryLayout.paddingLayout(4),
            C_DOUBLE.withName("ac_attr_timeout"),
            C_INT.withName("nullpath_ok"),
            C_INT.withName("show_help"),
            C_ADDRESS.withName("modules"),
            C_INT.withName("debug"),
            MemoryLayout.paddingLayout(4)).withName("fuse_config");

    /** Handles for the {@code int} fields, by C name; used by the typed view, never per request. */
    public static VarHandle intField(String name) { return LAYOUT.varHandle(groupElement(name)); }

    private static final VarHandle entry_timeout = LAYOUT.varHandle(groupElement("entry_timeout"));
    private static final VarHandle negative_timeout = LAYOUT.varHandle(groupElement("negative_timeout"));
    private static final VarHandle attr_timeout = LAYOUT.varHandle(groupElement("attr_timeout"));
    private static final VarHandle ac_attr_timeout = LAYOUT.varHandle(groupElement("ac_attr_timeout"));

    public static double entry_timeout(long c) { return (double) entry_timeout.get(ALL, c); }
    public static double negative_timeout(long c) { return (double) negative_timeout.get(ALL, c); }
    public static double attr_timeout(long c) { return (double) attr_timeout.get(ALL, c); }
    public static double ac_attr_timeout(long c) { return (double) ac_attr_timeout.get(ALL, c); }
    public static void entry_timeout(long c, double v) { entry_timeout.set(ALL, c, v); }
    public static void negative_timeout(long c, double v) { negative_timeout.set(ALL, c, v); }
    public static void attr_timeout(long c, double v) { attr_timeout.set(ALL, c, v); }
    public static void ac_attr_timeout(long c, double v) { ac_attr_timeout.set(ALL, c, v); }
}
