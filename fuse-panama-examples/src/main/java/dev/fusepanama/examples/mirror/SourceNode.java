package dev.fusepanama.examples.mirror;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.Inode;

/**
 * A source inode the kernel holds entries of: what identifies it, where the mirror last saw it,
 * and the {@code O_PATH} descriptor the mirror may hold of it now ({@link NodeDescriptors} keeps
 * that state; nothing else writes it).
 */
final class SourceNode implements Inode {
    /** A name of the node in a directory node: where it was last looked up, made or renamed to through the mirror. */
    record Link(SourceNode parent, byte[] name) {}

    final long id;
    final long dev;
    final long ino;
    /**
     * The file handle ({@code struct file_handle} with its {@code handle_bytes} and
     * {@code handle_type}), which names this file for its filesystem's life, where the inode
     * number is given to the next file as soon as this one is deleted; null where the source's
     * filesystem gives none (the node then holds its descriptor for its life).
     */
    final byte[] handle;
    /** Whether the handle may reopen it through the source's mount: it was found on that mount, not on one bound inside it. */
    final boolean onSourceMount;
    final boolean symlink;
    final boolean directory;
    /** Whether the source watcher covers it (for a directory: the names in it); see {@link SourceChanges}. */
    volatile boolean watched;
    /** Where to open it again by name; null for the root. */
    volatile Link link;
    /** Entries the kernel holds; guarded by the mirror's table. */
    long lookups;

    // ---- NodeDescriptors' ----
    /** The descriptor, valid while {@link #users} is 0 or more. */
    volatile int fd = -1;
    /** -1: no descriptor; otherwise how many operations use it now (compare-and-set by NodeDescriptors). */
    volatile int users = -1;
    /** Used since the clock last passed it. */
    volatile boolean recent;
    /** The kernel forgot the node: its descriptor is closed once no operation uses it. */
    volatile boolean forgotten;
    /** Open files and directories of the node (guarded by NodeDescriptors): they keep its descriptor. */
    int pins;
    /** Holds its descriptor for its life (guarded by NodeDescriptors): no handle, or its file lost its last name through the mirror. */
    boolean kept;
    /** On the clock's list (guarded by NodeDescriptors). */
    boolean listed;
    SourceNode previous;
    SourceNode next;

    SourceNode(long id, long dev, long ino, byte[] handle, boolean onSourceMount, int mode, Link link) {
        this.id = id;
        this.dev = dev;
        this.ino = ino;
        this.handle = handle;
        this.onSourceMount = onSourceMount;
        this.symlink = (mode & Posix.S_IFMT) == Posix.S_IFLNK;
        this.directory = (mode & Posix.S_IFMT) == Posix.S_IFDIR;
        this.link = link;
    }

    @Override
    public long nodeId() {
        return id;
    }
}
