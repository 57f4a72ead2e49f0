package dev.fusepanama.internal.view;

import dev.fusepanama.Statx;
import dev.fusepanama.libc.structs.statx;

/** {@link Statx} over a {@code struct statx} at a changing address. */
public final class NativeStatx implements Statx {
    private long a;

    public NativeStatx at(long address) {
        this.a = address;
        return this;
    }

    @Override public int mask() { return statx.getInt(a, statx.MASK); }
    @Override public Statx setMask(int mask) { statx.setInt(a, statx.MASK, mask); return this; }
    @Override public int mode() { return statx.mode(a); }
    @Override public Statx setMode(int mode) { statx.mode(a, mode); return this; }
    @Override public long ino() { return statx.getLong(a, statx.INO); }
    @Override public Statx setIno(long ino) { statx.setLong(a, statx.INO, ino); return this; }
    @Override public long nlink() { return Integer.toUnsignedLong(statx.getInt(a, statx.NLINK)); }
    @Override public Statx setNlink(long nlink) { statx.setInt(a, statx.NLINK, (int) nlink); return this; }
    @Override public int uid() { return statx.getInt(a, statx.UID); }
    @Override public Statx setUid(int uid) { statx.setInt(a, statx.UID, uid); return this; }
    @Override public int gid() { return statx.getInt(a, statx.GID); }
    @Override public Statx setGid(int gid) { statx.setInt(a, statx.GID, gid); return this; }
    @Override public long size() { return statx.getLong(a, statx.SIZE_FIELD); }
    @Override public Statx setSize(long size) { statx.setLong(a, statx.SIZE_FIELD, size); return this; }
    @Override public long blocks() { return statx.getLong(a, statx.BLOCKS); }
    @Override public Statx setBlocks(long blocks) { statx.setLong(a, statx.BLOCKS, blocks); return this; }
    @Override public int blksize() { return statx.getInt(a, statx.BLKSIZE); }
    @Override public Statx setBlksize(int blksize) { statx.setInt(a, statx.BLKSIZE, blksize); return this; }
    @Override public long attributes() { return statx.getLong(a, statx.ATTRIBUTES); }
    @Override public long attributesMask() { return statx.getLong(a, statx.ATTRIBUTES_MASK); }

    @Override
    public Statx setAttributes(long attributes, long attributesMask) {
        statx.setLong(a, statx.ATTRIBUTES, attributes);
        statx.setLong(a, statx.ATTRIBUTES_MASK, attributesMask);
        return this;
    }

    @Override
    public Statx setRdev(int major, int minor) {
        statx.setInt(a, statx.RDEV_MAJOR, major);
        statx.setInt(a, statx.RDEV_MINOR, minor);
        return this;
    }

    @Override public Statx setAtime(long seconds, int nanos) { return time(statx.ATIME, seconds, nanos); }
    @Override public Statx setBtime(long seconds, int nanos) { return time(statx.BTIME, seconds, nanos); }
    @Override public Statx setCtime(long seconds, int nanos) { return time(statx.CTIME, seconds, nanos); }
    @Override public Statx setMtime(long seconds, int nanos) { return time(statx.MTIME, seconds, nanos); }
    @Override public long btimeSeconds() { return statx.getLong(a, statx.BTIME); }
    @Override public int btimeNanos() { return statx.getInt(a, statx.BTIME + statx.TV_NSEC); }

    private Statx time(long field, long seconds, int nanos) {
        statx.setLong(a, field, seconds);
        statx.setInt(a, field + statx.TV_NSEC, nanos);
        return this;
    }
}
