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
