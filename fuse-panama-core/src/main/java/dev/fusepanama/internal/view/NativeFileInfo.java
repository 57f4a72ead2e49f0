package dev.fusepanama.internal.view;

import dev.fusepanama.FileInfo;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.passthrough.BackingFiles;

/** {@link FileInfo} over a {@code struct fuse_file_info}, with the loaded release's bit positions. */
public final class NativeFileInfo implements FileInfo {
    private final fuse_file_info.Bits bits;
    private long a;
    /** During open/create of a mount that may pass files through: its backing files, and what was asked. */
    private BackingFiles backing;
    private BackingFiles.Pending pending;

    public NativeFileInfo(fuse_file_info.Bits bits) {
        this.bits = bits;
    }

    /** Points at {@code address}; returns null for a NULL pointer so methods see "no open file". */
    public NativeFileInfo at(long address) {
        this.a = address;
        return address == 0 ? null : this;
    }

    @Override public int flags() { return fuse_file_info.flags(a); }
    @Override public long fh() { return fuse_file_info.fh(a); }
    @Override public FileInfo setFh(long fh) { fuse_file_info.fh(a, fh); return this; }
    @Override public FileInfo setDirectIo(boolean on) { fuse_file_info.bit(a, bits.directIo(), on); return this; }
    @Override public boolean directIo() { return fuse_file_info.bit(a, bits.directIo()); }
    @Override public FileInfo setKeepCache(boolean on) { fuse_file_info.bit(a, bits.keepCache(), on); return this; }
    @Override public boolean keepCache() { return fuse_file_info.bit(a, bits.keepCache()); }
    @Override public FileInfo setNonSeekable(boolean on) { fuse_file_info.bit(a, bits.nonseekable(), on); return this; }
    @Override public FileInfo setCacheReaddir(boolean on) { fuse_file_info.bit(a, bits.cacheReaddir(), on); return this; }
    @Override public FileInfo setNoFlush(boolean on) { fuse_file_info.bit(a, bits.noflush(), on); return this; }
    /** Before the filesystem's open or create on a mount whose files may be passed through. */
    public void opening(BackingFiles backing) {
        this.backing = backing;
        this.pending = null;
    }

    @Override
    public boolean setPassthrough(int fd) {
        if (backing == null) {
            return false;
        }
        if (pending != null) {
            backing.settle(pending, -1, 0); // asked twice: the last one counts
            pending = null;
        }
        fuse_file_info.backing_id(a, 0);
        pending = backing.acquire(fd);
        return pending != null;
    }

    /**
     * After the filesystem's open or create returned {@code rc}: the open reply carries the
     * backing id, without keep-cache and non-seekable (the kernel fails an open that has either
     * beside passthrough; a passed-through file is seekable and has no FUSE page cache), or
     * the registration is undone.
     */
    public void settle(int rc) {
        BackingFiles.Pending p = pending;
        BackingFiles b = backing;
        pending = null;
        backing = null;
        if (p == null) {
            return;
        }
        if (b.settle(p, rc, fh())) {
            fuse_file_info.backing_id(a, p.backingId());
            fuse_file_info.bit(a, bits.keepCache(), false);
            fuse_file_info.bit(a, bits.nonseekable(), false);
        }
    }

    @Override public boolean writepage() { return fuse_file_info.bit(a, bits.writepage()); }
    @Override public boolean flush() { return fuse_file_info.bit(a, bits.flush()); }
    @Override public boolean flockRelease() { return fuse_file_info.bit(a, bits.flockRelease()); }
    @Override public long lockOwner() { return fuse_file_info.lock_owner(a); }
    @Override public int pollEvents() { return fuse_file_info.poll_events(a); }
}
