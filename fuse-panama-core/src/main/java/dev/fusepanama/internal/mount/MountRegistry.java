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

    private static void unmountAll() {
        for (MountSession session : LIVE) {
            try {
                session.close();
            } catch (Exception busy) {
                try {
                    LOG.warn("{} is busy at JVM exit; detaching it lazily", session.mountpoint());
                    session.unmountLazily();
                    session.awaitUnmount(Duration.ofSeconds(5));
                } catch (Exception e) {
                    LOG.error("could not unmount {} at JVM exit", session.mountpoint(), e);
                }
            }
        }
    }
}
