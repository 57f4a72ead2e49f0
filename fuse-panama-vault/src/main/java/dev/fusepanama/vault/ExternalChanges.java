package dev.fusepanama.vault;

import static dev.fusepanama.vault.CipherDir.CONF;
import static dev.fusepanama.vault.CipherDir.DIRIV;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;
import static dev.fusepanama.vault.LibcCalls.ctime;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.vault.crypto.NameCipher;
import dev.fusepanama.watch.SourceWatcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes other programs make in the cipher directory (a sync client adding, replacing or
 * removing files), found by a {@link SourceWatcher} (fanotify or inotify) on the directories the kernel
 * knows, and told to the kernel through the mount's notifications, so that it drops what it
 * cached of them while caching stays on. The vault's own changes are told apart by the
 * ciphertext file's ctime, and by the names it is creating ({@link #announce}).
 */
final class ExternalChanges {
    /** One logger for the whole vault, the one an application configures. */
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    private volatile SourceWatcher<Node> watcher;
    /** How long the events of one name are gathered (a burst of the vault's own changes costs one look, after it). */
    static final long GATHER_MILLIS = 50;
    /**
     * Names the vault is creating, by stored name, with when it began: their creation events
     * are the vault's own until the node table has them (a little later, or never if it failed).
     */
    private final Map<String, Long> creating = new ConcurrentHashMap<>();
    private static final long CREATION_WINDOW_NANOS = 2_000_000_000L;

    private final String cipherDir;
    private final NodeTable<Node> table;
    private final Node rootNode;
    private final CipherDir store;
    /** The vault's: set when it closes. */
    private final AtomicBoolean closed;
    /** The calling thread's native memory for the vault. */
    private final Supplier<ThreadBuffers> scratch;
    private volatile InodeMount mount;

    ExternalChanges(String cipherDir, NodeTable<Node> table, CipherDir store, AtomicBoolean closed, Supplier<ThreadBuffers> scratch) {
        this.cipherDir = cipherDir;
        this.table = table;
        this.rootNode = table.root();
        this.store = store;
        this.closed = closed;
        this.scratch = scratch;
    }

    /** Starts watching the directories the kernel knows and telling {@code mount} about others' changes in them. */
    void start(InodeMount mount) throws IOException {
        this.mount = mount;
        SourceWatcher<Node> w = SourceWatcher.<Node>builder(Path.of(cipherDir), new SourceWatcher.Listener<>() {
            @Override
            public boolean changed(SourceWatcher.Change<Node> change) {
                if (change.directory() != null && change.name() != null) return externalChange(change.directory(), change.name());
                // A watched cipher directory's own change (fanotify names it alone): as its name in its parent.
                dev.fusepanama.inode.table.Node.Link l = change.node() == null ? null : table.name(change.node()); // full name: the vault's own Node is another
                return l == null || !(l.parent() instanceof Node parent)
                        || externalChange(parent, l.name().getBytes(StandardCharsets.ISO_8859_1));
            }

            @Override
            public void lost() {
                everythingChanged();
            }

            @Override
            public void stopped() {
                everythingChanged();
            }
        }).name("vault " + cipherDir).gather(Duration.ofMillis(GATHER_MILLIS)).writes(SourceWatcher.Writes.AT_CLOSE)
                // The application embedding the vault may write the cipher directory itself; the
                // vault's own changes are told apart by their ctime instead.
                .ignoreOwnChanges(false).start();
        this.watcher = w;
        LOG.info("vault {}: other programs' changes in the cipher directory are watched ({}); a file rewritten in place is seen at "
                + "its writer's close", cipherDir, w.describe());
        for (Node n : table.nodes()) {
            if (n.isDirectory()) watch(w, n);
        }
    }

    /** A directory new to the kernel: watched from now on, once watching has started. */
    void watch(Node dir) {
        SourceWatcher<Node> w = watcher;
        if (w != null) watch(w, dir);
    }

    /** The table dropped {@code n}: a directory the kernel no longer knows is not watched any more. */
    void forgotten(Node n) {
        SourceWatcher<Node> w = watcher;
        if (w != null && n.isDirectory()) w.forget(n);
    }

    /** The name {@code stored} (as the table keys it) is in the node table now, or was looked up and is not there: no longer one the vault is creating. */
    void remembered(String stored) {
        if (!creating.isEmpty()) creating.remove(stored);
    }

    /** Stops watching. */
    void close() {
        SourceWatcher<Node> w = watcher;
        if (w != null) w.close();
    }

