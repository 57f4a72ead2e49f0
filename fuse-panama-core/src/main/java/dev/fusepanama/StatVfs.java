package dev.fusepanama;

/**
 * A view of a {@code struct statvfs} (statvfs(2)) in libfuse's memory, for a statfs answer.
 * The kernel takes the block and inode counts, the sizes and the name length; the setters
 * return this view, to chain.
 */
public interface StatVfs {
    /**
     * Sets {@code f_bsize}, the filesystem's block size.
     *
     * @param bsize the block size in bytes
     * @return this view
     */
    StatVfs setBlockSize(long bsize);

    /**
     * Sets {@code f_frsize}, the unit of the block counts.
     *
     * @param frsize the fragment size in bytes (commonly the block size)
     * @return this view
     */
    StatVfs setFragmentSize(long frsize);

    /**
     * Sets {@code f_blocks}, the size of the filesystem in fragment-size units.
     *
     * @param blocks the total count of blocks
     * @return this view
     */
    StatVfs setBlocks(long blocks);

    /**
     * Sets {@code f_bfree}, the free blocks.
     *
     * @param bfree the count of free blocks, in fragment-size units
     * @return this view
     */
    StatVfs setBlocksFree(long bfree);

    /**
     * Sets {@code f_bavail}, the free blocks for unprivileged users.
     *
     * @param bavail the count of blocks available to unprivileged users, in fragment-size units
     * @return this view
     */
    StatVfs setBlocksAvailable(long bavail);

    /**
     * Sets {@code f_files}, the number of inodes.
     *
     * @param files the total count of inodes
     * @return this view
     */
    StatVfs setFiles(long files);

    /**
     * Sets {@code f_ffree}, the free inodes.
     *
     * @param ffree the count of free inodes
     * @return this view
     */
    StatVfs setFilesFree(long ffree);

    /**
     * Sets {@code f_favail}, the free inodes for unprivileged users. The kernel does not receive it:
     * FUSE's statfs answer has no such field, and statvfs(2) on the mount reports the kernel's own.
     *
     * @param favail the count of inodes available to unprivileged users
     * @return this view
     */
    StatVfs setFilesAvailable(long favail);

    /**
     * Sets {@code f_fsid}, the filesystem id. The kernel does not receive it:
     * FUSE's statfs answer has no such field, and statvfs(2) on the mount reports the kernel's own.
     *
     * @param fsid the filesystem id
     * @return this view
     */
    StatVfs setFsid(long fsid);

    /**
     * Sets {@code f_flag}, the mount flags ({@code ST_RDONLY}, ...). The kernel does not receive it:
     * FUSE's statfs answer has no such field, and statvfs(2) on the mount reports the kernel's own.
     *
     * @param flags the flags
     * @return this view
     */
    StatVfs setFlags(long flags);

    /**
     * Sets {@code f_namemax}, the longest file name.
     *
     * @param namemax the most bytes in a name, 255 on most filesystems
     * @return this view
     */
    StatVfs setNameMax(long namemax);

    /**
     * The value set for {@code f_bsize}, the block size in bytes.
     *
     * @return the field's value
     */
    long blockSize();

    /**
     * The value set for {@code f_frsize}, the unit of the block counts, in bytes.
     *
     * @return the field's value
     */
    long fragmentSize();

    /**
     * The value set for {@code f_blocks}, the size in fragment-size units.
     *
     * @return the field's value
     */
    long blocks();

    /**
     * The value set for {@code f_bfree}, the free blocks.
     *
     * @return the field's value
     */
    long blocksFree();

    /**
     * The value set for {@code f_bavail}, the free blocks for unprivileged users.
     *
     * @return the field's value
     */
    long blocksAvailable();

    /**
     * The value set for {@code f_files}, the number of inodes.
     *
     * @return the field's value
     */
    long files();

    /**
     * The value set for {@code f_ffree}, the free inodes.
     *
     * @return the field's value
     */
    long filesFree();

    /**
     * The value set for {@code f_favail}, the free inodes for unprivileged users.
     *
     * @return the field's value
     */
    long filesAvailable();

    /**
     * The value set for {@code f_namemax}, the longest file name in bytes.
     *
     * @return the field's value
     */
    long nameMax();
}
