package dev.fusepanama.inode;

import dev.fusepanama.Stat;

/**
 * A batch of directory entries: the answer of {@link InodeFileSystem#readdir}, for the kernel's
 * READDIR and READDIRPLUS alike. Add entries until {@code add} returns true (the batch is full;
 * that entry is not in it, as with libfuse's {@code fuse_add_direntry}) or the directory ends,
 * then {@link #send}. An empty batch means the end of the listing. A name has 1 to 255 bytes, none
 * of them NUL or '/'.
 *
 * <p>For READDIRPLUS ({@link #plus()}) an entry may carry its inode and attributes
 * ({@link #add(byte[], Inode, Timeouts, long)}), which saves the kernel a lookup per entry
 * ({@code ls -l}); each such entry the batch takes, "." and ".." excepted, adds one to its
 * inode's lookup count exactly as a lookup would (counted by the library for a filesystem with
 * {@link InodeFileSystem#lookups()}, taken back if the batch does not reach the kernel). An entry
 * added by name alone ({@link #add(byte[], long, int, long)}) counts nothing: the kernel looks it
 * up when it needs it. So one listing serves both: a filesystem whose attributes cost a system
 * call each fills them only when {@link #plus()} says they are wanted.
 */
public interface DirReply extends Reply {
    /**
     * Whether the kernel asked for entries with their inodes and attributes (READDIRPLUS). A
     * filesystem that has them at hand may ignore it and always add with the inode.
     *
     * @return true for READDIRPLUS, false for READDIR
     */
    boolean plus();

    /**
     * The attributes of the next entry added with its inode; zeroed after each {@code add}. As for
     * {@link EntryReply#attributes()}, an {@code st_ino} left 0 is the entry's node id.
     *
     * @return the view to fill before {@link #add(byte[], Inode, Timeouts, long)}; ask again after
     *     {@link #defer()}
     */
    Stat attributes();

    /**
     * Adds one entry by its name alone: the inode number programs see ({@code d_ino}) and its
     * type, without a lookup counted. {@link #attributes()} are not used.
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
     * Adds one entry with its inode and {@link #attributes()}. For READDIRPLUS the kernel links
     * the inode to the name, as a lookup would (one lookup more, once the batch is taken); for
     * READDIR the entry goes by name, with the attributes' {@code st_ino} (the node id if 0) and
     * the type of their {@code st_mode}.
     *
     * @param name the entry's name: 1 to 255 bytes, none of them NUL or '/'
     * @param inode the file the entry leads to
     * @param timeouts how long the kernel may trust its attributes and its name
     * @param nextOffset the offset a later readdir passes to continue after this entry (never 0)
     * @return true if the batch is full: the entry was not added (nothing counted), send the batch
     * @throws IllegalArgumentException for a name that is empty, longer than 255 bytes, or holds NUL or '/'
     */
    boolean add(byte[] name, Inode inode, Timeouts timeouts, long nextOffset);

    /**
     * Sends the batch.
     *
     * @return false if the caller no longer waits (its system call was interrupted) or the mount
     *         has ended: the kernel did not take the answer. The library takes back the lookups it
     *         counted for the batch (a filesystem without {@link InodeFileSystem#lookups()}
     *         forgets those of its entries with an inode itself)
     */
    boolean send();
}