    private void watch(SourceWatcher<Node> w, Node dir) {
        ThreadBuffers s = scratch.get();
        int dfd;
        try {
            dfd = store.openDir(s, dir);
        } catch (ErrnoException gone) {
            return; // removed meanwhile: nothing to watch
        }
        try {
            w.watch(dir, dfd, null, true);
        } finally {
            store.closeDir(s, dfd);
        }
        if (dir.isDropped()) w.forget(dir); // forgotten meanwhile, before it was watched
    }

    /**
     * The name {@code stored} changed in {@code dir}'s cipher directory. The vault's own changes
     * are told from others' by the ciphertext file's ctime, which the vault records after each of
     * its changes; a change still under way (the file's content lock held, or a name not yet in
     * the node table) is looked at again shortly (false). Another program's change drops the
     * kernel's cached name and, for a file the kernel knows, its attributes and data.
     */
    boolean externalChange(Node dir, byte[] stored) {
        InodeMount m = mount;
        if (m == null || closed.get()) return true;
        if (Arrays.equals(stored, DIRIV) || (dir == rootNode && Arrays.equals(stored, CONF))) return true;
        byte[] name = NameCipher.isLongNameFile(stored)
                ? Arrays.copyOf(stored, stored.length - NameCipher.LONG_NAME_SUFFIX.length()) : stored;
        if (!NameCipher.isLongName(name) && !plausibleName(name)) return true; // gocryptfs's temporary files and the like
        String key = NodeTable.key(name);
        Node known = table.child(dir, key);
        byte[] plain = known == null ? null : known.plain(dir, key);
        // The vault's own change still under way: look again shortly, without a system call now.
        if (known != null ? known.content.isWriteLocked() : recentlyCreated(key)) return false;
        ThreadBuffers s = scratch.get();
        int rc;
        int dfd;
        try {
            dfd = store.openDir(s, dir);
        } catch (ErrnoException gone) {
            return true; // the directory itself went: its own name's change says so to its parent
        }
        try {
            rc = Libc.fstatat(dfd, cString(s.path, name), s.stat, Libc.AT_SYMLINK_NOFOLLOW);
            if (known != null && rc == 0 && s.statView.ino() == known.backingIno && ctime(s.statView) == known.seenCtime) {
                return true; // as the vault left it
            }
            if (plain == null) {
                plain = store.decryptName(s, dir, dfd, name);
                if (plain == null) return true;
            }
        } catch (ErrnoException e) {
            return true;
        } finally {
            store.closeDir(s, dfd);
        }
        try {
            m.invalidateEntry(dir.nodeId(), plain);
            if (known != null) {
                known.fileId = null;
                known.target = null;
                known.seenCtime = Long.MIN_VALUE;
                m.invalidateInode(known.nodeId(), 0, 0);
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("vault {}: telling the kernel that {} changed: {}", cipherDir, store.plainPath(dir), e.toString());
        }
        return true;
    }

    /** Lost events: everything the kernel knows may have changed. */
    private void everythingChanged() {
        InodeMount m = mount;
        if (m == null) return;
        for (Node n : table.nodes()) {
            n.fileId = null;
            n.target = null;
            n.seenCtime = Long.MIN_VALUE;
            try {
                m.invalidateInode(n.nodeId(), 0, 0);
                dev.fusepanama.inode.table.Node.Link l = table.name(n); // full name: the vault's own Node is another
                byte[] plain = l == null ? null : n.plain(l.parent(), l.name());
                if (plain != null) m.invalidateEntry(l.parent().nodeId(), plain);
            } catch (IOException | IllegalStateException e) {
                LOG.debug("vault {}: invalidating after lost events: {}", cipherDir, e.toString());
            }
        }
    }

    /** Names a vault holds are unpadded URL-safe base64 (or long names). */
    private static boolean plausibleName(byte[] name) {
        for (byte b : name) {
            if (!(b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_')) return false;
        }
        return name.length > 0;
    }

    /** The vault is about to create {@code stored}: its creation event is the vault's own. */
    void announce(byte[] stored) {
        if (watcher == null) return;
        if (creating.size() > 10_000) {
            long now = System.nanoTime();
            creating.values().removeIf(at -> now - at > CREATION_WINDOW_NANOS);
        }
        creating.put(NodeTable.key(stored), System.nanoTime());
    }

    /** Whether the name {@code stored} (as the table keys it) was created by the vault moments ago and is not yet in the node table. */
    private boolean recentlyCreated(String stored) {
        Long at = creating.get(stored);
        return at != null && System.nanoTime() - at < CREATION_WINDOW_NANOS;
    }
}
