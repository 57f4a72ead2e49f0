package dev.fusepanama;

/**
 * What the kernel and libfuse agreed on for a mount, read during {@link FuseFileSystem#init}
 * and {@link dev.fusepanama.inode.InodeFileSystem#init} ({@code struct fuse_conn_info}). The
 * capabilities come from the filesystem's {@link KernelSettings}, the request sizes and queue
 * limits from {@link MountOptions}, both applied before {@code init} runs; {@code init} only
 * reads them. Capabilities are the {@code FUSE_CAP_*} bits of fuse_common.h, which one
 * {@code long} holds: on libfuse 3.17+ they are read from the 64-bit
 * {@code capable_ext}/{@code want_ext} fields, before that from the 32-bit ones; callers never
 * need to know which.
 */
public interface ConnectionInfo {
    /**
     * Reads may be in flight in parallel: without it the kernel sends at most one read per open
     * file at a time, in increasing offsets. libfuse asks for it by default.
     */
    long CAP_ASYNC_READ = 1L << 0;
    /**
     * POSIX record locks ({@code fcntl(F_SETLK)}) are sent to the filesystem; without it the
     * kernel keeps them locally, where callers that do not share the kernel cannot see them.
     * libfuse asks for it when the filesystem implements {@code lock} (path API) or
     * {@code getlk}/{@code setlk} (inode API).
     */
    long CAP_POSIX_LOCKS = 1L << 1;
    /**
     * An open with {@code O_TRUNC} reaches the filesystem with the flag, and the filesystem
     * truncates; without it the kernel truncates with a SETATTR of size 0 after the open. See
     * {@link KernelSettings.Builder#atomicOTrunc}, which fuse-panama leaves off by default.
     */
    long CAP_ATOMIC_O_TRUNC = 1L << 3;
    /**
     * The filesystem answers lookups of "." and "..", which the kernel needs to export the mount
     * over NFS (to find a file or directory again by its handle). Off by default.
     */
    long CAP_EXPORT_SUPPORT = 1L << 4;
    /**
     * The kernel passes a created file's mode without applying the caller's umask: the
     * filesystem applies it (for POSIX ACLs, where a default ACL replaces the umask). Off by default.
     */
    long CAP_DONT_MASK = 1L << 6;
    /** libfuse writes replies to /dev/fuse with {@code splice(2)} where it can. Off by default. */
    long CAP_SPLICE_WRITE = 1L << 7;
    /** With splice, libfuse moves pages to and from /dev/fuse instead of copying them. Off by default. */
    long CAP_SPLICE_MOVE = 1L << 8;
    /**
     * libfuse reads requests from /dev/fuse with {@code splice(2)} into a pipe, so that write data
     * can reach a file without a copy ({@link WriteBuffer}). libfuse asks for it when the
     * filesystem implements {@code writeBuf}.
     */
    long CAP_SPLICE_READ = 1L << 9;
    /**
     * BSD locks ({@code flock(2)}) are sent to the filesystem; without it the kernel keeps them
     * locally. libfuse asks for it when the filesystem implements {@code flock}.
     */
    long CAP_FLOCK_LOCKS = 1L << 10;
    /** {@code ioctl(2)} on a directory reaches the filesystem too, not only on files. On by default where the kernel has it. */
    long CAP_IOCTL_DIR = 1L << 11;
    /**
     * Before a read from cached data the kernel checks the file's attributes once they have
     * expired, and drops the cached data when the size or mtime changed. libfuse turns it on,
     * fuse-panama off: see {@link KernelSettings.Builder#autoInvalData}.
     */
    long CAP_AUTO_INVAL_DATA = 1L << 12;
    /**
     * The kernel lists directories with READDIRPLUS, which brings each entry's attributes (and,
     * on the inode API, its lookup). libfuse asks for it on the path API, answering it from
     * {@code readdir}, and on the inode API when the filesystem implements {@code readdirplus}.
     */
    long CAP_READDIRPLUS = 1L << 13;
    /**
     * With {@link #CAP_READDIRPLUS}: the kernel chooses per batch, READDIRPLUS while the entries'
     * attributes are being used ({@code ls -l}), plain READDIR when they are not ({@code ls});
     * without it every listing is READDIRPLUS. libfuse asks for it on the path API, and on the
     * inode API when the filesystem implements both {@code readdir} and {@code readdirplus}.
     */
    long CAP_READDIRPLUS_AUTO = 1L << 14;
    /**
     * The kernel may split one direct-I/O request into several sent in parallel; without it at
     * most one read and one write per open file are in flight. On by default where the kernel
     * has it.
     */
    long CAP_ASYNC_DIO = 1L << 15;
    /**
     * The kernel gathers writes in its page cache and sends them later, in whole pages. Set by
     * {@link KernelSettings.Builder#writebackCache}, which says what the filesystem promises.
     */
    long CAP_WRITEBACK_CACHE = 1L << 16;
    /**
     * Offered by the kernel, not asked for: a filesystem may answer open with ENOSYS, and the
     * kernel then opens every file itself without asking again. Read it with {@link #isCapable}.
     */
    long CAP_NO_OPEN_SUPPORT = 1L << 17;
    /**
     * Lookups and listings of one directory may run at the same time; without it the kernel
     * serialises them. On by default where the kernel has it.
     */
    long CAP_PARALLEL_DIROPS = 1L << 18;
    /**
     * The kernel enforces POSIX ACLs: it reads them from the {@code system.posix_acl_access} and
     * {@code system.posix_acl_default} extended attributes and caches them, and the filesystem
     * stores them, keeps the mode in step and gives new files their default ACL. Turns on
     * {@code default_permissions} too. Off by default.
     */
    long CAP_POSIX_ACL = 1L << 19;
    /**
     * The first form of {@link #CAP_HANDLE_KILLPRIV_V2}: the filesystem clears set-user-ID and
     * set-group-ID bits when a file is written, truncated or given another owner.
     */
    long CAP_HANDLE_KILLPRIV = 1L << 20;
    /** libfuse 3.17.1+: the filesystem clears set-ID bits itself ({@link KernelSettings.Builder#handleKillprivV2}). */
    long CAP_HANDLE_KILLPRIV_V2 = 1L << 21;
    /**
     * The kernel keeps symbolic link targets in its page cache and asks {@code readlink} once per
     * link, until the inode is invalidated (Linux 4.20+). Off by default.
     */
    long CAP_CACHE_SYMLINKS = 1L << 23;
    /**
     * Offered by the kernel (Linux 5.1+): a filesystem may answer opendir with ENOSYS, and the
     * kernel then opens and releases directories itself. Set through
     * {@link KernelSettings.Builder#noOpendir}.
     */
    long CAP_NO_OPENDIR_SUPPORT = 1L << 24;
    /**
     * The kernel drops cached data only when the filesystem says so (Linux 5.2+). Set by
     * {@link KernelSettings.Builder#explicitDataInvalidation}.
     */
    long CAP_EXPLICIT_INVAL_DATA = 1L << 25;
    /** libfuse 3.17+: open files may be passed through to a backing file ({@link MountOptions.Builder#passthrough}). */
    long CAP_PASSTHROUGH = 1L << 29;
    /** libfuse 3.18+: requests may travel over io_uring ({@link MountOptions.Builder#ioUring}). */
    long CAP_OVER_IO_URING = 1L << 31;

