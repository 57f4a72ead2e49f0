package dev.fusepanama.internal.view;

import static dev.fusepanama.internal.bind.Native.ALL;

import dev.fusepanama.FuseConfig;
import dev.fusepanama.internal.bind.fuse_config;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * {@link FuseConfig} over libfuse's {@code struct fuse_config}. The fields up to {@code auto_cache}
 * never moved; of the others only {@code nullpath_ok} is written, at the loaded release's offset.
 */
public final class NativeFuseConfig implements FuseConfig {
    private static final VarHandle USE_INO = fuse_config.intField(fuse_config.LAYOUT_310, "use_ino");
    private static final VarHandle READDIR_INO = fuse_config.intField(fuse_config.LAYOUT_310, "readdir_ino");
    private static final VarHandle HARD_REMOVE = fuse_config.intField(fuse_config.LAYOUT_310, "hard_remove");
    private static final VarHandle DIRECT_IO = fuse_config.intField(fuse_config.LAYOUT_310, "direct_io");
    private static final VarHandle KERNEL_CACHE = fuse_config.intField(fuse_config.LAYOUT_310, "kernel_cache");
    private static final VarHandle AUTO_CACHE = fuse_config.intField(fuse_config.LAYOUT_310, "auto_cache");
    private static final VarHandle INTR = fuse_config.intField(fuse_config.LAYOUT_310, "intr");
    private static final VarHandle SET_UID = fuse_config.intField(fuse_config.LAYOUT_310, "set_uid");
    private static final VarHandle UID = fuse_config.intField(fuse_config.LAYOUT_310, "uid");
    private static final VarHandle SET_GID = fuse_config.intField(fuse_config.LAYOUT_310, "set_gid");
    private static final VarHandle GID = fuse_config.intField(fuse_config.LAYOUT_310, "gid");
    private static final VarHandle SET_MODE = fuse_config.intField(fuse_config.LAYOUT_310, "set_mode");
    private static final VarHandle UMASK = fuse_config.intField(fuse_config.LAYOUT_310, "umask");

    private final long a;
    private final VarHandle nullpathOk;

    /** @param layout the loaded release's {@code struct fuse_config} ({@link fuse_config#layout}) */
    public NativeFuseConfig(long address, StructLayout layout) {
        this.a = address;
        this.nullpathOk = fuse_config.intField(layout, "nullpath_ok");
    }

    private boolean flag(VarHandle h) { return (int) h.get(ALL, a) != 0; }

    private FuseConfig flag(VarHandle h, boolean on) {
        h.set(ALL, a, on ? 1 : 0);
        return this;
    }

    @Override public double entryTimeout() { return fuse_config.entry_timeout(a); }
    @Override public FuseConfig setEntryTimeout(double s) { fuse_config.entry_timeout(a, s); return this; }
    @Override public double negativeTimeout() { return fuse_config.negative_timeout(a); }
    @Override public FuseConfig setNegativeTimeout(double s) { fuse_config.negative_timeout(a, s); return this; }
    @Override public double attrTimeout() { return fuse_config.attr_timeout(a); }
    @Override public FuseConfig setAttrTimeout(double s) { fuse_config.attr_timeout(a, s); return this; }
    @Override public boolean useIno() { return flag(USE_INO); }
    @Override public FuseConfig setUseIno(boolean on) { return flag(USE_INO, on); }
    @Override public boolean readdirIno() { return flag(READDIR_INO); }
    @Override public FuseConfig setReaddirIno(boolean on) { return flag(READDIR_INO, on); }
    @Override public boolean hardRemove() { return flag(HARD_REMOVE); }
    @Override public FuseConfig setHardRemove(boolean on) { return flag(HARD_REMOVE, on); }
    @Override public boolean nullPathOk() { return flag(nullpathOk); }
    @Override public FuseConfig setNullPathOk(boolean on) { return flag(nullpathOk, on); }
    @Override public boolean directIo() { return flag(DIRECT_IO); }
    @Override public FuseConfig setDirectIo(boolean on) { return flag(DIRECT_IO, on); }
    @Override public boolean kernelCache() { return flag(KERNEL_CACHE); }
    @Override public FuseConfig setKernelCache(boolean on) { return flag(KERNEL_CACHE, on); }
    @Override public boolean autoCache() { return flag(AUTO_CACHE); }
    @Override public FuseConfig setAutoCache(boolean on) { return flag(AUTO_CACHE, on); }
    @Override public boolean interrupts() { return flag(INTR); }
    @Override public FuseConfig setInterrupts(boolean on) { return flag(INTR, on); }

    @Override
    public FuseConfig setUid(int uid) {
        SET_UID.set(ALL, a, 1);
        UID.set(ALL, a, uid);
        return this;
    }

    @Override
    public FuseConfig setGid(int gid) {
        SET_GID.set(ALL, a, 1);
        GID.set(ALL, a, gid);
        return this;
    }

    @Override
    public FuseConfig setUmask(int umask) {
        SET_MODE.set(ALL, a, 1);
        UMASK.set(ALL, a, umask);
        return this;
    }
}
