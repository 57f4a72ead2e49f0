package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/**
 * A batch of directory entries with their inodes and attributes: the answer of readdirplus,
 * which saves the kernel a lookup per entry ({@code ls -l}). Each entry the batch takes (other
 * than "." and "..") adds one to its inode's lookup count, exactly as a lookup would; an entry
 * that did not fit adds nothing.
 */
public interface DirPlusReply extends Reply {
    /**
     * The attributes of the next entry to add; zeroed after each {@link #add}. As for
     * {@link EntryReply#attributes()}, an {@code st_ino} left 0 is the entry's node id.
     *
     * @return the view to fill before each {@link #add}; ask again after {@link #defer()}
     */
    Stat attributes();

    /**
     * Adds one entry with {@link #attributes()}.
     *
     * @param name the entry's name: 1 to 255 bytes, none of them NUL or '/'
     * @param inode the file the entry leads to
     * @param timeouts how long the kernel may trust its attributes and its name
     * @param nextOffset the offset a later readdirplus passes to continue after this entry (never 0)
     * @return true if the batch is full: the entry was not added (the lookup count is unchanged), send the batch
     * @throws IllegalArgumentException for a name that is empty, longer than 255 bytes, or holds NUL or '/'
     */
    boolean add(byte[] name, Inode inode, Timeouts timeouts, long nextOffset);

    /**
     * Adds an entry without its inode: the name is listed, and the kernel looks it up itself
     * when it needs it, as after a plain readdir. For an entry that cannot be looked up now (it
     * was removed meanwhile, or what is there is not to be shown); no lookup is counted.
     * {@link #attributes()} are not used.
     *
     * @param name the entry's name: 1 to 255 bytes, none of them NUL or '/'
     * @param ino the inode number programs see in the entry ({@code d_ino})
     * @param type the entry's file type, the {@code S_IFMT} bits of a mode ({@code Posix.S_IFREG}, ...; 0 if unknown)
     * @param nextOffset the offset a later readdirplus passes to continue after this entry (never 0)
     * @return true if the batch is full: the entry was not added, send the batch
     * @throws IllegalArgumentException for a name that is empty, longer than 255 bytes, or holds NUL or '/'
     */
    boolean addName(byte[] name, long ino, int type, long nextOffset);

    /**
     * Sends the batch.
     *
     * @return false if the caller no longer waits (its system call was interrupted) or the mount
     *         has ended: the kernel did not take the answer. The library takes back the lookups
     *         it counted for the batch (a filesystem without {@link InodeFileSystem#lookups()}
     *         forgets them itself)
     */
    boolean send();
}
