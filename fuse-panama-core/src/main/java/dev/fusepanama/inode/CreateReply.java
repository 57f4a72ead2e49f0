package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/**
 * A new file, open: the answer of create. Like an {@link EntryReply} it adds one to the inode's
 * lookup count; like an {@link OpenReply} it hands the kernel a file handle.
 */
public interface CreateReply extends Reply {
    /**
     * The new file's attributes to send; zeroed for each request. As for
     * {@link EntryReply#attributes()}, an {@code st_ino} left 0 is the entry's node id.
     *
     * @return the view to fill before {@link #created}; ask again after {@link #defer()}
     */
    Stat attributes();

    /**
     * Sends the entry with {@link #attributes()} and the open file.
     *
     * @param inode the new file
     * @param timeouts how long the kernel may trust its attributes and its name
     * @param fh the handle that comes back with every later operation on this open file
     * @param flags {@link OpenReply#KEEP_CACHE}, {@link OpenReply#DIRECT_IO}, ... or 0
     * @return false if the kernel did not take the answer (the caller's system call was
     *         interrupted, or the mount has ended): release the handle. With a
     *         {@link InodeFileSystem#lookups()} counter the library counts the lookup and takes it
     *         back itself; false also when the node was dropped before it could be counted
     *         (answered ENOENT). Without one, undo what the kernel would have counted.
     */
    boolean created(Inode inode, Timeouts timeouts, long fh, int flags);

    /**
     * Before {@link #created}: the new open file is passed through to {@code fd}, as
     * {@link OpenReply#passthrough}.
     *
     * @param fd an open descriptor of the backing regular file, kept open until release
     * @return true if the open is to be passed through; false, changing nothing, where this mount
     *     cannot pass files through
     */
    boolean passthrough(int fd);
}
