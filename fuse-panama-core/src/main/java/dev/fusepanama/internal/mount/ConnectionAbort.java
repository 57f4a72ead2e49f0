package dev.fusepanama.internal.mount;

import dev.fusepanama.Errno;
import dev.fusepanama.libc.ThreadContext;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends a FUSE connection through the fuse control filesystem (fusectl, Documentation/filesystems/
 * fuse.rst, "Aborting a filesystem connection"): every pending and future request of the
 * connection fails with ENOTCONN, the session's loop returns, and a mount detached while files
 * were open in it ends at once instead of when the last of them is closed. Root only.
 *
 * <p>Where fusectl is not mounted at {@value #CONNECTIONS} (many machines without systemd, most
 * containers), it is mounted for the moment in a mount namespace of a thread of its own, which
 * ends with the thread: nothing appears in anyone's mount table, and nothing is left behind.
 */
final class ConnectionAbort {
    static final String CONNECTIONS = "/sys/fs/fuse/connections";

    private ConnectionAbort() {}

    /**
     * Aborts connection {@code connection} (the mount's minor device number).
     *
     * @throws IOException saying why not: not root, no fusectl in this kernel, no such connection
     */
    static void abort(String connection) throws IOException {
        Path abort = Path.of(CONNECTIONS, connection, "abort");
        if (Files.isDirectory(abort.getParent())) {
            Files.writeString(abort, "1");
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().daemon().name("fuse-panama fusectl").start(() -> {
            try {
                inOwnNamespace(abort);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("mounting fusectl in a namespace of its own did not finish within 5 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while aborting the connection", e);
        } finally {
            if (!done.isDone()) t.interrupt();
        }
    }

    /** On a thread that ends afterwards: its own mount namespace, private, with fusectl mounted; the abort written there. */
    private static void inOwnNamespace(Path abort) throws IOException {
        check("unshare(CLONE_NEWNS)", ThreadContext.unshare(ThreadContext.CLONE_NEWNS));
        try (Arena arena = Arena.ofConfined()) {
            // Private first: a mount made under a shared one would propagate to everyone's table.
            check("making this namespace's mounts private", ThreadContext.mount(MemorySegment.NULL, arena.allocateFrom("/"),
                    MemorySegment.NULL, ThreadContext.MS_REC | ThreadContext.MS_PRIVATE, MemorySegment.NULL));
            check("mount -t fusectl", ThreadContext.mount(arena.allocateFrom("fusectl"), arena.allocateFrom(CONNECTIONS),
                    arena.allocateFrom("fusectl"), 0, MemorySegment.NULL));
        }
        Files.writeString(abort, "1");
    }

    private static void check(String what, int rc) throws IOException {
        if (rc < 0) {
            throw new IOException(what + ": " + Errno.name(-rc) + (rc == -Errno.EPERM ? " (only root may abort a connection)" : ""));
        }
    }
}
