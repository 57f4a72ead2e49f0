package dev.fusepanama.examples.mirror;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.watch.SourceWatcher;
import dev.fusepanama.watch.SourceWatcher.Change;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes other programs make in the source, learnt from a {@link SourceWatcher} and told to the
 * kernel, so that it may keep what it cached of everything else: names and attributes for a day,
 * file data across opens. What the watcher cannot see is not cached beyond
 * the mirror's {@link InodeMirror.Builder#cacheSeconds}: with fanotify on the whole filesystem
 * (root) that is nothing; with marks per directory, a name in a directory that could not be
 * watched (the mark limit) and the attributes and data of a file with more than one link, which
 * may change through a name elsewhere.
 *
 * <p>A change is told to the kernel {@link SourceWatcher.Builder#gather} after the other
 * program's system call at the latest, plus the watcher thread's and the kernel's delay: within
 * {@value #PROMISED_MILLIS} ms. The mirror's own changes are ones the kernel asked for and knows;
 * fanotify drops them by their process id, inotify cannot, so under inotify they cost the kernel
 * what it cached of the names and files just changed.
 */
final class SourceChanges implements SourceWatcher.Listener<SourceNode> {
    private static final Logger LOG = LoggerFactory.getLogger(InodeMirror.class);
    /** How long the kernel may keep what a watch covers: a day, as passthrough_hp's default. */
    static final double COVERED_SECONDS = 86_400;
    /** The delay the mirror promises from another program's change to the kernel's knowing it. */
    static final int PROMISED_MILLIS = 200;

    private final SourceNodes table;
    private final InodeMount mount;
    private final SourceWatcher<SourceNode> watcher;
    private final boolean everyPath;
    private final Timeouts both;
    private final Timeouts entries;
    private final Timeouts attributes;
    private volatile boolean working = true;

    private SourceChanges(SourceNodes table, InodeMount mount, Path source, SourceWatcher.Mechanism most, int limit) throws IOException {
        this.table = table;
        this.mount = mount;
        this.watcher = SourceWatcher.builder(source, this).name("mirror of " + source).atMost(most).maxDirectories(limit).start();
        this.everyPath = watcher.seesEveryPath();
        Timeouts base = table.timeouts;
        double entry = Math.max(base.entries(), COVERED_SECONDS);
        double attr = Math.max(base.attributes(), COVERED_SECONDS);
        this.both = Timeouts.NONE.withEntries(entry).withAttributes(attr);
        this.entries = Timeouts.NONE.withEntries(entry).withAttributes(base.attributes());
        this.attributes = Timeouts.NONE.withEntries(base.entries()).withAttributes(attr);
    }

    /**
     * Starts watching {@code table}'s source and telling {@code mount}; the nodes the kernel
     * already holds are watched first (their replies so far carried the short timeouts).
     */
    static SourceChanges start(SourceNodes table, InodeMount mount, Path source, SourceWatcher.Mechanism most, int limit)
            throws IOException {
        SourceChanges c = new SourceChanges(table, mount, source, most, limit);
        for (SourceNode n : table.all()) {
            long d = table.descriptor(n);
            if (d < 0) continue; // gone: the kernel learns so from its parent's change or its next use
            try {
                c.watch(n, (int) d);
            } finally {
                table.release(n, d);
            }
        }
        LOG.info("mirror of {}: changes made in the source by other programs reach the kernel within {} ms ({}); "
                + "what that covers the kernel keeps for up to {} s, the rest{} for {} s", source, PROMISED_MILLIS, c.watcher.describe(),
                (long) COVERED_SECONDS, c.everyPath ? " (nothing)" : " (directories beyond the limit, files of several links)",
                table.timeouts.entries());
        return c;
    }

    /** Watches the node {@code n}, open as {@code fd}, before the kernel is told of it. */
    void watch(SourceNode n, int fd) {
        n.watched = watcher.watch(n, fd, n.handle, n.directory);
    }

    void forget(SourceNode n) {
        watcher.forget(n);
    }

    /**
     * What the kernel may cache of an entry of {@code n} in {@code parent} (null: unknown), whose
     * attributes {@code st} holds; {@code otherwise} where the watch does not cover it.
     */
    Timeouts timeouts(SourceNode parent, SourceNode n, Stat st, Timeouts otherwise) {
        if (!working) return otherwise;
        boolean entry = parent != null && parent.watched;
        // A file with set-ID bits may lose them to the mirror during a write (HANDLE_KILLPRIV_V2),
        // which the kernel must see before an execve: its attributes are never kept long.
        boolean setId = n != null && !n.directory && (st.mode() & (Posix.S_ISUID | Posix.S_ISGID)) != 0;
        boolean attrs = n != null && !setId && (n.directory || everyPath ? n.watched : st.nlink() == 1 && entry);
        return entry ? (attrs ? both : entries) : attrs ? attributes : otherwise;
    }

    /**
     * Whether the kernel may keep the data of file {@code n}, open as {@code fd}, across opens:
     * where its changes are seen whatever name they are made through, and where a read would not
     * set its access time under {@code times} (the mount's rule): a read the page cache answers
     * never reaches the source, so the first read after a change (relatime), or every read
     * (strictatime), must.
     */
    boolean keepsData(SourceNode n, int fd, AccessTimes times) {
        if (!working) return false;
        SourceNode.Link link = n.link;
        if (everyPath ? !n.watched : link == null || !link.parent().watched) return false;
        try (Arena a = Arena.ofConfined()) {
            Stat st = Stat.over(a.allocate(Stat.SIZE, 8));
            if (Libc.fstat(fd, st.segment()) != 0) return false;
            if (!everyPath && st.nlink() != 1) return false;
            Instant now = Instant.now();
            return !times.needsUpdate(false, nanos(st.atimeSeconds(), st.atimeNanos()),
                    nanos(st.mtimeSeconds(), st.mtimeNanos()), nanos(st.ctimeSeconds(), st.ctimeNanos()),
                    nanos(now.getEpochSecond(), now.getNano()));
        }
    }

    private static long nanos(long seconds, long nanos) {
        return seconds * 1_000_000_000L + nanos;
    }

    @Override
    public boolean changed(Change<SourceNode> c) {
        try {
            SourceNode dir = c.directory();
            SourceNode node = c.node();
            int what = c.what();
            if (dir != null && c.name() != null) {
                if ((what & SourceWatcher.NAME) != 0) {
                    mount.invalidateEntry(dir.id, c.name());
                    // The directory's attributes (times, link count): the entry's invalidation
                    // drops them only where the kernel had the name.
                    mount.invalidateInode(dir.id, -1, 0);
                }
                if (node == null && (what & (SourceWatcher.DATA | SourceWatcher.ATTRIBUTES)) != 0) {
                    node = byName(dir, c.name());
                }
            }
            if (node != null) {
                mount.invalidateInode(node.id, (what & SourceWatcher.DATA) != 0 ? 0 : -1, 0);
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("telling the kernel of {}: {}", c, e.toString());
        }
        return true;
    }

    /** The node of the file now at {@code name} in {@code dir}, if the kernel holds one (inotify names no file). */
    private SourceNode byName(SourceNode dir, byte[] name) {
        long d = table.descriptor(dir);
        if (d < 0) return null;
        try (Arena a = Arena.ofConfined()) {
            Stat st = Stat.over(a.allocate(Stat.SIZE, 8));
            MemorySegment n = Scratch.cString(a.allocate(name.length + 1), name);
            return Libc.fstatat((int) d, n, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) == 0 ? table.find(st) : null;
        } finally {
            table.release(dir, d);
        }
    }

    @Override
    public void lost() {
        LOG.warn("the source watcher lost events: the kernel drops everything it cached of the mirror");
        everythingChanged();
    }

    @Override
    public void stopped() {
        working = false;
        LOG.warn("the source watcher stopped: the kernel drops everything it cached of the mirror and keeps nothing long from now on");
        everythingChanged();
    }

    private void everythingChanged() {
        List<SourceNode> all = table.all();
        for (SourceNode n : all) {
            try {
                mount.invalidateInode(n.id, 0, 0);
                SourceNode.Link l = n.link;
                if (l != null) mount.invalidateEntry(l.parent().id, l.name());
            } catch (IOException | IllegalStateException e) {
                LOG.debug("invalidating after lost events: {}", e.toString());
            }
        }
    }

    /** Stops watching; from now on the kernel is told to keep nothing for longer than without watching. */
    void close() {
        working = false;
        watcher.close();
    }

    /** How changes are learnt of (tests). */
    SourceWatcher.Mechanism mechanism() {
        return watcher.mechanism();
    }
}
