package dev.fusepanama.inode.table;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.Inode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A file the kernel may know, as its {@link NodeTable} keeps it: the number the kernel knows it
 * by, how many lookups of it the kernel holds, and its names. Subclass it with the file's own
 * state (data, mode, times); the bookkeeping here is the table's, and changes only through it.
 *
 * <p>A node lives in its table while anything needs it: a name (in a table that owns its
 * namespace), a lookup the kernel has not forgotten, a {@link NodeTable#hold hold} (an open
 * file), or, for a directory, a known child. When the last of these goes the table drops it,
 * calls {@link #forgotten()} once, and never hands out its number again.
 *
 * <p>The bookkeeping costs a node about 40 bytes: counters are plain fields updated through
 * VarHandles, and the first name is kept inline (a list only for a file's further hard links).
 */
public abstract class Node implements Inode {
    private static final VarHandle LOOKUPS;
    private static final VarHandle HOLDS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LOOKUPS = l.findVarHandle(Node.class, "lookups", long.class);
            HOLDS = l.findVarHandle(Node.class, "holds", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int type;
    /** The kernel's number for this node; 0 until a table takes it in. Written under the table's lock, then fixed. */
    volatile long nodeId;
    /** Entries the kernel took, minus what it forgot; -1 once dropped. Through {@link #LOOKUPS}. */
    private volatile long lookups;
    /** Open files and the like that keep the node past its names and lookups. Through {@link #HOLDS}. */
    private volatile int holds;
    /** A file made without a name (O_TMPFILE, without O_EXCL) that may still get its first one; guarded by the table's write lock. */
    boolean linkable;
    /** Its first name (parent null: none), and any further ones. Under the table's lock. */
    Node parent;
    String name;
    List<Link> moreNames;
    /** A directory's entries, in a table; null for other files. Under the table's lock. */
    final Children children;
    /** In a caching table, the file's identity in the store (null: none). Under the table's lock. */
    Object key;

    /**
     * A node of file type {@code type}, fixed for its life; it has no number until a table takes
     * it in ({@link NodeTable#add}, {@link NodeTable#adopt}, {@link NodeTable#remember}).
     *
     * @param type a mode whose {@link Posix#S_IFMT} bits give the type ({@link Posix#S_IFREG},
     *     {@link Posix#S_IFDIR}, ...); other bits are ignored
     * @throws IllegalArgumentException if {@code type} has no type bits
     */
    protected Node(int type) {
        this.type = type & Posix.S_IFMT;
        if (this.type == 0) {
            throw new IllegalArgumentException("a node needs a file type (S_IFREG, S_IFDIR, ...), not 0");
        }
        this.children = this.type == Posix.S_IFDIR ? new Children() : null;
    }

    /** {@return the number the kernel knows this node by, 0 before the table took it} Never given to another node of its table. */
    public final long nodeId() {
        return nodeId;
    }

    /** {@return the file type: the {@link Posix#S_IFMT} bits of a mode} */
    public final int type() {
        return type;
    }

    /** {@return whether this node is a directory} ({@link Posix#S_IFDIR}) */
    public final boolean isDirectory() {
        return type == Posix.S_IFDIR;
    }

    /** {@return the kernel's lookup count: entries it took, minus those it forgot} 0 once dropped. */
    public final long lookups() {
        return Math.max(0, lookups);
    }

    /**
     * {@return whether this file, made without a name, may be given its first one} (linkat of an
     * O_TMPFILE file opened without O_EXCL; see {@link NodeTable#adopt})
     */
    public final boolean isLinkable() {
        return linkable;
    }

    /**
     * {@return whether the table has let this node go} The kernel no longer knows its number, and
     * the author should not use it.
     */
    public final boolean isDropped() {
        return lookups < 0;
    }

    /** The count as kept: -1 once dropped. */
    long lookupCount() {
        return lookups;
    }

    long addLookups(long n) {
        return (long) LOOKUPS.getAndAdd(this, n) + n;
    }

    boolean casLookups(long expected, long value) {
        return LOOKUPS.compareAndSet(this, expected, value);
    }

    void setLookups(long value) {
        lookups = value;
    }

    int addHolds(int n) {
        return (int) HOLDS.getAndAdd(this, n) + n;
    }

    int holds() {
        return holds;
    }

    // ---- names, under the table's lock ---------------------------------------------------------

    boolean hasNames() {
        return parent != null;
    }

    int nameCount() {
        return parent == null ? 0 : 1 + (moreNames == null ? 0 : moreNames.size());
    }

    void addName(Node dir, String n) {
        if (parent == null) {
            parent = dir;
            name = n;
        } else {
            if (moreNames == null) moreNames = new ArrayList<>(1);
            moreNames.add(new Link(dir, n));
        }
    }

    void removeName(Node dir, String n) {
        if (moreNames != null) {
            for (int i = moreNames.size() - 1; i >= 0; i--) {
                Link l = moreNames.get(i);
                if (l.parent() == dir && l.name().equals(n)) {
                    moreNames.remove(i);
                    if (moreNames.isEmpty()) moreNames = null;
                    return;
                }
            }
        }
        if (parent == dir && n.equals(name)) {
            if (moreNames == null) {
                parent = null;
                name = null;
            } else {
                Link next = moreNames.remove(0);
                parent = next.parent();
                name = next.name();
                if (moreNames.isEmpty()) moreNames = null;
            }
        }
    }

    List<Link> names() {
        List<Link> all = new ArrayList<>(nameCount());
        if (parent != null) all.add(new Link(parent, name));
        if (moreNames != null) all.addAll(moreNames);
        return all;
    }

    /**
     * Called once when the table drops the node, after its lock is released: free what the file
     * held (its data, the space it counted against a quota).
     */
    protected void forgotten() {}

    /**
     * Where a node is named.
     *
     * @param parent the directory the name is in
     * @param name the name, its bytes as ISO-8859-1 chars (see {@link NodeTable#key(byte[])})
     */
    public record Link(Node parent, String name) {}

    @Override
    public String toString() {
        return getClass().getSimpleName() + "#" + nodeId;
    }
}
