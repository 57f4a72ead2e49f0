package dev.fusepanama.nio;

import dev.fusepanama.inode.table.Node;
import dev.fusepanama.nio.NioFileSystem.NioNode;
import java.io.IOException;
import dev.fusepanama.watch.SourceWatcher;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes behind the mount for one session of a {@link NioFileSystem} ({@link NioFileSystem#watchChanges}),
 * told to the filesystem by name, which tells the kernel. Over the JDK's default filesystem it is
 * core's {@link SourceWatcher} (fanotify, which drops the adapter's own changes, else inotify);
 * over any other provider, the provider's {@link WatchService}, one daemon thread taking its
 * events. A directory is watched from when the kernel learns it until it forgets it
 * ({@link NioNode#forgotten}), or until the watch ends (the directory was removed).
 */
final class NioWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(NioWatcher.class);

    private final NioFileSystem fs;
    /** The provider's service, or null where the source watcher watches. */
    private final WatchService service;
    private final SourceWatcher<NioNode> source;
    /** The directory each key watches, and each directory's key. */
    private final Map<WatchKey, NioNode> dirs = new ConcurrentHashMap<>();
    private final Map<NioNode, WatchKey> keys = new ConcurrentHashMap<>();
    /** Whether a directory could not be watched yet: the first time is a warning, the rest go to debug. */
    private final AtomicBoolean failedBefore = new AtomicBoolean();

    private NioWatcher(NioFileSystem fs, WatchService service, SourceWatcher<NioNode> source) {
        this.fs = fs;
        this.service = service;
        this.source = source;
    }

    /**
     * Opens the provider's watch service of {@code root} and starts taking its events.
     *
     * @throws UnsupportedOperationException if the provider has none
     */
    static NioWatcher start(NioFileSystem fs, Path root) throws IOException {
        if (root.getFileSystem() == FileSystems.getDefault()) {
            SourceWatcher<NioNode> source = SourceWatcher.<NioNode>builder(root.toAbsolutePath(), new SourceWatcher.Listener<>() {
                @Override
                public boolean changed(SourceWatcher.Change<NioNode> c) {
                    if (c.directory() != null && c.name() != null) {
                        String name = new String(c.name(), StandardCharsets.UTF_8);
                        tell(name + " in directory " + c.directory(), () -> fs.changed(c.directory(), name));
                    } else if (c.node() != null) {
                        // A watched directory's own change (fanotify names it alone): as its name in its parent.
                        Node.Link l = fs.table.name(c.node());
                        if (l != null && l.parent() instanceof NioNode parent) {
                            String name = new String(l.name().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
                            tell(name + " in directory " + parent, () -> fs.changed(parent, name));
                        }
                    }
                    return true;
                }

                @Override
                public void lost() {
                    tell("any file (events were lost)", fs::changedAll);
                }

                @Override
                public void stopped() {
                    lost();
                }
            }).name("fuse-panama-nio watcher of " + root)
                    // The application shares the adapter's process and may change the files itself, behind the mount.
                    .ignoreOwnChanges(false).start();
            LOG.info("{}: changes behind the mount are watched ({})", root, source.describe());
            return new NioWatcher(fs, null, source);
        }
        NioWatcher w = new NioWatcher(fs, root.getFileSystem().newWatchService(), null);
        Thread.ofPlatform().daemon().name("fuse-panama-nio watcher of " + root).start(w::run);
        return w;
    }

    /** Ends the watch: the thread ends once the service is closed. */
    void stop() {
        if (source != null) {
            source.close();
            return;
        }
        try {
            service.close();
        } catch (IOException e) {
            LOG.warn("closing the watch service: {}", e.toString());
        }
    }

    /** Watches {@code dir}, whose path is {@code p}, unless it is already or was dropped. */
    void watch(NioNode dir, Path p) {
        synchronized (dir) { // against its forgotten() meanwhile (see unwatch)
            if (dir.watcher == this || dir.isDropped()) return;
            if (source != null) {
                if (source.watch(dir, p, true)) dir.watcher = this;
                return;
            }
            WatchKey k;
            try {
                k = p.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                        StandardWatchEventKinds.ENTRY_MODIFY);
            } catch (ClosedWatchServiceException stopped) {
                return;
            } catch (IOException | RuntimeException e) {
                // the next time the kernel is given the directory tries again
                if (failedBefore.compareAndSet(false, true)) {
                    LOG.warn("cannot watch {} (its changes behind the mount are seen after the cache timeout): {}", p, e.toString());
                } else {
                    LOG.debug("cannot watch {}: {}", p, e.toString());
                }
                return;
            }
            dir.watcher = this;
            keys.put(dir, k);
            dirs.put(k, dir);
        }
    }

    /**
     * Stops watching {@code dir}. On some providers (the default one on Linux) a directory has one
     * key however often it is registered: it is cancelled only if no node learnt since holds it,
     * as a node for the same directory under a new name may.
     */
    void unwatch(NioNode dir) {
        synchronized (dir) {
            dir.watcher = null;
            if (source != null) {
                source.forget(dir);
                return;
            }
            WatchKey k = keys.remove(dir);
            if (k != null && dirs.remove(k, dir)) k.cancel();
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey k = service.take();
                NioNode dir = dirs.get(k);
                for (WatchEvent<?> e : k.pollEvents()) {
                    if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                        tell("any file (events were lost)", fs::changedAll);
                    } else if (dir != null && e.context() instanceof Path name) {
                        tell(name + " in directory " + dir, () -> fs.changed(dir, name.toString()));
                    }
                }
                if (!k.reset() && dir != null) unwatch(dir); // the directory is gone; learnt again, it is watched again
            }
        } catch (ClosedWatchServiceException | InterruptedException stopped) {
            // stop(): the session ended
        } catch (RuntimeException e) {
            LOG.error("the watcher stopped: changes behind the mount are seen after the cache timeout again", e);
        }
    }

    /** Telling the kernel of a change, which it may refuse. */
    @FunctionalInterface
    private interface Notice {
        void send() throws IOException;
    }

    /** Sends {@code notice} that {@code what} changed; a failure is logged, and the next event is told. */
    private static void tell(String what, Notice notice) {
        try {
            notice.send();
        } catch (IllegalStateException ended) {
            LOG.debug("not telling that {} changed: {}", what, ended.toString()); // the mount ended before destroy stopped us
        } catch (IOException | RuntimeException e) {
            LOG.warn("telling the kernel that {} changed: {}", what, e.toString());
        }
    }
}
