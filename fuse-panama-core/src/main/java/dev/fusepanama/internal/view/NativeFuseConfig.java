package dev.fusepanama.internal.view;

import static dev.fusepanama.internal.bind.Native.ALL;

import dev.fusepanama.FuseConfig;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.PathOptions;
import dev.fusepanama.internal.bind.fuse_config;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@link FuseConfig} over libfuse's {@code struct fuse_config}. The fields up to {@code auto_cache}
 * never moved; of the others only {@code nullpath_ok} is used, at the loaded release's offset.
 */
public final class NativeFuseConfig implements FuseConfig {
    private static final VarHandle USE_INO = fuse_config.intField(fuse_config.LAYOUT_310, "use_ino");
    private static final VarHandle READDIR_INO = fuse_config.intField(fuse_config.LAYOUT_310, "readdir_ino");
    private static final VarHandle HARD_REMOVE = fuse_config.intField(fuse_config.LAYOUT_310, "hard_remove");
    private static final VarHandle DIRECT_IO = fuse_config.intField(fuse_config.LAYOUT_310, "direct_io");
    private static final VarHandle KERNEL_CACHE = fuse_config.intField(fuse_config.LAYOUT_310, "kernel_cache");
    private static final VarHandle AUTO_CACHE = fuse_config.intField(fuse_config.LAYOUT_310, "auto_cache");
    private static final VarHandle INTR = fuse_config.intField(fuse_config.LAYOUT_310, "intr");

    private final long a;
    private final VarHandle nullpathOk;
    private final VarHandle acAttrTimeoutSet;
    private final VarHandle acAttrTimeout;

    /** @param layout the loaded release's {@code struct fuse_config} ({@link fuse_config#layout}) */
    public NativeFuseConfig(long address, StructLayout layout) {
        this.a = address;
        this.nullpathOk = fuse_config.intField(layout, "nullpath_ok");
        this.acAttrTimeoutSet = fuse_config.intField(layout, "ac_attr_timeout_set");
        this.acAttrTimeout = fuse_config.intField(layout, "ac_attr_timeout");
    }

    private boolean flag(VarHandle h) { return (int) h.get(ALL, a) != 0; }

    private void set(VarHandle h, boolean on) {
        if (on) {
            h.set(ALL, a, 1);
        }
    }

    @Override public double entryTimeout() { return fuse_config.entry_timeout(a); }
    @Override public double negativeTimeout() { return fuse_config.negative_timeout(a); }
    @Override public double attrTimeout() { return fuse_config.attr_timeout(a); }
    @Override public boolean useIno() { return flag(USE_INO); }
    @Override public boolean readdirIno() { return flag(READDIR_INO); }
    @Override public boolean hardRemove() { return flag(HARD_REMOVE); }
    @Override public boolean nullPathOk() { return flag(nullpathOk); }
    @Override public boolean directIo() { return flag(DIRECT_IO); }
    @Override public boolean kernelCache() { return flag(KERNEL_CACHE); }
    @Override public boolean autoCache() { return flag(AUTO_CACHE); }
    @Override public boolean interrupts() { return flag(INTR); }

    /**
     * Applies the path layer's settings and the filesystem's timeouts and page-cache modes over
     * what libfuse parsed from the {@code -o} options (which hold none of them:
     * {@link dev.fusepanama.MountOptions} refuses those as raw options).
     *
     * @param interruptsAfterInit whether libfuse installs its interrupt signal after init
     *        (3.17+); before, setting {@code intr} here would have it send a signal nobody handles
     */
    public void apply(PathOptions options, KernelSettings settings, boolean interrupts, boolean interruptsAfterInit) {
        settings.attrTimeout().ifPresent(s -> {
            fuse_config.attr_timeout(a, s);
            // fuse_new copied the default attr_timeout into ac_attr_timeout before this ran.
            if ((int) acAttrTimeoutSet.get(ALL, a) == 0) {
                acAttrTimeout.set(ALL, a, s);
            }
        });
        settings.entryTimeout().ifPresent(s -> fuse_config.entry_timeout(a, s));
        fuse_config.negative_timeout(a, settings.negativeTimeout());
        set(DIRECT_IO, settings.directIo());
        set(KERNEL_CACHE, settings.keepCache());
        set(AUTO_CACHE, settings.autoCache());
        set(HARD_REMOVE, options.hardRemove());
        set(nullpathOk, options.nullPathOk());
        set(USE_INO, options.useIno());
        set(READDIR_INO, options.readdirIno());
        set(INTR, interrupts && interruptsAfterInit);
    }
}
