package dev.fusepanama.internal.view;

import static dev.fusepanama.internal.bind.Native.ALL;

import dev.fusepanama.FuseConfig;
import dev.fusepanama.internal.bind.fuse_config;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@link FuseConfig} over libfuse's {@code struct fuse_config}. */
public final class NativeFuseConfig implements FuseConfig {
    private final long a;
    private final VarHandle useIno;
    private final VarHandle readdirIno;
    private final VarHandle hardRemove;
    private final VarHandle nullpathOk;
    private final VarHandle directIo;
    private final VarHandle kernelCache;
    private final VarHandle autoCache;
    private final VarHandle intr;
    private final VarHandle setUid;
    private final VarHandle uid;
    private final VarHandle setGid;
    private final VarHandle gid;
    private final VarHandle setMode;
    private final VarHandle umask;

    /** @param layout the loaded release's {@code struct fuse_config} ({@link fuse_config#layout}) */
    public NativeFuseConfig(long address, StructLayout layout) {
        this.a = address;
        this.useIno = fuse_config.intField(layout, "use_ino");
        this.readdirIno = fuse_config.intField(layout, "readdir_ino");
        this.hardRemove = fuse_config.intField(layout, "hard_remove");
        this.nullpathOk = fuse_config.intField(layout, "nullpath_ok");
        this.directIo = fuse_config.intField(layout, "direct_io");
        this.kernelCache = fuse_config.intField(layout, "kernel_cache");
        this.autoCache = fuse_config.intField(layout, "auto_cache");
        this.intr = fuse_config.intField(layout, "intr");
        this.setUid = fuse_config.intField(layout, "set_uid");
        this.uid = fuse_config.intField(layout, "uid");
        this.setGid = fuse_config.intField(layout, "set_gid");
        this.gid = fuse_config.intField(layout, "gid");
        this.setMode = fuse_config.intField(layout, "set_mode");
        this.umask = fuse_config.intField(layout, "umask");
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
    @Override public boolean useIno() { return flag(useIno); }
    @Override public FuseConfig setUseIno(boolean on) { return flag(useIno, on); }
    @Override public boolean readdirIno() { return flag(readdirIno); }
    @Override public FuseConfig setReaddirIno(boolean on) { return flag(readdirIno, on); }
    @Override public boolean hardRemove() { return flag(hardRemove); }
    @Override public FuseConfig setHardRemove(boolean on) { return flag(hardRemove, on); }
    @Override public boolean nullPathOk() { return flag(nullpathOk); }
    @Override public FuseConfig setNullPathOk(boolean on) { return flag(nullpathOk, on); }
    @Override public boolean directIo() { return flag(directIo); }
    @Override public FuseConfig setDirectIo(boolean on) { return flag(directIo, on); }
    @Override public boolean kernelCache() { return flag(kernelCache); }
    @Override public FuseConfig setKernelCache(boolean on) { return flag(kernelCache, on); }
    @Override public boolean autoCache() { return flag(autoCache); }
    @Override public FuseConfig setAutoCache(boolean on) { return flag(autoCache, on); }
    @Override public boolean interrupts() { return flag(intr); }
    @Override public FuseConfig setInterrupts(boolean on) { return flag(intr, on); }

    @Override
    public FuseConfig setUid(int uid) {
        setUid.set(ALL, a, 1);
        this.uid.set(ALL, a, uid);
        return this;
    }

    @Override
    public FuseConfig setGid(int gid) {
        setGid.set(ALL, a, 1);
        this.gid.set(ALL, a, gid);
        return this;
    }

    @Override
    public FuseConfig setUmask(int umask) {
        setMode.set(ALL, a, 1);
        this.umask.set(ALL, a, umask);
        return this;
    }
}
