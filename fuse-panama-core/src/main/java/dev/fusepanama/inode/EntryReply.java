package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/**
 * A name's inode: the answer of lookup, mknod, mkdir, symlink and link. A successful entry adds
 * one to the inode's lookup count (counted by the library for a filesystem with
 * {@link InodeFileSystem#lookups()}; else {@link InodeFileSystem#forget} takes it back). Fill
 * {@link #attributes()}, then send {@link #entry}.
 */
public interface EntryReply extends Reply {
    /**
     * The attributes to send with the entry; zeroed for each request. Their {@code st_ino} is the
     * number programs see (stat, readdir's {@code d_ino}); left 0, it is the entry's node id.
     * The two may differ: the kernel knows the file by its node id, programs by {@code st_ino}.
     *
     * @return the view to fill before {@link #entry}; ask again after {@link #defer()}
     */
    Stat attributes();

    /**
     * Sends the entry with {@link #attributes()}.
     *
     * @param inode the file the name leads to
     * @param timeouts how long the kernel may trust the attributes and the name
     * @return false if the kernel did not take the answer (the caller's system call was
     *         interrupted, or the mount has ended). With a {@link InodeFileSystem#lookups()}
     *         counter the library counts the lookup and takes it back itself; false also when the
     *         node was dropped before it could be counted (a lookup is then asked again; the others
     *         are answered ENOENT). Without one, undo what the kernel would have counted.
     */
    boolean entry(Inode inode, Timeouts timeouts);

    /**
     * For a lookup: answers that the name does not exist, and lets the kernel remember that for
     * {@code negativeTimeout} seconds (an entry with inode 0). {@code error(ENOENT)} caches
     * nothing, unless the filesystem's {@link dev.fusepanama.KernelSettings#negativeTimeout()} asks for negative
     * entries. For mknod, mkdir, symlink and link, whose callers take no negative entry, it
     * answers ENOENT.
     *
     * @param negativeTimeout seconds the kernel may remember the name as absent; 0 remembers nothing
     * @throws IllegalArgumentException for a negative, infinite or NaN timeout
     */
    void noEntry(double negativeTimeout);
}
