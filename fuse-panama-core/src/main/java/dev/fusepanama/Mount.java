package dev.fusepanama;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A live mount of either API, returned by {@link Fuse#mount} once the kernel can use it: its
 * life (closing unmounts) and its description. Each API's mount adds what works for it:
 * {@link FuseMount} the path notifications, {@link dev.fusepanama.inode.InodeMount} the inode
 * ones. All methods are thread-safe; {@code close} is idempotent. A JVM that exits unmounts every
 * mount still open.
 */
public interface Mount extends AutoCloseable {
    /**
     * Where the filesystem is mounted.
     *
     * @return the mountpoint given to {@link Fuse#mount}, made absolute and normalized
     */
    Path mountpoint();

    /**
     * Whether the session still serves requests: false once it has ended (closed, unmounted from
     * outside, or its connection aborted); true after {@link #unmountLazily()} until the last user lets go.
     *
     * @return whether requests are still served
     */
    boolean isMounted();

    /**
     * Unmounts, waits for requests in flight and the loop to end, calls the filesystem's
     * {@code destroy}, and frees all native memory. Does nothing if already closed.
     *
     * @throws MountException with {@link MountException.Reason#BUSY} if a process still has a
     *         file open or its working directory in the mount, the mount then left as it was, or
     *         if calls were still running after {@link MountOptions#closeTimeout()} (as
     *         {@link #close(Duration)} says); with {@link MountException.Reason#UNMOUNT_FAILED} if
     *         the kernel refused the unmount otherwise, or the thread was interrupted while waiting
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    @Override
    void close() throws MountException;

    /**
     * As {@link #close()}, waiting at most {@code timeout} for filesystem calls in flight to
     * return, instead of the mount's {@link MountOptions#closeTimeout()}.
     *
     * @param timeout the longest to wait for filesystem calls in flight
     * @throws MountException with {@link MountException.Reason#BUSY} if a process still has a
     *         file open there (the mount is left as it was), or if calls were still running when
     *         the time ran out (the mount is gone; its resources are released when they return);
     *         with {@link MountException.Reason#UNMOUNT_FAILED} if the kernel refused the unmount
     *         otherwise, or the thread was interrupted while waiting
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    void close(Duration timeout) throws MountException;

    /**
     * Ends the mount now, whoever uses it: detaches it (nothing new can reach it), then ends the
     * FUSE connection, so that the calls of processes still using it fail with ENOTCONN instead
     * of reaching the filesystem, and waits up to {@code timeout} for the session to end. Ending
     * the connection goes through fusectl ({@code /sys/fs/fuse/connections}), which only root may
     * write; where it is not mounted, it is mounted for the moment in a mount namespace that only a
     * short-lived thread of this process sees. Without root the detached mount ends when its last
     * user lets go.
     *
     * @param timeout the longest to wait for the session to end
     * @return whether the session has ended
     * @throws MountException with {@link MountException.Reason#UNMOUNT_FAILED} if the kernel refused
     *         to detach the mount
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    boolean forceClose(Duration timeout) throws MountException;

    /**
     * Detaches the mount at once (umount -l): new accesses fail, processes using it keep it until
     * they let go, and its resources are released then. Returns without waiting for them.
     *
     * @throws MountException with {@link MountException.Reason#UNMOUNT_FAILED} if the kernel refused
     *         to detach the mount
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    void unmountLazily() throws MountException;

    /**
     * Blocks until the mount ends (closed here or unmounted externally); false on timeout.
     *
     * @param timeout the longest to wait
     * @return true if the mount has ended, false if the time ran out first
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    boolean awaitUnmount(Duration timeout) throws InterruptedException;

    /**
     * Blocks until the mount ends.
     *
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    void awaitUnmount() throws InterruptedException;

    /**
     * The mount's libfuse and session details, for logs.
     *
     * @return one line: the mountpoint, libfuse version, operations, features and state
     */
    String describe();
}
