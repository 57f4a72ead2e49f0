package dev.fusepanama.internal.view;

import dev.fusepanama.Stat;
import dev.fusepanama.internal.bind.stat;
import dev.fusepanama.internal.bind.timespec;
import java.lang.foreign.MemorySegment;

/** {@link Stat} over a {@code struct stat} at a changing address. */
public final class NativeStat implements Stat {
    private long a;

    public NativeStat at(long address) {
        this.a = address;
        return this;
    }

    public long address() { return a; }

    @Override public MemorySegment segment() { return MemorySegment.ofAddress(a).reinterpret(stat.SIZE); }

    @Override public void clear() { stat.clear(a); }
    @Override public int mode() { return stat.st_mode(a); }
    @Override public Stat setMode(int mode) { stat.st_mode(a, mode); return this; }
    @Override public long ino() { return stat.st_ino(a); }
    @Override public Stat setIno(long ino) { stat.st_ino(a, ino); return this; }
    @Override public long nlink() { return stat.st_nlink(a); }
    @Override public Stat setNlink(long nlink) { stat.st_nlink(a, nlink); return this; }
    @Override public int uid() { return stat.st_uid(a); }
    @Override public Stat setUid(int uid) { stat.st_uid(a, uid); return this; }
    @Override public int gid() { return stat.st_gid(a); }
    @Override public Stat setGid(int gid) { stat.st_gid(a, gid); return this; }
    @Override public long rdev() { return stat.st_rdev(a); }
    @Override public Stat setRdev(long rdev) { stat.st_rdev(a, rdev); return this; }
    @Override public long size() { return stat.st_size(a); }
    @Override public Stat setSize(long size) { stat.st_size(a, size); return this; }
    @Override public long blksize() { return stat.st_blksize(a); }
    @Override public Stat setBlksize(long blksize) { stat.st_blksize(a, blksize); return this; }
    @Override public long blocks() { return stat.st_blocks(a); }
    @Override public Stat setBlocks(long blocks) { stat.st_blocks(a, blocks); return this; }

    @Override public long atimeSeconds() { return timespec.tv_sec(a + stat.st_atim); }
    @Override public long atimeNanos() { return timespec.tv_nsec(a + stat.st_atim); }
    @Override public Stat setAtime(long s, long ns) { return time(stat.st_atim, s, ns); }
    @Override public long mtimeSeconds() { return timespec.tv_sec(a + stat.st_mtim); }
    @Override public long mtimeNanos() { return timespec.tv_nsec(a + stat.st_mtim); }
    @Override public Stat setMtime(long s, long ns) { return time(stat.st_mtim, s, ns); }
    @Override public long ctimeSeconds() { return timespec.tv_sec(a + stat.st_ctim); }
    @Override public long ctimeNanos() { return timespec.tv_nsec(a + stat.st_ctim); }
    @Override public Stat setCtime(long s, long ns) { return time(stat.st_ctim, s, ns); }

    private Stat time(long field, long seconds, long nanos) {
        timespec.tv_sec(a + field, seconds);
        timespec.tv_nsec(a + field, nanos);
        return this;
    }
}
