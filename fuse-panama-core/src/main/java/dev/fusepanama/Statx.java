package dev.fusepanama;

/**
 * The extended attributes a {@code statx(2)} asks for ({@code struct statx}), filled by a
 * filesystem's {@code statx}: what {@link Stat} holds plus the birth time and the file's
 * attribute flags. {@link #mask()} says which fields are filled: set a {@code STATX_*} bit for
 * each ({@link #setFrom} sets the basic ones). A view like {@link Stat}: valid during the call.
 */
public interface Statx {
    /** {@code STATX_TYPE | STATX_MODE | ... | STATX_BLOCKS}: what a {@code stat(2)} returns. */
    int STATX_BASIC_STATS = 0x7ff;
    /** {@code STATX_BTIME}: the birth time. */
    int STATX_BTIME = 0x800;

    /**
     * Which fields are filled, {@code stx_mask}.
     *
     * @return {@code STATX_*} bits, e.g. {@link #STATX_BASIC_STATS} | {@link #STATX_BTIME}
     */
    int mask();

    /**
     * Sets {@code stx_mask}, which fields are filled.
     *
     * @param mask {@code STATX_*} bits, one for each field filled
     * @return this view
     */
    Statx setMask(int mask);

    /**
     * The file's type and permissions, {@code stx_mode}.
     *
     * @return an {@code S_IF*} type and permission bits
     */
    int mode();

    /**
     * Sets {@code stx_mode} (its mask bits are {@code STATX_TYPE | STATX_MODE}).
     *
     * @param mode a type and permissions, e.g. {@link Posix#S_IFREG} | 0644
     * @return this view
     */
    Statx setMode(int mode);

    /**
     * The inode number, {@code stx_ino}.
     *
     * @return the inode number
     */
    long ino();

    /**
     * Sets {@code stx_ino}.
     *
     * @param ino the inode number
     * @return this view
     */
    Statx setIno(long ino);

    /**
     * The number of hard links, {@code stx_nlink}.
     *
     * @return the link count
     */
    long nlink();

    /**
     * Sets {@code stx_nlink}.
     *
     * @param nlink the link count (an unsigned 32-bit field: higher bits are dropped)
     * @return this view
     */
    Statx setNlink(long nlink);

    /**
     * The owner's user id, {@code stx_uid}.
     *
     * @return the uid
     */
    int uid();

    /**
     * Sets {@code stx_uid}.
     *
     * @param uid the owner's user id
     * @return this view
     */
    Statx setUid(int uid);

    /**
     * The owner's group id, {@code stx_gid}.
     *
     * @return the gid
     */
    int gid();

    /**
     * Sets {@code stx_gid}.
     *
     * @param gid the owner's group id
     * @return this view
     */
    Statx setGid(int gid);

    /**
     * The size in bytes, {@code stx_size}.
     *
     * @return the size
     */
    long size();

    /**
     * Sets {@code stx_size}.
     *
     * @param size the size in bytes
     * @return this view
     */
    Statx setSize(long size);

    /**
     * Allocated space in 512-byte units, {@code stx_blocks}.
     *
     * @return the count of 512-byte blocks allocated
     */
    long blocks();

    /**
     * Sets {@code stx_blocks}.
     *
     * @param blocks the space allocated, in 512-byte units
     * @return this view
     */
    Statx setBlocks(long blocks);

    /**
     * The preferred I/O block size, {@code stx_blksize}.
     *
     * @return the block size in bytes
     */
    int blksize();

    /**
     * Sets {@code stx_blksize}.
     *
     * @param blksize the preferred I/O block size in bytes
     * @return this view
     */
    Statx setBlksize(int blksize);

    /**
     * {@code STATX_ATTR_*} flags (immutable, append-only, ...), meaningful where {@link #attributesMask()} says so.
     *
     * @return {@code stx_attributes}
     */
    long attributes();

    /**
     * Sets the file's attribute flags and which of them the filesystem supports.
     *
     * @param attributes {@code stx_attributes}: the {@code STATX_ATTR_*} flags set on the file
     * @param attributesMask {@code stx_attributes_mask}: the flags the filesystem knows, set or not
     * @return this view
     */
    Statx setAttributes(long attributes, long attributesMask);

    /**
     * Which {@code STATX_ATTR_*} flags the filesystem supports: a flag outside it in
     * {@link #attributes()} means nothing.
     *
     * @return {@code stx_attributes_mask}
     */
    long attributesMask();

    /**
     * Sets the device a device file stands for, {@code stx_rdev_major} and {@code stx_rdev_minor}.
     *
     * @param major the device's major number
     * @param minor the device's minor number
     * @return this view
     */
    Statx setRdev(int major, int minor);

    /**
     * Sets the last access time, {@code stx_atime}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Statx setAtime(long seconds, int nanos);

    /**
     * Sets the birth time (set {@link #STATX_BTIME} in the mask with it), {@code stx_btime}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Statx setBtime(long seconds, int nanos);

    /**
     * Sets the last status change time, {@code stx_ctime}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Statx setCtime(long seconds, int nanos);

    /**
     * Sets the last modification time, {@code stx_mtime}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Statx setMtime(long seconds, int nanos);

    /**
     * The birth time's seconds since the epoch.
     *
     * @return {@code stx_btime.tv_sec}
     */
    long btimeSeconds();

    /**
     * The birth time's nanoseconds within its second.
     *
     * @return {@code stx_btime.tv_nsec}
     */
    int btimeNanos();

    /**
     * Fills the basic fields from {@code st} and adds {@link #STATX_BASIC_STATS} to the mask.
     *
     * @param st the attributes to copy (its device number split into major and minor)
     * @return this view
     */
    default Statx setFrom(Stat st) {
        setMode(st.mode()).setIno(st.ino()).setNlink(st.nlink()).setUid(st.uid()).setGid(st.gid()).setSize(st.size())
                .setBlocks(st.blocks()).setBlksize((int) st.blksize());
        setAtime(st.atimeSeconds(), (int) st.atimeNanos()).setMtime(st.mtimeSeconds(), (int) st.mtimeNanos())
                .setCtime(st.ctimeSeconds(), (int) st.ctimeNanos());
        long rdev = st.rdev();
        setRdev((int) (((rdev >>> 32) & 0xfffff000L) | ((rdev >>> 8) & 0xfff)), (int) (((rdev >>> 12) & 0xffffff00L) | (rdev & 0xff)));
        return setMask(mask() | STATX_BASIC_STATS);
    }
}
