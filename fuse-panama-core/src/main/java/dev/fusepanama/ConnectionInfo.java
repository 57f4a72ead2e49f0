package dev.fusepanama;

/**
 * What the kernel and libfuse agreed on for a mount, read during {@link FuseFileSystem#init}
 * ({@code struct fuse_conn_info}). It is set through {@link MountOptions}, the one place every
 * setting of a mount is made; {@code init} only reads it. Capabilities are the {@code FUSE_CAP_*} bits of
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
    /** libfuse 3.17.1+: the filesystem clears set-ID bits itself ({@link KernelSettings.Builder#handleKillprivV2}). */
    long CAP_HANDLE_KILLPRIV_V2 = 1L << 21;
    long CAP_CACHE_SYMLINKS = 1L << 23;
    long CAP_NO_OPENDIR_SUPPORT = 1L << 24;
    long CAP_EXPLICIT_INVAL_DATA = 1L << 25;
    /** libfuse 3.17+: open files may be passed through to a backing file ({@link MountOptions.Builder#passthrough}). */
    long CAP_PASSTHROUGH = 1L << 29;
    /** libfuse 3.18+: requests may travel over io_uring ({@link MountOptions.Builder#ioUring}). */
    long CAP_OVER_IO_URING = 1L << 31;

    int protocolMajor();
    int protocolMinor();

    /** Whether the kernel and libfuse support {@code capability}. */
    boolean isCapable(long capability);
    /**
     * Whether {@code capability} is in effect: libfuse's defaults, changed by
     * {@link MountOptions.Builder#want} and {@link MountOptions.Builder#unwant}.
     */
    boolean wants(long capability);

    /** Largest write request in bytes ({@link MountOptions.Builder#maxWrite}). */
    int maxWrite();
    /** Largest read request in bytes, 0 for the kernel's limit ({@link MountOptions.Builder#maxRead}). */
    int maxRead();
    int maxReadahead();
    int maxBackground();
    int congestionThreshold();
    /** Timestamp granularity in nanoseconds (1 = nanosecond times). */
    int timeGranularity();
}
