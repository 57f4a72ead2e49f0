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
     */
    MemorySegment segment();

    int mode();
    Stat setMode(int mode);
    long ino();
    /** Reported to the kernel only with the {@code use_ino} option. */
    Stat setIno(long ino);
    long nlink();
    Stat setNlink(long nlink);
    int uid();
    Stat setUid(int uid);
    int gid();
    Stat setGid(int gid);
    long rdev();
    Stat setRdev(long rdev);
    long size();
    Stat setSize(long size);
    long blksize();
    Stat setBlksize(long blksize);
    /** Allocated space in 512-byte units. */
    long blocks();
    Stat setBlocks(long blocks);

    long atimeSeconds();
    long atimeNanos();
    Stat setAtime(long seconds, long nanos);
    long mtimeSeconds();
    long mtimeNanos();
    Stat setMtime(long seconds, long nanos);
    long ctimeSeconds();
    long ctimeNanos();
    Stat setCtime(long seconds, long nanos);

    default Stat setAtime(Instant t) { return setAtime(t.getEpochSecond(), t.getNano()); }
    default Stat setMtime(Instant t) { return setMtime(t.getEpochSecond(), t.getNano()); }
    default Stat setCtime(Instant t) { return setCtime(t.getEpochSecond(), t.getNano()); }
    default Instant atime() { return Instant.ofEpochSecond(atimeSeconds(), atimeNanos()); }
    default Instant mtime() { return Instant.ofEpochSecond(mtimeSeconds(), mtimeNanos()); }
    default Instant ctime() { return Instant.ofEpochSecond(ctimeSeconds(), ctimeNanos()); }
}