    /** {@return the major version of the kernel's FUSE protocol (7 on every Linux so far)} */
    int protocolMajor();

    /**
     * {@return the minor version of the kernel's FUSE protocol}: what its requests and replies
     * may hold (libfuse answers in the older of its own and this one).
     */
    int protocolMinor();

    /**
     * Whether the kernel and libfuse support {@code capability}.
     *
     * @param capability one or more {@code CAP_*} bits
     * @return true if every one of them is offered
     */
    boolean isCapable(long capability);

    /**
     * Whether {@code capability} is in effect: libfuse's defaults, changed by the filesystem's
     * {@link KernelSettings} ({@link KernelSettings.Builder#want}, {@link KernelSettings.Builder#unwant}
     * and the typed settings), where the kernel offers them.
     *
     * @param capability one or more {@code CAP_*} bits
     * @return true if every one of them is wanted
     */
    boolean wants(long capability);

    /** {@return the largest write request in bytes} ({@link MountOptions.Builder#maxWrite}) */
    int maxWrite();

    /** {@return the largest read request in bytes, 0 for the kernel's limit} ({@link MountOptions.Builder#maxRead}) */
    int maxRead();

    /** {@return the most bytes the kernel reads ahead of a sequential reader} ({@link MountOptions.Builder#maxReadahead}) */
    int maxReadahead();

    /**
     * {@return the most background requests (readahead, asynchronous direct I/O) the kernel keeps
     * in flight} ({@link MountOptions.Builder#maxBackground})
     */
    int maxBackground();

    /**
     * {@return the background requests in flight at which the kernel marks the mount congested}
     * ({@link MountOptions.Builder#congestionThreshold})
     */
    int congestionThreshold();

    /** {@return the timestamp granularity in nanoseconds (1 = nanosecond times)} ({@link MountOptions.Builder#timeGranularity}) */
    int timeGranularity();
}
