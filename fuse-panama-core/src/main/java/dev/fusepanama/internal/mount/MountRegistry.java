package dev.fusepanama.internal.mount;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mounts alive in this JVM, so that a JVM exit unmounts them: a mount left behind would
 * answer every access with "transport endpoint is not connected" until someone unmounts it.
 */
final class MountRegistry {
    private MountRegistry() {}

    private static final Logger LOG = LoggerFactory.getLogger(MountRegistry.class);
    private static final Set<MountSession> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(MountRegistry::unmountAll, "fuse-panama unmount at exit"));
    }

    static void add(MountSession session) {
        LIVE.add(session);
    }

    static void remove(MountSession session) {
        LIVE.remove(session);
    }

    /**
     * Unmounts what is left, never holding up the exit for long: each mount is detached lazily,
     * and one still in use a fifth of a second later has its connection aborted (fusectl, see
     * {@link ConnectionAbort}), so processes using it get errors instead of a hang. A mount the
     * application is unmounting meanwhile is left to it: the session's own lock orders the two,
     * and whichever comes second finds it closed.
     */
    private static void unmountAll() {
        for (MountSession session : LIVE) {
            try {
                session.unmountLazily();
                if (!session.awaitUnmount(Duration.ofMillis(200))) {
                    session.abortConnection();
                    if (!session.awaitUnmount(Duration.ofSeconds(2))) {
                        LOG.error("{} is still in use at JVM exit; it stays detached until its users let go", session.mountpoint());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.error("could not unmount {} at JVM exit", session.mountpoint(), e);
            }
        }
    }
}
