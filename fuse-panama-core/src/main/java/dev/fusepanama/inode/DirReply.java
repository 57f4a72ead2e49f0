package dev.fusepanama.inode;

/**
 * A batch of directory entries: the answer of readdir. Add entries until {@link #add} returns
 * true (the batch is full; that entry is not in it, as with libfuse's {@code fuse_add_direntry})
 * or the directory ends, then {@link #send}.
 * An empty batch means the end of the listing. A name has 1 to 255 bytes, none of them NUL or '/'.
 */
public interface DirReply extends Reply {
    /**
     * Adds one entry; does not change the inode's lookup count.
     *
     * @param name the entry's name: 1 to 255 bytes, none of them NUL or '/'
     * @param ino the entry's inode number, shown by readdir(3) (the kernel does not otherwise use it)
     * @param type the {@code S_IFMT} bits of the entry's mode, or 0 if unknown
     * @param nextOffset the offset a later readdir passes to continue after this entry (never 0)
     * @return true if the batch is full: the entry was not added, send the batch
     * @throws IllegalArgumentException for a name that is empty, longer than 255 bytes, or holds NUL or '/'
     */
    boolean add(byte[] name, long ino, int type, long nextOffset);

    /**
     * Sends the batch.
     *
     * @return false if the caller no longer waits or the mount has ended
     */
    boolean send();
}
