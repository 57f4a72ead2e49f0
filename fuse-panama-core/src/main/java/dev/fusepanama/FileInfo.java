package dev.fusepanama;

/** A view of a {@code struct fuse_file_info} (fuse_common.h): the state of one open file. */
public interface FileInfo {
    /** The open flags ({@link Posix#O_RDONLY}, O_WRONLY, O_RDWR, O_APPEND, O_TRUNC, ...). */
    int flags();

    /** The file handle this filesystem set in open/create/opendir. */
    long fh();
    FileInfo setFh(long fh);

    /** Bypass the page cache for this open file (set in open/create). */
    FileInfo setDirectIo(boolean on);
    boolean directIo();
    /** Keep cached data from earlier opens (set in open/create). */
    FileInfo setKeepCache(boolean on);
    boolean keepCache();
    /** The file is a stream, not seekable (set in open/create). */
    FileInfo setNonSeekable(boolean on);
    /** Let the kernel cache readdir results (set in opendir). */
    FileInfo setCacheReaddir(boolean on);
    /** Do not send flush on close (set in open/create; libfuse 3.11+, ignored by 3.10). */
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
     */
    boolean setPassthrough(int fd);

    /** The request comes from writeback of cached pages; caller context is not meaningful. */
    boolean writepage();
    /** Set on flush and lock: the lock owner is valid. */
    boolean flush();
    /** Set on release when flocks of this owner must be released. */
    boolean flockRelease();
    long lockOwner();
    /** The events requested by the poll in progress. */
    int pollEvents();
}
