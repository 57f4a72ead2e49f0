package dev.fusepanama.inode.table;

import dev.fusepanama.Posix;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file the kernel may know, as its {@link NodeTable} keeps it: the number the kernel knows it
 * by, how many lookups of it the kernel holds, and its names. Subclass it with the file's own
 * state (data, mode, times); the bookkeeping here is the table's, and changes only through it.
 *
 * <p>A node lives in its table while anything needs it: a name (in a table that owns its
 * namespace), a lookup the kernel has not forgotten, a {@link NodeTable#hold hold} (an open
 * file), or, for a directory, a known child. When the last of these goes the table drops it,
 * calls {@link #forgotten()} once, and never hands out its number again.
 */
public abstract class Node {
    private final int type;
    /** The kernel's number for this node; 0 until a table takes it in. Written under the table's lock, then fixed. */
    volatile long nodeId;
    /** Entries the kernel took, minus what it forgot; -1 once dropped. */
    final AtomicLong lookups = new AtomicLong();
    /** Open files and the like that keep the node past its names and lookups. */
    final java.util.concurrent.atomic.AtomicInteger holds = new java.util.concurrent.atomic.AtomicInteger();
    /** Its names, newest last. Under the table's lock. */
    final List<Link> links = new ArrayList<>(1);
    /** A directory's entries, in a table; null for other files. Under the table's lock. */
    final Children children;

    /** A node of file type {@code type} ({@link Posix#S_IFMT} bits of a mode), fixed for its life. */
    protected Node(int type) {
        this.type = type & Posix.S_IFMT;
        if (this.type == 0) {
            throw new IllegalArgumentException("a node needs a file type (S_IFREG, S_IFDIR, ...), not 0");
        }
        this.children = this.type == Posix.S_IFDIR ? new Children() : null;
    }

    /** The number the kernel knows this node by; never given to another node of its table. 0 before the table took it. */
    public final long nodeId() {
        return nodeId;
    }

    /** The file type: {@link Posix#S_IFMT} bits. */
    public final int type() {
        return type;
    }

    public final boolean isDirectory() {
        return type == Posix.S_IFDIR;
    }

    /** The kernel's lookup count: entries it took, minus those it forgot. */
    public final long lookups() {
        return Math.max(0, lookups.get());
    }

    /** Whether the table has let this node go: the kernel no longer knows its number, and the author should not use it. */
    public final boolean isDropped() {
        return lookups.get() < 0;
    }

    /**
     * Called once when the table drops the node, after its lock is released: free what the file
     * held (its data, the space it counted against a quota).
     */
    protected void forgotten() {}

    /** Where a node is named: in directory {@code parent}, as {@code name} (bytes as ISO-8859-1 chars, see {@link NodeTable#key}). */
    public record Link(Node parent, String name) {}

    @Override
    public String toString() {
        return getClass().getSimpleName() + "#" + nodeId;
    }
}
