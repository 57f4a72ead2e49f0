package dev.fusepanama.examples.vault;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One file of the vault as the kernel knows it: the FUSE inode number we handed out, the
 * ciphertext file's own inode number (hard links share a node), and where it is named in the
 * cipher directory. Names, lookup count and open handles are guarded by the filesystem's tree
 * lock; file contents by {@link #content}.
 */
final class Node {
    /** A name of the node: the directory it is in and its name there, stored (encrypted) and plain. */
    record Link(Node parent, byte[] stored, byte[] plain) {}

    final long ino;
    final long generation;
    final long backingIno;
    /** The S_IFMT bits. */
    final int type;
    /** Its names; a directory has at most one, an unlinked file none. */
    final List<Link> links = new ArrayList<>(1);
    /** The kernel's lookup count. */
    long lookups;
    /** How many names of other nodes are in this directory. */
    int children;
    /** Open handles of this node, for the calls that must find the file after its names are gone. */
    final List<OpenFile> open = new ArrayList<>(0);

    /**
     * Readers share it, writers and truncation hold it alone: a write rewrites whole cipher
     * blocks, which a concurrent read must not see half-written.
     */
    final ReentrantReadWriteLock content = new ReentrantReadWriteLock();
    /** The file id of a regular file's header, once read or written; null when unknown or the file is empty. */
    volatile byte[] fileId;
    /** A directory's IV (gocryptfs.diriv), read once. */
    volatile byte[] dirIv;
    /** A symbolic link's decrypted target, read once (targets never change). */
    volatile byte[] target;
    /**
     * The ciphertext file's ctime (nanoseconds) as the vault last saw or made it: a change
     * reported with this ctime is the vault's own, one with another was made behind its back.
     */
    volatile long seenCtime = Long.MIN_VALUE;

    Node(long ino, long generation, long backingIno, int type) {
        this.ino = ino;
        this.generation = generation;
        this.backingIno = backingIno;
        this.type = type;
    }

    /** The first name, or null if it has none left. Under the tree lock. */
    Link link() {
        return links.isEmpty() ? null : links.getFirst();
    }
}
