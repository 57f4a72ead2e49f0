package dev.fusepanama.inode;

/**
 * Counts the lookups the kernel holds of a filesystem's inodes, so that its author does not: a
 * filesystem that returns one from {@link InodeFileSystem#lookups()} (the library's
 * {@link dev.fusepanama.inode.table.NodeTable} is one) has every entry it sends counted by the
 * library, once the entry is about to go to the kernel, and taken back when the kernel did not
 * take it; FORGET and BATCH_FORGET go here, never to {@link InodeFileSystem#forget}.
 *
 * <p>What the library counts: each entry of lookup, mknod, mkdir, symlink, link, create and
 * tmpfile, and each readdirplus entry sent with its inode ("." and ".." excepted, which the
 * kernel does not count). A node may be dropped between the filesystem finding it and the
 * library counting it (the kernel forgot it meanwhile, or its last name went); {@link #count}
 * then says so, and the library does not send it: a lookup is asked again of the filesystem, a
 * readdirplus entry goes as its name alone (the kernel looks it up when it needs it), and the
 * other entries are answered ENOENT.
 *
 * <p>Called on libfuse's worker threads, several at a time.
 */
public interface LookupCounter {
    /**
     * One lookup more of {@code inode}, whose entry is about to be sent.
     *
     * @param inode an inode the filesystem answered with
     * @return true if counted; false if the inode is gone (dropped since it was found): nothing
     *     counted, and the entry is not sent
     */
    boolean count(Inode inode);

    /**
     * The kernel holds {@code lookups} fewer of node {@code nodeId}: it forgot them, or did not
     * take the entry that counted one. A number not known, or more than were counted, is the
     * counter's to log; nothing it throws reaches the kernel.
     *
     * @param nodeId the node's id
     * @param lookups how many lookups to take back, at least 1
     */
    void forget(long nodeId, long lookups);

    /**
     * The session ended, after {@link InodeFileSystem#destroy}: the kernel holds nothing any
     * more, and a node kept only by its lookups may go.
     */
    void sessionEnded();
}
