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
    Path mountpoint();

    /**
     * Whether the session still serves requests: false once it has ended (closed, unmounted from
     * outside, or its connection aborted); true after {@link #unmountLazily()} until the last user lets go.
     */
    boolean isMounted();

    /**
     * Unmounts, waits for requests in flight and the loop to end, calls the filesystem's
     * {@code destroy}, and frees all native memory. Does nothing if already closed.
     *
     * @throws MountException with {@link MountException.Reason#BUSY} if a process still has a
     *         file open or its working directory in the mount; the mount is then left as it was
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    @Override
    void close() throws MountException;

    /**
     * As {@link #close()}, waiting at most {@code timeout} for filesystem calls in flight to
     * return, instead of the mount's {@link MountOptions#closeTimeout()}.
     *
     * @throws MountException with {@link MountException.Reason#BUSY} if a process still has a
     *         file open there (the mount is left as it was), or if calls were still running when
     *         the time ran out (the mount is gone; its resources are released when they return)
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
     * @return whether the session has ended
     * @throws IllegalStateException if called from inside one of this mount's filesystem methods
     */
    boolean forceClose(Duration timeout) throws MountException;

    /**
     * Detaches the mount at once (umount -l): new accesses fail, processes using it keep it until
     * they let go, and its resources are released then. Returns without waiting for them.
     */
    void unmountLazily() throws MountException;

    /** Blocks until the mount ends (closed here or unmounted externally); false on timeout. */
    boolean awaitUnmount(Duration timeout) throws InterruptedException;

    /** Blocks until the mount ends. */
    void awaitUnmount() throws InterruptedException;


    /** The mount's libfuse and session details, for logs. */
    String describe();
}
