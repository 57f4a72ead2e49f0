package dev.fusepanama.examples;

import dev.fusepanama.Mount;
import dev.fusepanama.MountException;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import sun.misc.Signal;

/**
 * Serving a mount from a program's main thread: until Ctrl-C, SIGTERM or an external unmount,
 * then a clean unmount (detaching lazily if something still uses the mount).
 */
public final class Foreground {
    private Foreground() {}

    /** An example's main once its arguments are read: mounts, serves, and returns the exit status. */
    @FunctionalInterface
    public interface Serving {
        int run() throws Exception;
    }

    /**
     * Runs an example's {@code serving} and exits with its status. A mount that cannot be made
     * (a {@link MountException}: the mountpoint missing, not a directory, busy, out of reach) is
     * its one line and exit status 2, as the fuse-panama command answers it, not a stack trace.
     */
    public static void exit(Logger log, Serving serving) throws Exception {
        int status;
        try {
            status = serving.run();
        } catch (MountException e) {
            log.error("{}", e.getMessage());
            status = 2;
        }
        System.exit(status);
    }

    /** Blocks until the mount should end, ends it, and returns the exit status (0). */
    public static int serve(Mount mount, Logger log) throws InterruptedException, MountException {
        return serve(mount, log, () -> {});
    }

    /**
     * As {@link #serve(Mount, Logger)}, running {@code started} (say, the start-up line) once
     * Ctrl-C and SIGTERM end the mount cleanly, so that whoever waits for it may stop it.
     */
    public static int serve(Mount mount, Logger log, Runnable started) throws InterruptedException, MountException {
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        started.run();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                mount.awaitUnmount();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stop.countDown();
        });
        stop.await();
        if (!mount.isMounted()) {
            log.info("{} was unmounted from outside; exiting", mount.mountpoint());
            return 0;
        }
        try {
            mount.close();
        } catch (MountException e) {
            log.warn("{}; detaching it lazily instead", e.getMessage());
            mount.unmountLazily();
        }
        log.info("unmounted {}", mount.mountpoint());
        return 0;
    }
}
