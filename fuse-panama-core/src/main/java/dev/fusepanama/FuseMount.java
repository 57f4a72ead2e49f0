package dev.fusepanama;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A live mount, returned by {@link Fuse#mount} once the kernel can use it. Closing unmounts.
 * All methods are thread-safe; {@code close} is idempotent. A JVM that exits unmounts every
 * mount still open.
 */
public interface FuseMount extends AutoCloseable {
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
     * write; without it the detached mount ends when its last user lets go.
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

    /**
     * Tells the kernel that the file or directory at {@code path} changed behind its back: its
     * cached attributes and data are dropped, and the next access asks the filesystem again
     * ({@code fuse_invalidate_path}). With caching on (attribute timeouts, {@code kernelCache}),
     * this is how a filesystem whose backing store changes underneath keeps what programs see
     * current. Cached names are kept: a file replaced under the same name needs no more than
     * this, one that appeared or disappeared is seen when its name's {@code entryTimeout} ends.
     *
     * <p>Call it from any thread of the application, but not from inside one of this mount's
     * filesystem methods, and never while holding a lock that a filesystem method may need: the
     * kernel drops the file's cached pages, and waits for reads and writes in flight on them to
     * be answered first. A call stuck there also holds off {@link #close()}.
     *
     * @param path a path in the mount, "/" first, as the filesystem's methods receive it
     * @return false if the kernel holds nothing for the path (never looked up, or forgotten): there was
     *         nothing to invalidate
     * @throws java.io.IOException if the kernel refused the notification (its errno in the message)
     * @throws IllegalStateException if the mount has ended, or when called from inside one of its methods
     */
    boolean invalidate(String path) throws java.io.IOException;

    /** The mount's libfuse and session details, for logs. */
    String describe();
}
