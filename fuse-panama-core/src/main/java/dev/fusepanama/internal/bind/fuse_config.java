package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.ALL;
import static dev.fusepanama.internal.bind.Native.C_ADDRESS;
import static dev.fusepanama.internal.bind.Native.C_DOUBLE;
import static dev.fusepanama.internal.bind.Native.C_INT;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@code struct fuse_config} (fuse.h): the high-level library's settings, writable in init.
 * libfuse allocates it, so only the offsets matter, and they moved twice:
 * <ul>
 *   <li>3.10: {@code auto_cache}, then {@code ac_attr_timeout_set}, {@code ac_attr_timeout},
 *       {@code nullpath_ok}, {@code show_help}, {@code modules}, {@code debug};</li>
 *   <li>3.11 to 3.14.0 inserted {@code no_rofd_flush} after {@code auto_cache};</li>
 *   <li>3.14.1 to 3.16.x also inserted {@code parallel_direct_writes} after {@code nullpath_ok};</li>
 *   <li>3.17 restored the 3.10 order (the ABI break is why its soname is {@code libfuse3.so.4})
 *       and appended {@code fmask}, {@code dmask}, {@code no_rofd_flush},
 *       {@code parallel_direct_writes}, {@code flags} and reserved space.</li>
 * </ul>
 * Writing {@code nullpath_ok} at the 3.14.0 offset of a 3.17 library sets its {@code modules}
 * pointer to 1, which {@code fuse_destroy} then frees: the unmount crash this class exists to avoid.
 * The fields before {@code auto_cache} never moved; their handles below work for every release.
 */
public final class fuse_config {
    private fuse_config() {}

    private static final MemoryLayout[] PREFIX = {
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
            C_INT.withName("auto_cache")};

    private static StructLayout struct(MemoryLayout... rest) {
        MemoryLayout[] all = Arrays.copyOf(PREFIX, PREFIX.length + rest.length);
        System.arraycopy(rest, 0, all, PREFIX.length, rest.length);
        return MemoryLayout.structLayout(all).withName("fuse_config");
    }

    /** 3.10.x. */
    public static final StructLayout LAYOUT_310 = struct(
            C_INT.withName("ac_attr_timeout_set"),
            C_DOUBLE.withName("ac_attr_timeout"),
            C_INT.withName("nullpath_ok"),
            C_INT.withName("show_help"),
            C_ADDRESS.withName("modules"),
            C_INT.withName("debug"),
            MemoryLayout.paddingLayout(4));

    /** 3.11.0 to 3.14.0. */
    public static final StructLayout LAYOUT_311 = struct(
            C_INT.withName("no_rofd_flush"),
            C_INT.withName("ac_attr_timeout_set"),
            MemoryLayout.paddingLayout(4),
            C_DOUBLE.withName("ac_attr_timeout"),
            C_INT.withName("nullpath_ok"),
            C_INT.withName("show_help"),
            C_ADDRESS.withName("modules"),
            C_INT.withName("debug"),
            MemoryLayout.paddingLayout(4));

    /** 3.14.1 to 3.16.x. */
    public static final StructLayout LAYOUT_3141 = struct(
            C_INT.withName("no_rofd_flush"),
            C_INT.withName("ac_attr_timeout_set"),
            MemoryLayout.paddingLayout(4),
            C_DOUBLE.withName("ac_attr_timeout"),
            C_INT.withName("nullpath_ok"),
            C_INT.withName("parallel_direct_writes"),
            C_INT.withName("show_help"),
            MemoryLayout.paddingLayout(4),
            C_ADDRESS.withName("modules"),
            C_INT.withName("debug"),
            MemoryLayout.paddingLayout(4));

    /** 3.17 and later. */
    public static final StructLayout LAYOUT_317 = struct(
            C_INT.withName("ac_attr_timeout_set"),
            C_DOUBLE.withName("ac_attr_timeout"),
            C_INT.withName("nullpath_ok"),
            C_INT.withName("show_help"),
            C_ADDRESS.withName("modules"),
            C_INT.withName("debug"),
            C_INT.withName("fmask"),
            C_INT.withName("dmask"),
            C_INT.withName("no_rofd_flush"),
            C_INT.withName("parallel_direct_writes"),
            C_INT.withName("flags"),
            MemoryLayout.sequenceLayout(48, Native.C_LONG).withName("reserved"));

    /** The layout of {@code version}. */
    public static StructLayout layout(LibFuseVersion version) {
        if (version.atLeast(3, 17, 0)) return LAYOUT_317;
        if (version.atLeast(3, 14, 1)) return LAYOUT_3141;
        if (version.atLeast(3, 11, 0)) return LAYOUT_311;
        return LAYOUT_310;
    }

    /** Handle for an {@code int} field, by C name, in {@code layout}; used by the typed view, never per request. */
    public static VarHandle intField(StructLayout layout, String name) { return layout.varHandle(groupElement(name)); }

    private static final VarHandle entry_timeout = LAYOUT_310.varHandle(groupElement("entry_timeout"));
    private static final VarHandle negative_timeout = LAYOUT_310.varHandle(groupElement("negative_timeout"));
    private static final VarHandle attr_timeout = LAYOUT_310.varHandle(groupElement("attr_timeout"));

    public static double entry_timeout(long c) { return (double) entry_timeout.get(ALL, c); }
    public static double negative_timeout(long c) { return (double) negative_timeout.get(ALL, c); }
    public static double attr_timeout(long c) { return (double) attr_timeout.get(ALL, c); }
    public static void entry_timeout(long c, double v) { entry_timeout.set(ALL, c, v); }
    public static void negative_timeout(long c, double v) { negative_timeout.set(ALL, c, v); }
    public static void attr_timeout(long c, double v) { attr_timeout.set(ALL, c, v); }
}
