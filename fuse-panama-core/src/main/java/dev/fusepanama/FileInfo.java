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
