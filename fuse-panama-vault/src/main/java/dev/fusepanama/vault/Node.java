package dev.fusepanama.vault;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One file of the vault as the kernel knows it. Its number, lookups and names are the node
 * table's ({@link dev.fusepanama.inode.table.Node}): names there are stored (encrypted) names,
 * and the ciphertext file's inode number is the key that makes hard links one node. Kept here:
 * that inode number (the st_ino the mount shows), the plaintext of a name, and what was read of
 * the file once (its id, IV, target).
 */
final class Node extends dev.fusepanama.inode.table.Node { // full name: the vault's own Node is another
    /** A name of the node: its directory, its stored name (the table's key) and its plaintext. */
    record Named(Node parent, String stored, byte[] plain) {}

    private final VaultFileSystem vault;
    /** The ciphertext file's inode number. */
    final long backingIno;
    /**
     * The name the vault gave it or learnt for it last (a directory's only one), null once the
     * vault removed that name. Read without the table's lock, for log lines, and for the names the
     * watcher tells the kernel to drop, which may no longer decrypt (a long name's .name file gone).
     */
    volatile Named named;

    /**
     * Readers share it, writers and truncation hold it alone: a write rewrites whole cipher
     * blocks, which a concurrent read must not see half-written. Nothing asks the table while
     * holding it: the table's lock comes first.
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

    Node(VaultFileSystem vault, int type, long backingIno) {
        super(type);
        this.vault = vault;
        this.backingIno = backingIno;
    }

    /** The plaintext of its name {@code stored} in {@code parent}, if that is the name it was last given; else null. */
    byte[] plain(dev.fusepanama.inode.table.Node parent, String stored) { // full name: the vault's own Node is another
        Named n = named;
        return n != null && n.parent() == parent && n.stored().equals(stored) ? n.plain() : null;
    }

    /** The vault removed its name {@code stored} in {@code parent}. */
    void unnamed(Node parent, String stored) {
        Named n = named;
        if (n != null && n.parent() == parent && n.stored().equals(stored)) named = null;
    }

    /** The table dropped it: the kernel no longer knows it, nor the vault a name in it. */
    @Override
    protected void forgotten() {
        vault.forgotten(this);
    }
}
