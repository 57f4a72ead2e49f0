package dev.fusepanama;

import dev.fusepanama.internal.view.NativeStat;
import java.lang.foreign.MemorySegment;
import java.time.Instant;

/**
 * A view of a {@code struct stat} (stat(2)) in libfuse's memory. Modes are {@code int}
 * ({@link Posix#S_IFREG} | 0644, ...), sizes and counts {@code long}, times seconds and
 * nanoseconds since the epoch (or an {@link Instant}).
 */
public interface Stat {
    /** The size of a {@code struct stat} on this platform: what to allocate for {@link #over}. */
    long SIZE = dev.fusepanama.libc.structs.stat.SIZE;

    /**
     * A view of the {@code struct stat} at the start of {@code segment}, such as one a
     * pass-through filesystem had {@code fstat(2)} fill in its own memory (see
     * {@link dev.fusepanama.libc.Libc#fstat}). Make one per buffer and keep it: the view is valid
     * as long as the memory is.
     *
     * @param segment memory that holds a {@code struct stat} at its start
     * @return a view of that struct
     * @throws IllegalArgumentException if {@code segment} is smaller than {@link #SIZE}
     */
    static Stat over(MemorySegment segment) {
        if (segment.byteSize() < SIZE) {
            throw new IllegalArgumentException("a struct stat needs " + SIZE + " bytes, not " + segment.byteSize());
        }
        return new NativeStat().at(segment.address());
    }

    /** Sets every field to zero. */
    void clear();

    /**
     * The {@code struct stat} itself, for a pass-through filesystem to fill with {@code fstat(2)}
     * or {@code fstatat(2)} directly instead of copying field by field. Like the view, valid only
     * until the filesystem method returns.
     *
     * @return the struct's {@link #SIZE} bytes
     */
    MemorySegment segment();

    /**
     * The file's type and permissions, {@code st_mode}.
     *
     * @return the mode: an {@code S_IF*} type ({@link Posix#S_IFMT} bits) and permission bits
     */
    int mode();

    /**
     * Sets {@code st_mode}.
     *
     * @param mode a type and permissions, e.g. {@link Posix#S_IFREG} | 0644
     * @return this view
     */
    Stat setMode(int mode);

    /**
     * The inode number, {@code st_ino}.
     *
     * @return the inode number
     */
    long ino();

    /**
     * Sets {@code st_ino}, the inode number programs see. On the path API the kernel receives it
     * only with its {@code useIno} option ({@code use_ino}); in an entry of the inode
     * API, left 0 it becomes the entry's node id.
     *
     * @param ino the inode number
     * @return this view
     */
    Stat setIno(long ino);

    /**
     * The number of hard links, {@code st_nlink}.
     *
     * @return the link count
     */
    long nlink();

    /**
     * Sets {@code st_nlink}.
     *
     * @param nlink the link count: 1 for a file with one name, 2 plus its subdirectories for a directory
     * @return this view
     */
    Stat setNlink(long nlink);

    /**
     * The owner's user id, {@code st_uid}.
     *
     * @return the uid
     */
    int uid();

    /**
     * Sets {@code st_uid}.
     *
     * @param uid the owner's user id
     * @return this view
     */
    Stat setUid(int uid);

    /**
     * The owner's group id, {@code st_gid}.
     *
     * @return the gid
     */
    int gid();

    /**
     * Sets {@code st_gid}.
     *
     * @param gid the owner's group id
     * @return this view
     */
    Stat setGid(int gid);

    /**
     * The device a device file stands for, {@code st_rdev}, encoded as glibc's makedev(3) does.
     *
     * @return the device number, 0 for a file that is not a device
     */
    long rdev();

    /**
     * Sets {@code st_rdev}.
     *
     * @param rdev the device number of a character or block device file, as makedev(3) encodes it
     * @return this view
     */
    Stat setRdev(long rdev);

    /**
     * The size in bytes, {@code st_size}.
     *
     * @return the size: a file's length, a symbolic link's target length
     */
    long size();

    /**
     * Sets {@code st_size}.
     *
     * @param size the size in bytes
     * @return this view
     */
    Stat setSize(long size);

    /**
     * The preferred I/O block size, {@code st_blksize}.
     *
     * @return the block size in bytes
     */
    long blksize();

    /**
     * Sets {@code st_blksize}.
     *
     * @param blksize the preferred I/O block size in bytes; 0 leaves the kernel's default
     * @return this view
     */
    Stat setBlksize(long blksize);

    /**
     * Allocated space in 512-byte units, {@code st_blocks}.
     *
     * @return the count of 512-byte blocks allocated
     */
    long blocks();

    /**
     * Sets {@code st_blocks}.
     *
     * @param blocks the space allocated, in 512-byte units (whatever {@link #blksize()} is)
     * @return this view
     */
    Stat setBlocks(long blocks);

    /**
     * The last access time's seconds since the epoch.
     *
     * @return {@code st_atim.tv_sec}
     */
    long atimeSeconds();

    /**
     * The last access time's nanoseconds within its second.
     *
     * @return {@code st_atim.tv_nsec}, 0 to 999,999,999
     */
    long atimeNanos();

    /**
     * Sets the last access time, {@code st_atim}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Stat setAtime(long seconds, long nanos);

    /**
     * The last modification time's seconds since the epoch.
     *
     * @return {@code st_mtim.tv_sec}
     */
    long mtimeSeconds();

    /**
     * The last modification time's nanoseconds within its second.
     *
     * @return {@code st_mtim.tv_nsec}, 0 to 999,999,999
     */
    long mtimeNanos();

    /**
     * Sets the last modification time, {@code st_mtim}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Stat setMtime(long seconds, long nanos);

    /**
     * The last status change time's seconds since the epoch.
     *
     * @return {@code st_ctim.tv_sec}
     */
    long ctimeSeconds();

    /**
     * The last status change time's nanoseconds within its second.
     *
     * @return {@code st_ctim.tv_nsec}, 0 to 999,999,999
     */
    long ctimeNanos();

    /**
     * Sets the last status change time, {@code st_ctim}.
     *
     * @param seconds seconds since the epoch
     * @param nanos nanoseconds within the second, 0 to 999,999,999
     * @return this view
     */
    Stat setCtime(long seconds, long nanos);

    /**
     * Sets the last access time from an Instant.
     *
     * @param t the time
     * @return this view
     */
    default Stat setAtime(Instant t) { return setAtime(t.getEpochSecond(), t.getNano()); }

    /**
     * Sets the last modification time from an Instant.
     *
     * @param t the time
     * @return this view
     */
    default Stat setMtime(Instant t) { return setMtime(t.getEpochSecond(), t.getNano()); }

    /**
     * Sets the last status change time from an Instant.
     *
     * @param t the time
     * @return this view
     */
    default Stat setCtime(Instant t) { return setCtime(t.getEpochSecond(), t.getNano()); }

    /**
     * The last access time.
     *
     * @return {@link #atimeSeconds()} and {@link #atimeNanos()} as an Instant
     */
    default Instant atime() { return Instant.ofEpochSecond(atimeSeconds(), atimeNanos()); }

    /**
     * The last modification time.
     *
     * @return {@link #mtimeSeconds()} and {@link #mtimeNanos()} as an Instant
     */
    default Instant mtime() { return Instant.ofEpochSecond(mtimeSeconds(), mtimeNanos()); }

    /**
     * The last status change time.
     *
     * @return {@link #ctimeSeconds()} and {@link #ctimeNanos()} as an Instant
     */
    default Instant ctime() { return Instant.ofEpochSecond(ctimeSeconds(), ctimeNanos()); }
}
