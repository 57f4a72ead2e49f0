package dev.fusepanama;

/** A view of a {@code struct fuse_file_info} (fuse_common.h): the state of one open file. */
public interface FileInfo {
    /**
     * The open flags ({@link Posix#O_RDONLY}, O_WRONLY, O_RDWR, O_APPEND, O_TRUNC, ...).
     *
     * @return the flags of the open(2) that opened the file; mask with {@link Posix#O_ACCMODE} for the access mode
     */
    int flags();

    /**
     * The file handle this filesystem set in open/create/opendir.
     *
     * @return the handle, 0 if none was set
     */
    long fh();

    /**
     * Sets the file handle (in open, create or opendir) that every later call on this open file
     * receives, up to its release: an index, a descriptor, whatever the filesystem needs.
     *
     * @param fh the handle
     * @return this view
     */
    FileInfo setFh(long fh);

    /**
     * Bypass the page cache for this open file (set in open/create).
     *
     * @param on whether reads and writes go to the filesystem uncached
     * @return this view
     */
    FileInfo setDirectIo(boolean on);

    /**
     * Whether this open file bypasses the page cache.
     *
     * @return the direct I/O flag as set so far
     */
    boolean directIo();

    /**
     * Keep cached data from earlier opens (set in open/create).
     *
     * @param on whether the kernel may keep the file's cached pages at this open
     * @return this view
     */
    FileInfo setKeepCache(boolean on);

    /**
     * Whether the kernel keeps cached data from earlier opens.
     *
     * @return the keep-cache flag as set so far
     */
    boolean keepCache();

    /**
     * The file is a stream, not seekable (set in open/create).
     *
     * @param on whether the open file is not seekable (lseek fails with ESPIPE)
     * @return this view
     */
    FileInfo setNonSeekable(boolean on);

    /**
     * Let the kernel cache readdir results (set in opendir).
     *
     * @param on whether the kernel may keep this directory's listing
     * @return this view
     */
    FileInfo setCacheReaddir(boolean on);

    /**
     * Do not send flush on close (set in open/create; libfuse 3.11+, ignored by 3.10).
     *
     * @param on whether close(2) skips the flush request
     * @return this view
     */
    FileInfo setNoFlush(boolean on);

    /**
     * Kernel passthrough (set in open/create): the kernel reads, writes and maps this open file
     * from {@code fd}, a regular file, itself, without a request to the filesystem; the FUSE
     * mount keeps no page cache of its own for it (the backing file's is used). Returns true if
     * the open is passed through; false if this mount cannot
     * ({@link MountOptions.Builder#passthrough}, {@link Mount#describe()} says why: it needs
     * libfuse 3.17+, a kernel with passthrough, CAP_SYS_ADMIN, and no writeback cache) or this
     * file cannot, and then the filesystem serves read and write as usual.
     *
     * <p>The library registers {@code fd} with the kernel (one backing id per backing file,
     * shared by its opens and closed with the last of them), so the filesystem only has to give
     * each open file a handle of its own ({@link #setFh}, e.g. the descriptor) and keep
     * {@code fd} open until release. Everything but the data still reaches the filesystem:
     * getattr, truncate, fsync, flush, release, locks. Keep-cache and non-seekable are
     * ignored for a passed-through file (the kernel refuses both beside it), and
     * {@code O_DIRECT} follows the backing filesystem's rules (aligned buffers and offsets), as
     * on overlayfs.
     *
     * <p>The kernel allows one backing file per inode while any file of it is open, and every
     * open of that inode must then be passed through to it. On this (path) API a name keeps its
     * inode when the file behind it is replaced outside the mount, so a file replaced in the
     * backing store while a program has it open through the mount cannot be opened there again
     * (EIO) until that program closes it. Where that matters, do not pass such files through.
     *
     * @param fd an open descriptor of the backing regular file, kept open by the filesystem until release
     * @return whether the open is passed through (asked twice, the last call counts)
     */
    boolean setPassthrough(int fd);

    /**
     * The request comes from writeback of cached pages; caller context is not meaningful.
     *
     * @return whether this write is the kernel's writeback
     */
    boolean writepage();

    /**
     * Set on flush and lock: the lock owner is valid.
     *
     * @return whether {@link #lockOwner()} holds the owner of this flush or lock
     */
    boolean flush();

    /**
     * Set on release when flocks of this owner must be released.
     *
     * @return whether release must also drop the flock(2) locks of {@link #lockOwner()}
     */
    boolean flockRelease();

    /**
     * The lock owner: an opaque id the kernel derives from the caller's table of open files, the
     * same for all the locks, flushes and releases of one owner.
     *
     * @return the owner id, meaningful where {@link #flush()}, {@link #flockRelease()} or a lock call says so
     */
    long lockOwner();

    /**
     * The events requested by the poll in progress.
     *
     * @return POLL* bits ({@link Posix#POLLIN}, ...)
     */
    int pollEvents();
}
