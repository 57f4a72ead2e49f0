package dev.fusepanama.inode.table;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.Name;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nodes of an inode filesystem and their names, kept the way the kernel needs them: each node
 * has a number the kernel knows it by, a lookup count that entries raise and {@code forget} lowers,
 * and names in directories, several for a file with hard links. It comes in two kinds:
 * <ul>
 *   <li>{@link #owning}: the table is the namespace (memfs). A name keeps its node, and a
 *       directory lists its entries in a stable order (see {@link #entries}).
 *   <li>{@link #caching}: the namespace is somewhere else (a directory of real files, a
 *       {@code java.nio.file} filesystem), and the table remembers the nodes the kernel holds and
 *       the names it learnt them by ({@link #remember}). A name does not keep a node: when the
 *       kernel forgets it, it goes with its names; a directory stays while a child it names is
 *       known. Nodes may carry a key (the file's identity in the store, a
 *       {@code BasicFileAttributes.fileKey}), so that hard links are one node.
 * </ul>
 *
 * <p><b>Numbers.</b> A node's {@link Node#nodeId() nodeId} is a slot of the table and a count of
 * the slot's earlier users, so it is never given to another node while the table lives: the
 * generation sent with every entry can stay 0, and a stale number the kernel still uses finds
 * nothing rather than another file. The root is {@link InodeFileSystem#ROOT} and never dropped.
 *
 * <p><b>Lookups.</b> The table is the filesystem's {@link LookupCounter}: return it from
 * {@link InodeFileSystem#lookups()} and the library counts each entry the kernel takes (lookup,
 * mknod, mkdir, symlink, link, create, tmpfile and every readdirplus entry but "." and ".."),
 * takes back what the kernel did not take, and brings the kernel's forgets here; the filesystem
 * answers with its nodes and counts nothing. A node found by {@link #child} or {@link #remember}
 * may be dropped before its entry is counted (the kernel forgot its last lookup meanwhile, or it
 * lost its last name): {@link #count} then says so, and the library asks the lookup again.
 *
 * <p><b>Life.</b> A node is dropped when it has no name, no lookup and no {@link #hold}: a file
 * unlinked while open lives on until its last handle closes and the kernel forgets it, so
 * {@code fstat} of it still finds it by number. Then {@link Node#forgotten()} runs, outside the lock.
 *
 * <p><b>Threads.</b> {@link #find} takes no lock. Names are guarded by one read/write lock:
 * lookups and listings share it, changes of names take it alone. An operation that checks and
 * then changes (EEXIST, ENOTEMPTY) runs its checks inside {@link #write}; every method here may be
 * called inside {@link #read} or {@link #write}, which nest. Take the table's lock before any lock
 * of a node's own.
 *
 * @param <N> the filesystem's node class
 */
public final class NodeTable<N extends Node> implements LookupCounter {
    private static final Logger LOG = LoggerFactory.getLogger(NodeTable.class);

    /**
     * A directory entry, as {@link #entries} lists it.
     *
     * @param <N> the filesystem's node class
     * @param name the entry's name, its bytes as ISO-8859-1 chars ({@link #key(byte[])})
     * @param node the node the name leads to
     * @param cookie the entry's place in its directory's listing: the offset to resume after it
     */
    public record Entry<N extends Node>(String name, N node, long cookie) {
        /** {@return the name's bytes, as the kernel sent them and takes them back} */
        public byte[] bytes() {
            return name.getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * A key of a caching table that names one file for the store's life and is never given to
     * another, as a file handle ({@code name_to_handle_at(2)}) is and an inode number is not: a
     * node found by it is that file even with no name left (open and unlinked, found again by
     * another hard link) or with a link count that disagrees ({@link #remember}).
     */
    public interface LastingKey {}

    /**
     * Work under the table's lock that may fail with an errno.
     *
     * @param <T> what the work returns
     */
    @FunctionalInterface
    public interface Action<T> {
        /**
         * Does the work.
         *
         * @return what the caller of {@link #read} or {@link #write} gets back
         * @throws IOException to fail with its errno (an {@code ErrnoException}, a
         *     {@code java.nio.file} exception): passed on to the caller
         */
        T run() throws IOException;
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final N root;
    /** Nodes by slot (the low 32 bits of their number); replaced, larger, under the write lock. */
    private volatile AtomicReferenceArray<Node> slots = new AtomicReferenceArray<>(64);
    /** How many nodes each slot has held before, under the write lock: the high bits of the next number. */
    private int[] reuses = new int[64];
    private int[] free = new int[16];
    private int freeCount;
    /** The highest slot handed out; slot 0 is never used (number 0 is no node). */
    private int highest;
    /** Nodes dropped by the current outermost write section, told after it unlocks. */
    private List<Node> dropped = new ArrayList<>();
    /**
     * Nodes whose last lookup was forgotten by a thread holding only the shared lock, which cannot
     * take the exclusive one: looked at when that lock is released, or by the next write section.
     */
    private final ConcurrentLinkedQueue<Node> unused = new ConcurrentLinkedQueue<>();

    private final boolean owning;
    /** Bumped whenever a node loses or changes a name: what was computed from names before may be stale. */
    private final AtomicLong nameChanges = new AtomicLong();
    /** Caching tables: nodes by their key in the store. Under the write lock. */
    private final Map<Object, Node> byKey;

    /**
     * A table that is the namespace (see the class comment): a name keeps its node.
     *
     * @param <N> the filesystem's node class
     * @param root the root directory's node, which gets {@link InodeFileSystem#ROOT}
     * @return a table holding only the root
     * @throws IllegalArgumentException if {@code root} is not a directory
     */
    public static <N extends Node> NodeTable<N> owning(N root) {
        return new NodeTable<>(root, true);
    }

    /**
     * A table of what the kernel holds of a namespace kept elsewhere (see the class comment):
     * names are learnt by {@link #remember} and go with their nodes.
     *
     * @param <N> the filesystem's node class
     * @param root the root directory's node, which gets {@link InodeFileSystem#ROOT}
     * @return a table holding only the root
     * @throws IllegalArgumentException if {@code root} is not a directory
     */
    public static <N extends Node> NodeTable<N> caching(N root) {
        return new NodeTable<>(root, false);
    }

    private NodeTable(N root, boolean owning) {
        if (!root.isDirectory()) {
            throw new IllegalArgumentException("the root must be a directory");
        }
        this.root = root;
        this.owning = owning;
        this.byKey = owning ? null : new HashMap<>();
        locked(() -> {
            take(root);
            return null;
        });
        if (root.nodeId != InodeFileSystem.ROOT) {
            throw new IllegalStateException("the root got " + root.nodeId);
        }
        root.setLookups(1); // the kernel's, from mount to unmount; never forgotten
    }

    /** {@return the root directory's node, number {@link InodeFileSystem#ROOT}, never dropped} */
    public N root() {
        return root;
    }

    /**
     * The key of a name: its bytes as ISO-8859-1 characters, one per byte, so any byte string is
     * one and compares as bytes.
     *
     * @param name the name's bytes
     * @return the string the table names it by
     */
    public static String key(byte[] name) {
        return new String(name, StandardCharsets.ISO_8859_1);
    }

    /**
     * The key of a name the kernel sent, as {@link #key(byte[])}.
     *
     * @param name the name, valid during its request
     * @return the string the table names it by, kept after the request
     */
    public static String key(Name name) {
        return key(name.bytes());
    }

    // ---- locking -----------------------------------------------------------------------------

    /**
     * Runs {@code action} holding the shared lock: names do not change meanwhile.
     *
     * @param <T> what the action returns
     * @param action the work
     * @return what {@code action} returned
     * @throws IOException what {@code action} threw
     */
    public <T> T read(Action<T> action) throws IOException {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return action.run();
        } finally {
            l.unlock();
            if (!unused.isEmpty() && lock.getReadHoldCount() == 0 && !lock.isWriteLockedByCurrentThread()) {
                locked(() -> null); // the write section looks at them
            }
        }
    }

    /**
     * Runs {@code action} holding the exclusive lock: checks and changes of names in one step.
     * Nodes dropped meanwhile are told ({@link Node#forgotten()}) once the outermost write section
     * has unlocked.
     *
     * @param <T> what the action returns
     * @param action the work
     * @return what {@code action} returned
     * @throws IOException what {@code action} threw
     */
    public <T> T write(Action<T> action) throws IOException {
        lock.writeLock().lock();
        try {
            return action.run();
        } finally {
            unlockWrite();
        }
    }

    /** As {@link #write(Action)} for the table's own work, which cannot fail. */
    private <T> T locked(Supplier<T> action) {
        lock.writeLock().lock();
        try {
            return action.get();
        } finally {
            unlockWrite();
        }
    }

    /** Unlocks; the outermost write section then tells the nodes it dropped. */
    private void unlockWrite() {
        if (lock.getWriteHoldCount() == 1) {
            for (Node n; (n = unused.poll()) != null; ) dropIfUnused(n);
        }
        if (lock.getWriteHoldCount() > 1 || dropped.isEmpty()) {
            lock.writeLock().unlock();
            return;
        }
        List<Node> gone = dropped;
        dropped = new ArrayList<>();
        lock.writeLock().unlock();
        for (Node n : gone) {
            try {
                n.forgotten();
            } catch (RuntimeException e) {
                LOG.warn("forgetting {} threw", n, e);
            }
        }
    }

    private void requireWrite() {
        if (!lock.isWriteLockedByCurrentThread()) {
            throw new IllegalStateException("call inside NodeTable.write");
        }
    }

    // ---- numbers -----------------------------------------------------------------------------

    /**
     * The node the kernel calls {@code nodeId}. Takes no lock.
     *
     * @param nodeId a number the kernel sent ({@code ino}, {@code parent})
     * @return the node, or null if this table has none by that number (any more)
     */
    @SuppressWarnings("unchecked")
    public N find(long nodeId) {
        int slot = (int) nodeId;
        AtomicReferenceArray<Node> s = slots;
        if (slot <= 0 || slot >= s.length()) {
            return null;
        }
        Node n = s.get(slot);
        return n != null && n.nodeId == nodeId ? (N) n : null;
    }

    /**
     * Every node the table holds now, the root first: a snapshot, for work over all the files the
     * kernel may know (telling it to drop what it cached of them, when anything may have changed).
     *
     * @return the nodes, in the order of their slots; a new list
     */
    @SuppressWarnings("unchecked")
    public List<N> nodes() {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock(); // the highest slot and the slots array change under the exclusive lock
        try {
            AtomicReferenceArray<Node> s = slots;
            List<N> all = new ArrayList<>();
            for (int i = 1; i <= highest; i++) {
                Node n = s.get(i);
                if (n != null) all.add((N) n);
            }
            return all;
        } finally {
            l.unlock();
        }
    }

    /** Gives {@code n} a slot and its number. Under the write lock. */
    private void take(Node n) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            slot = ++highest;
            if (slot >= slots.length()) {
                AtomicReferenceArray<Node> bigger = new AtomicReferenceArray<>(slots.length() * 2);
                for (int i = 0; i < slots.length(); i++) bigger.set(i, slots.get(i));
                reuses = Arrays.copyOf(reuses, bigger.length());
                slots = bigger;
            }
        }
        n.nodeId = ((long) reuses[slot] << 32) | slot;
        slots.set(slot, n);
    }

    /** Frees {@code n}'s slot; a slot used 2^31 times is retired, so no number ever comes back. Under the write lock. */
    private void release(Node n) {
        int slot = (int) n.nodeId;
        slots.set(slot, null);
        if (++reuses[slot] < Integer.MAX_VALUE) {
            if (freeCount == free.length) free = Arrays.copyOf(free, free.length * 2);
            free[freeCount++] = slot;
        }
    }

    // ---- names -------------------------------------------------------------------------------

    /**
     * The node named {@code name} in {@code dir}; counts nothing.
     *
     * @param dir a directory of this table
     * @param name the name's key ({@link #key(Name)})
     * @return the node, or null if there is none by that name (or {@code dir} is not a directory)
     */
    @SuppressWarnings("unchecked")
    public N child(N dir, String name) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return dir.children == null ? null : (N) dir.children.get(name);
        } finally {
            l.unlock();
        }
    }

    /**
     * One lookup more of {@code inode}, a node of this table, whose entry the library is about to
     * send (see the class comment); the filesystem does not call it.
     *
     * @param inode the node
     * @return true if counted; false if it was dropped (the entry is not sent)
     * @throws IllegalArgumentException if {@code inode} is not a {@link Node}
     */
    @Override
    public boolean count(Inode inode) {
        if (!(inode instanceof Node n)) {
            throw new IllegalArgumentException(inode + " is not a node of a NodeTable; answer with the table's nodes");
        }
        for (long l = n.lookupCount(); ; l = n.lookupCount()) {
            if (l < 0) return false; // dropped: its number is no longer this table's
            if (n.casLookups(l, l + 1)) return true;
        }
    }

    /**
     * Names {@code node} {@code name} in {@code dir}: a new node's first name (it gets its number
     * here) or, for a file, another one (a hard link). Inside {@link #write}, after checking the
     * name is free; a directory has one name, and a file whose names are all gone gets no new one
     * (the caller answers ENOENT, as linkat of a removed file does).
     *
     * @param dir the directory to name it in
     * @param name the name's key, free in {@code dir}
     * @param node a new node, or a file's node for another name
     * @throws IllegalStateException outside {@link #write}, in a caching table, if the name is
     *     taken, or if {@code node} was dropped, is a directory the table has already, or is a
     *     removed file
     * @throws IllegalArgumentException if {@code dir} is not a directory
     */
    public void add(N dir, String name, N node) {
        requireWrite();
        if (!owning) throw new IllegalStateException("a caching table learns names by remember");
        if (!dir.isDirectory()) throw new IllegalArgumentException(dir + " is not a directory");
        if (dir.children.get(name) != null) throw new IllegalStateException("the name is taken; check before adding");
        if (node.isDropped()) throw new IllegalStateException(node + " was dropped");
        if (node.nodeId == 0) {
            take(node);
        } else if (node.isDirectory()) {
            throw new IllegalStateException("a directory has one name");
        } else if (!node.hasNames() && !node.linkable) {
            throw new IllegalStateException(node + " has no names left: a removed file gets no new one");
        }
        node.linkable = false;
        dir.children.put(name, node);
        node.addName(dir, name);
    }

    /**
     * Numbers {@code node}, a new file with no name (open with {@code O_TMPFILE}), to answer
     * tmpfile with: it lives while the kernel (once the entry is counted) or a handle holds it. If
     * {@code linkable} (opened without {@code O_EXCL}), {@link #add} may give it a first name
     * (linkat); a file that had names and lost them never gets one again. Inside {@link #write}.
     *
     * @param node a new node, not a directory
     * @param linkable whether it may get a first name
     * @throws IllegalStateException outside {@link #write}, in a caching table, or if {@code node}
     *     already has a number
     * @throws IllegalArgumentException if {@code node} is a directory
     */
    public void adopt(N node, boolean linkable) {
        requireWrite();
        if (!owning) throw new IllegalStateException("a caching table learns names by remember");
        if (node.nodeId != 0) throw new IllegalStateException(node + " already has a number");
        if (node.isDirectory()) throw new IllegalArgumentException("a directory is made with a name");
        take(node);
        node.linkable = linkable;
    }

    /**
     * Removes the name {@code name} from {@code dir} and returns its node (null if there was
     * none), which lives on while the kernel or a handle holds it. Inside {@link #write}.
     *
     * @param dir the directory
     * @param name the name's key
     * @return the node that lost the name, or null
     * @throws IllegalStateException outside {@link #write}
     */
    @SuppressWarnings("unchecked")
    public N remove(N dir, String name) {
        requireWrite();
        Node n = dir.children.remove(name);
        if (n != null) {
            unname(n, dir, name);
            dropIfUnused(n);
        }
        return (N) n;
    }

    /**
     * Renames {@code name} in {@code dir} to {@code newName} in {@code newDir}, replacing what was
     * there (rename(2) after its checks: the caller answers EEXIST, EISDIR, ENOTEMPTY, EINVAL).
     * Returns the node that lost its name, or null. Two names of one file stay as they are, as
     * POSIX asks. Inside {@link #write}.
     *
     * @param dir the directory {@code name} is in
     * @param name the key of the name to move
     * @param newDir the directory to move it to
     * @param newName the key of its new name there
     * @return the node that lost its name to the move (the one replaced), or null
     * @throws IllegalStateException outside {@link #write}, or in an owning table if {@code name}
     *     does not exist
     */
    @SuppressWarnings("unchecked")
    public N move(N dir, String name, N newDir, String newName) {
        requireWrite();
        Node moving = dir.children.get(name);
        Node replaced = newDir.children.get(newName);
        if (moving == null) {
            if (owning) throw new IllegalStateException("no " + name + " in " + dir);
            if (replaced != null) forgetName(newDir, newName); // a name the kernel did not know replaced one it did
            return (N) replaced;
        }
        if (replaced == moving) return null;
        if (dir == newDir && name.equals(newName)) return null;
        if (replaced != null) {
            newDir.children.remove(newName);
            unname(replaced, newDir, newName);
        }
        dir.children.remove(name);
        unname(moving, dir, name);
        newDir.children.put(newName, moving);
        moving.addName(newDir, newName);
        if (replaced != null) dropIfUnused(replaced);
        return (N) replaced;
    }

    /**
     * Swaps the nodes of two names (RENAME_EXCHANGE), both of which exist. Inside {@link #write}.
     * A caching table that knows only one of them (or neither) forgets both, to learn them again.
     *
     * @param dir the directory of the first name
     * @param name the first name's key
     * @param newDir the directory of the second name
     * @param newName the second name's key
     * @throws IllegalStateException outside {@link #write}, or in an owning table if either name
     *     does not exist
     */
    public void exchange(N dir, String name, N newDir, String newName) {
        requireWrite();
        Node a = dir.children.get(name);
        Node b = newDir.children.get(newName);
        if (a == null || b == null) {
            if (owning) throw new IllegalStateException("both names must exist");
            forgetName(dir, name); // the kernel knew one side at most: it learns them again
            forgetName(newDir, newName);
            return;
        }
        if (a == b) return;
        unname(a, dir, name);
        unname(b, newDir, newName);
        dir.children.put(name, b);
        newDir.children.put(newName, a);
        b.addName(dir, name);
        a.addName(newDir, newName);
    }

    private void unname(Node n, Node dir, String name) {
        n.removeName(dir, name);
        nameChanges.incrementAndGet();
    }

    /**
     * A number that changes whenever a node loses or changes a name (remove, rename, a name
     * forgotten or learnt anew): a path computed from names is good while this has not moved.
     *
     * @return the count of such changes so far
     */
    public long nameChanges() {
        return nameChanges.get();
    }

    /**
     * Whether {@code dir} is {@code ancestor} or inside it (a directory moved into itself: EINVAL).
     *
     * @param dir a directory
     * @param ancestor the directory it may be in
     * @return true if {@code dir} is {@code ancestor} or below it
     */
    public boolean isWithin(N dir, N ancestor) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            for (Node d = dir; d != null; d = d.parent) {
                if (d == ancestor) return true;
            }
            return false;
        } finally {
            l.unlock();
        }
    }

    /**
     * {@code n}'s first name (a directory's only one).
     *
     * @param n the node
     * @return the name, or null once it has none
     */
    public Node.Link name(N n) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return n.parent == null ? null : new Node.Link(n.parent, n.name);
        } finally {
            l.unlock();
        }
    }

    /**
     * {@code n}'s names: a file's hard links, a directory's one name, none once removed.
     *
     * @param n the node
     * @return the names, oldest first; an immutable copy
     */
    public List<Node.Link> names(N n) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return List.copyOf(n.names());
        } finally {
            l.unlock();
        }
    }

    /**
     * {@code dir}'s parent: what ".." names.
     *
     * @param dir a directory
     * @return its parent; the root's is itself, a removed directory's null
     */
    @SuppressWarnings("unchecked")
    public N parent(N dir) {
        if (dir == root) return root;
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return (N) dir.parent;
        } finally {
            l.unlock();
        }
    }

    /**
     * st_nlink as a kernel filesystem counts it: a file's names; a directory's "." and its entry
     * in its parent, and each subdirectory's ".."; 0 once removed.
     *
     * @param n the node
     * @return its link count
     */
    public long linkCount(N n) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            if (!n.isDirectory()) return n.nameCount();
            return n != root && !n.hasNames() ? 0 : 2 + n.children.directories;
        } finally {
            l.unlock();
        }
    }

    /**
     * How many entries {@code dir} has ("." and ".." not counted).
     *
     * @param dir a directory
     * @return the count of its names
     */
    public int size(N dir) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return dir.children.size();
        } finally {
            l.unlock();
        }
    }

    /**
     * {@code dir}'s entries whose cookies lie strictly between {@code after} and {@code before},
     * in cookie order: a listing resumed at the last cookie it returned. A view: read it inside
     * {@link #read}.
     *
     * @param dir a directory
     * @param after the cookie to list after: 0 (or 2, past "." and "..") for the first entry
     * @param before the cookie to stop before ({@code Long.MAX_VALUE} for all)
     * @return the entries by cookie, unmodifiable, valid while the lock is held
     * @throws IllegalStateException outside {@link #read} and {@link #write}
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public NavigableMap<Long, Entry<N>> entries(N dir, long after, long before) {
        if (lock.getReadHoldCount() == 0 && !lock.isWriteLockedByCurrentThread()) {
            throw new IllegalStateException("read the entries inside NodeTable.read");
        }
        return Collections.unmodifiableNavigableMap((NavigableMap) dir.children.between(after, before));
    }

    /**
     * The cookie {@code dir}'s next entry will get: every entry made from now on is listed at or
     * after it.
     *
     * @param dir a directory
     * @return the next cookie, 3 or more (1 and 2 are "." and "..")
     */
    public long nextCookie(N dir) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock();
        try {
            return dir.children.nextCookie();
        } finally {
            l.unlock();
        }
    }

    /**
     * Caching tables: the node of {@code name} in {@code dir}, which the store says is a file of
     * type {@code type} with identity {@code key} (null if the store has none) and {@code links}
     * names ({@code st_nlink}; 0 if the store does not say), to answer an entry with. The node the table knows by that name if it is the same file; else the node
     * with that key, now named here too (a hard link; a directory is moved here, having one name);
     * else a new one from {@code make}. A node the name led to before, another file now, loses the
     * name. Inside or outside {@link #write}.
     *
     * <p>A key can be given again: a store whose key is an inode number (ext4, xfs, btrfs) gives a
     * deleted file's number to the next file at once, while the table may still hold the deleted
     * file's node (the kernel has not forgotten it, or a removal behind the table or in another
     * thread has not reached it yet). So the node with the key is another file when it has no name
     * left, and when it has names elsewhere but the store says this file has only this one
     * ({@code links} 1): those names are stale, whether another file took the number or this one
     * was moved behind the table. A key that is never given again ({@link LastingKey}: a file
     * handle) is trusted instead: its node is this file, named or not.
     *
     * @param dir the directory the store found the name in, a node of this table
     * @param name the name's key
     * @param key the file's identity in the store, or null
     * @param type the file's mode, whose {@link Posix#S_IFMT} bits count
     * @param links the file's link count in the store, 0 if unknown
     * @param make makes the node of a file the table does not know, of that type
     * @return the file's node
     * @throws IllegalStateException in an owning table
     * @throws IllegalArgumentException if {@code make} made a node of another type
     */
    @SuppressWarnings("unchecked")
    public N remember(N dir, String name, Object key, int type, long links, Supplier<N> make) {
        if (owning) throw new IllegalStateException("an owning table names nodes by add");
        int t = type & Posix.S_IFMT;
        return locked(() -> {
            Node known = dir.children.get(name);
            if (known != null && known.type() == t && (key == null ? known.key == null : key.equals(known.key))) {
                return (N) known;
            }
            if (known != null) { // another file has the name now
                dir.children.remove(name);
                unname(known, dir, name);
                dropIfUnused(known);
            }
            Node n = key == null ? null : byKey.get(key);
            boolean lasting = key instanceof LastingKey;
            if (n != null && (n.type() != t || (!lasting && (!n.hasNames() || (links == 1 && !n.isDirectory()))))) {
                // The store gave the identity to another file, or the table's names for it are
                // stale: a file of another type, a node with no name left, or one named elsewhere
                // while this file has only this name (see above).
                byKey.remove(key);
                n.key = null;
                n = null;
            }
            if (n == null) {
                n = make.get();
                if (n.type() != t) throw new IllegalArgumentException("made a node of another type than " + Integer.toOctalString(t));
                take(n);
                n.key = key;
                if (key != null) byKey.put(key, n);
            } else if (n.isDirectory() && n.hasNames()) {
                Node.Link old = n.names().get(0); // a directory has one name: it was moved
                if (old.parent().children.get(old.name()) == n) old.parent().children.remove(old.name());
                unname(n, old.parent(), old.name());
            }
            dir.children.put(name, n);
            n.addName(dir, name);
            return (N) n;
        });
    }

    /**
     * Caching tables: the store has no {@code name} in {@code dir} any more (removed through the
     * mount, or behind it); its node keeps only what else holds it. Returns the node, or null if
     * the table knew none by that name.
     *
     * @param dir the directory
     * @param name the name's key
     * @return the node that had the name, or null
     */
    @SuppressWarnings("unchecked")
    public N forgetName(N dir, String name) {
        return locked(() -> {
            Node n = dir.children.remove(name);
            if (n != null) {
                unname(n, dir, name);
                dropIfUnused(n);
                if (!owning) dropIfUnused(dir);
            }
            return (N) n;
        });
    }

    // ---- life --------------------------------------------------------------------------------

    /**
     * The kernel forgot {@code lookups} of node {@code nodeId}: it may drop the node now. A number
     * this table does not know, or more than it counted, is logged and ignored (never thrown at
     * the kernel).
     *
     * @param nodeId the node's number
     * @param lookups how many lookups the kernel dropped
     */
    @Override
    public void forget(long nodeId, long lookups) {
        N n = find(nodeId);
        if (n == null || n == root) {
            if (n == null) LOG.debug("forget of node {} that this table does not know", nodeId);
            return;
        }
        long left = n.addLookups(-lookups);
        if (left < 0) {
            LOG.warn("the kernel forgot {} lookups of {}, more than it was given", lookups, n);
            n.casLookups(left, 0);
        }
        if (left <= 0) {
            mayBeUnused(n);
        }
    }

    /**
     * Keeps {@code n} past its names and lookups (an open file) until {@link #letGo}.
     *
     * @param n a node the caller holds (just looked up, or found by a number the kernel sent)
     * @throws IllegalStateException if {@code n} was dropped
     */
    public void hold(N n) {
        ReentrantReadWriteLock.ReadLock l = lock.readLock();
        l.lock(); // a drop takes the exclusive lock: none can come between the check and the count
        try {
            if (n.isDropped()) throw new IllegalStateException(n + " was dropped");
            n.addHolds(1);
        } finally {
            l.unlock();
        }
    }

    /**
     * Undoes one {@link #hold}; the node may be dropped now.
     *
     * @param n a node held
     */
    public void letGo(N n) {
        if (n.addHolds(-1) <= 0) {
            mayBeUnused(n);
        }
    }

    /** Drops {@code n} now if nothing keeps it, or once this thread's shared lock is released. */
    private void mayBeUnused(Node n) {
        if (lock.getReadHoldCount() > 0 && !lock.isWriteLockedByCurrentThread()) {
            unused.add(n); // a shared lock cannot become the exclusive one
        } else {
            locked(() -> {
                dropIfUnused(n);
                return null;
            });
        }
    }

    /** Drops {@code n} if nothing keeps it. Under the write lock. */
    private void dropIfUnused(Node n) {
        for (Node next = n; next != null; ) {
            Node parentNow = drop(next);
            next = parentNow;
        }
    }

    /** Drops {@code n} if nothing keeps it; in a caching table, returns the parent it no longer keeps (to look at next). */
    private Node drop(Node n) {
        if (n == root || n.holds() > 0) return null;
        if (owning ? n.hasNames() : n.children != null && n.children.size() > 0) return null;
        if (!n.casLookups(0, -1)) return null; // counted meanwhile (or already dropped)
        Node parent = null;
        if (!owning) {
            for (Node.Link l : n.names()) {
                if (l.parent().children.get(l.name()) == n) l.parent().children.remove(l.name());
                unname(n, l.parent(), l.name());
                parent = l.parent();
            }
            if (n.key != null) byKey.remove(n.key, n);
        }
        release(n);
        dropped.add(n);
        return parent;
    }

    /**
     * The session ended (after {@link InodeFileSystem#destroy}): the kernel's counts died with it.
     * Each node goes back to what its names and holds keep, ready for another mount.
     */
    @Override
    public void sessionEnded() {
        locked(() -> {
            AtomicReferenceArray<Node> s = slots;
            for (int i = 1; i <= highest; i++) {
                Node n = s.get(i);
                if (n == null || n == root) continue;
                n.setLookups(0);
                dropIfUnused(n);
            }
            return null;
        });
    }
}
