package dev.fusepanama.internal.view;

import dev.fusepanama.StatVfs;
import dev.fusepanama.libc.structs.statvfs;

/** {@link StatVfs} over a {@code struct statvfs}. */
public final class NativeStatVfs implements StatVfs {
    private long a;

    public NativeStatVfs at(long address) {
        this.a = address;
        return this;
    }

    @Override public StatVfs setBlockSize(long v) { statvfs.f_bsize(a, v); return this; }
    @Override public StatVfs setFragmentSize(long v) { statvfs.f_frsize(a, v); return this; }
    @Override public StatVfs setBlocks(long v) { statvfs.f_blocks(a, v); return this; }
    @Override public StatVfs setBlocksFree(long v) { statvfs.f_bfree(a, v); return this; }
    @Override public StatVfs setBlocksAvailable(long v) { statvfs.f_bavail(a, v); return this; }
    @Override public StatVfs setFiles(long v) { statvfs.f_files(a, v); return this; }
    @Override public StatVfs setFilesFree(long v) { statvfs.f_ffree(a, v); return this; }
    @Override public StatVfs setFilesAvailable(long v) { statvfs.f_favail(a, v); return this; }
    @Override public StatVfs setFsid(long v) { statvfs.f_fsid(a, v); return this; }
    @Override public StatVfs setFlags(long v) { statvfs.f_flag(a, v); return this; }
    @Override public StatVfs setNameMax(long v) { statvfs.f_namemax(a, v); return this; }
    @Override public long blockSize() { return statvfs.f_bsize(a); }
    @Override public long fragmentSize() { return statvfs.f_frsize(a); }
    @Override public long blocks() { return statvfs.f_blocks(a); }
    @Override public long blocksFree() { return statvfs.f_bfree(a); }
    @Override public long blocksAvailable() { return statvfs.f_bavail(a); }
    @Override public long files() { return statvfs.f_files(a); }
    @Override public long filesFree() { return statvfs.f_ffree(a); }
    @Override public long filesAvailable() { return statvfs.f_favail(a); }
    @Override public long nameMax() { return statvfs.f_namemax(a); }
}
