package dev.fusepanama;

/**
 * A view of {@code struct fuse_conn_info} during {@link FuseFileSystem#init}: what the kernel
 * offers and what this filesystem wants. Capabilities are the {@code FUSE_CAP_*} bits of
 * fuse_common.h. On libfuse 3.17+ they are read from and written to the 64-bit
 * {@code capable_ext}/{@code want_ext} fields, before that to the 32-bit ones: callers never
 * need to know which.
 */
public interface ConnectionInfo {
    long CAP_ASYNC_READ = 1L << 0;
    long CAP_POSIX_LOCKS = 1L << 1;
    long CAP_ATOMIC_O_TRUNC = 1L << 3;
    long CAP_EXPORT_SUPPORT = 1L << 4;
    long CAP_DONT_MASK = 1L << 6;
    long CAP_SPLICE_WRITE = 1L << 7;
    long CAP_SPLICE_MOVE = 1L << 8;
    long CAP_SPLICE_READ = 1L << 9;
    long CAP_FLOCK_LOCKS = 1L << 10;
    long CAP_IOCTL_DIR = 1L << 11;
    long CAP_AUTO_INVAL_DATA = 1L << 12;
    long CAP_READDIRPLUS = 1L << 13;
    long CAP_READDIRPLUS_AUTO = 1L << 14;
    long CAP_ASYNC_DIO = 1L << 15;
    long CAP_WRITEBACK_CACHE = 1L << 16;
    long CAP_NO_OPEN_SUPPORT = 1L << 17;
    long CAP_PARALLEL_DIROPS = 1L << 18;
    long CAP_POSIX_ACL = 1L << 19;
    long CAP_HANDLE_KILLPRIV = 1L << 20;
    long CAP_CACHE_SYMLINKS = 1L << 23;
    long CAP_NO_OPENDIR_SUPPORT = 1L << 24;
    long CAP_EXPLICIT_INVAL_DATA = 1L << 25;

    int protocolMajor();
    int protocolMinor();

    /** Whether the kernel and libfuse support {@code capability}. */
    boolean isCapable(long capability);
    /** Whether {@code capability} is currently wanted (libfuse enables several by default). */
    boolean wants(long capability);
    /** Wants {@code capability}; returns false (and changes nothing) if it is not supported. */
    boolean want(long capability);
    /** Stops wanting {@code capability}. */
    void unwant(long capability);

    int maxWrite();
    /** Largest write request in bytes; libfuse caps it at its buffer size (1 MiB on 3.14). */
    ConnectionInfo setMaxWrite(int bytes);
    int maxRead();
    ConnectionInfo setMaxRead(int bytes);
    int maxReadahead();
    ConnectionInfo setMaxReadahead(int bytes);
    int maxBackground();
    ConnectionInfo setMaxBackground(int requests);
    int congestionThreshold();
    ConnectionInfo setCongestionThreshold(int requests);
    int timeGranularity();
    /** Timestamp granularity in nanoseconds (1 = nanosecond times). */
    ConnectionInfo setTimeGranularity(int nanos);
}
