package dev.fusepanama.examples.vault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the cipher directories the kernel knows (inotify, through the JDK's WatchService) and
 * reports each name that changed in one of them, so that the vault can tell the kernel to drop
 * what it cached: a sync client replacing, adding or removing a file is seen through the mount
 * at once while kernel caching stays on. One daemon thread; reports arrive on it.
 */
final class CipherDirWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CipherDirWatcher.class);

    /** What a change is reported to. */
    interface Listener {
        /**
         * {@code stored} changed in the cipher directory of {@code dir} (created, removed, written or
         * its attributes changed). Returns false to be asked again shortly: the change may be the
         * vault's own, still under way.
         */
        boolean changed(Node dir, byte[] stored);

        /** Events were lost (the kernel's queue overflowed): anything may have changed. */
        void lost();
    }

    private final WatchService service;
    private final Listener listener;
    private final Map<WatchKey, Node> directories = new ConcurrentHashMap<>();
    private final Map<Node, WatchKey> keys = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean limitReported;
    /** Changes to ask about again, by directory and name: the tries left. Watcher thread only. */
    private final Map<Recheck, Integer> later = new java.util.LinkedHashMap<>();
    private static final long RECHECK_MILLIS = 50;
    private static final int RECHECKS = 20;

    private record Recheck(Node dir, String name) {}

    CipherDirWatcher(Listener listener, String name) throws IOException {
        this.service = FileSystems.getDefault().newWatchService();
        this.listener = listener;
        this.thread = Thread.ofPlatform().daemon().name("vault-watcher " + name).unstarted(this::run);
        thread.start();
    }

    /** Starts watching the cipher directory {@code path} of {@code dir}; failures are logged once and leave it unwatched. */
    void watch(Node dir, Path path) {
        if (keys.containsKey(dir)) return;
        try {
            WatchKey key = path.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                    StandardWatchEventKinds.ENTRY_MODIFY);
            directories.put(key, dir);
            keys.put(dir, key);
        } catch (ClosedWatchServiceException closed) {
            // the vault is closing
        } catch (IOException e) {
            if (!limitReported) {
                limitReported = true;
                LOG.warn("cannot watch {} ({}): changes made there by other programs are seen only when the kernel's "
                        + "caches expire; raise fs.inotify.max_user_watches if this is the limit", path, e.toString());
            }
        }
    }

    /** Stops watching {@code dir} (forgotten by the kernel). */
    void forget(Node dir) {
        WatchKey key = keys.remove(dir);
        if (key != null) {
            directories.remove(key);
            key.cancel();
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = later.isEmpty() ? service.take() : service.poll(RECHECK_MILLIS, TimeUnit.MILLISECONDS);
                if (key != null) {
                    Node dir = directories.get(key);
                    for (WatchEvent<?> event : key.pollEvents()) {
                        if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                            listener.lost();
                        } else if (dir != null && event.context() instanceof Path name) {
                            // Names in a cipher directory are base64 or gocryptfs's own: ASCII.
                            report(new Recheck(dir, name.toString()), RECHECKS);
                        }
                    }
                    if (!key.reset()) {
                        Node gone = directories.remove(key);
                        if (gone != null) keys.remove(gone, key);
                    }
                } else {
                    Map<Recheck, Integer> due = new java.util.LinkedHashMap<>(later);
                    later.clear();
                    due.forEach(this::report);
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException end) {
            // closed
        }
    }

    private void report(Recheck change, int triesLeft) {
        try {
            if (!listener.changed(change.dir(), change.name().getBytes(StandardCharsets.ISO_8859_1)) && triesLeft > 1) {
                later.merge(change, triesLeft - 1, Math::min);
            }
        } catch (RuntimeException e) {
            LOG.warn("vault watcher: handling a change of {} failed", change.name(), e);
        }
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            LOG.debug("closing the watch service", e);
        }
        thread.interrupt();
    }
}
