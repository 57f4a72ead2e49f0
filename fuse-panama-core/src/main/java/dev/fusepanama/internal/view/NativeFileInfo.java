package dev.fusepanama.internal.view;

import static dev.fusepanama.internal.bind.fuse_file_info.BIT_CACHE_READDIR;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_DIRECT_IO;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_FLOCK_RELEASE;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_FLUSH;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_KEEP_CACHE;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_NOFLUSH;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_NONSEEKABLE;
import static dev.fusepanama.internal.bind.fuse_file_info.BIT_WRITEPAGE;

import dev.fusepanama.FileInfo;
import dev.fusepanama.internal.bind.fuse_file_info;

/** {@link FileInfo} over a {@code struct fuse_file_info}. */
public final class NativeFileInfo implements FileInfo {
    private long a;

    /** Points at {@code address}; returns null for a NULL pointer so methods see "no open file". */
    public NativeFileInfo at(long address) {
        this.a = address;
        return address == 0 ? null : this;
    }

    @Override public int flags() { return fuse_file_info.flags(a); }
    @Override public long fh() { return fuse_file_info.fh(a); }
    @Override public FileInfo setFh(long fh) { fuse_file_info.fh(a, fh); return this; }
    @Override public FileInfo setDirectIo(boolean on) { fuse_file_info.bit(a, BIT_DIRECT_IO, on); return this; }
    @Override public boolean directIo() { return fuse_file_info.bit(a, BIT_DIRECT_IO); }
    @Override public FileInfo setKeepCache(boolean on) { fuse_file_info.bit(a, BIT_KEEP_CACHE, on); return this; }
    @Override public boolean keepCache() { return fuse_file_info.bit(a, BIT_KEEP_CACHE); }
    @Override public FileInfo setNonSeekable(boolean on) { fuse_file_info.bit(a, BIT_NONSEEKABLE, on); return this; }
    @Override public FileInfo setCacheReaddir(boolean on) { fuse_file_info.bit(a, BIT_CACHE_READDIR, on); return this; }
    @Override public FileInfo setNoFlush(boolean on) { fuse_file_info.bit(a, BIT_NOFLUSH, on); return this; }
    @Override public boolean writepage() { return fuse_file_info.bit(a, BIT_WRITEPAGE); }
    @Override public boolean flush() { return fuse_file_info.bit(a, BIT_FLUSH); }
    @Override public boolean flockRelease() { return fuse_file_info.bit(a, BIT_FLOCK_RELEASE); }
    @Override public long lockOwner() { return fuse_file_info.lock_owner(a); }
    @Override public int pollEvents() { return fuse_file_info.poll_events(a); }
}
