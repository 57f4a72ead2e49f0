package dev.fusepanama.internal.view;

import dev.fusepanama.Stat;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.structs.timespec;
import java.lang.foreign.MemorySegment;

/**
 * {@link Stat} over the {@code struct stat} at {@link #statAddress()}: the one implementation of
 * the view, shared by {@link NativeStat} and the inode API's replies (whose attributes live in
 * memory of their own once deferred).
 */
public interface StatFields extends Stat {
    /** Where the struct is now. */
    long statAddress();

    @Override default MemorySegment segment() { return MemorySegment.ofAddress(statAddress()).reinterpret(stat.SIZE); }

    @Override default void clear() { stat.clear(statAddress()); }
    @Override default int mode() { return stat.st_mode(statAddress()); }
    @Override default Stat setMode(int mode) { stat.st_mode(statAddress(), mode); return this; }
    @Override default long ino() { return stat.st_ino(statAddress()); }
    @Override default Stat setIno(long ino) { stat.st_ino(statAddress(), ino); return this; }
    @Override default long nlink() { return stat.st_nlink(statAddress()); }
    @Override default Stat setNlink(long nlink) { stat.st_nlink(statAddress(), nlink); return this; }
    @Override default int uid() { return stat.st_uid(statAddress()); }
    @Override default Stat setUid(int uid) { stat.st_uid(statAddress(), uid); return this; }
    @Override default int gid() { return stat.st_gid(statAddress()); }
    @Override default Stat setGid(int gid) { stat.st_gid(statAddress(), gid); return this; }
    @Override default long rdev() { return stat.st_rdev(statAddress()); }
    @Override default Stat setRdev(long rdev) { stat.st_rdev(statAddress(), rdev); return this; }
    @Override default long size() { return stat.st_size(statAddress()); }
    @Override default Stat setSize(long size) { stat.st_size(statAddress(), size); return this; }
    @Override default long blksize() { return stat.st_blksize(statAddress()); }
    @Override default Stat setBlksize(long blksize) { stat.st_blksize(statAddress(), blksize); return this; }
    @Override default long blocks() { return stat.st_blocks(statAddress()); }
    @Override default Stat setBlocks(long blocks) { stat.st_blocks(statAddress(), blocks); return this; }

    @Override default long atimeSeconds() { return timespec.tv_sec(statAddress() + stat.st_atim); }
    @Override default long atimeNanos() { return timespec.tv_nsec(statAddress() + stat.st_atim); }
    @Override default Stat setAtime(long s, long ns) { return time(stat.st_atim, s, ns); }
    @Override default long mtimeSeconds() { return timespec.tv_sec(statAddress() + stat.st_mtim); }
    @Override default long mtimeNanos() { return timespec.tv_nsec(statAddress() + stat.st_mtim); }
    @Override default Stat setMtime(long s, long ns) { return time(stat.st_mtim, s, ns); }
    @Override default long ctimeSeconds() { return timespec.tv_sec(statAddress() + stat.st_ctim); }
    @Override default long ctimeNanos() { return timespec.tv_nsec(statAddress() + stat.st_ctim); }
    @Override default Stat setCtime(long s, long ns) { return time(stat.st_ctim, s, ns); }

    private Stat time(long field, long seconds, long nanos) {
        long a = statAddress();
        timespec.tv_sec(a + field, seconds);
        timespec.tv_nsec(a + field, nanos);
        return this;
    }
}
