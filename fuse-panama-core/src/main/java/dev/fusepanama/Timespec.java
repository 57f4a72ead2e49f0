package dev.fusepanama;

import java.time.Instant;

/** A view of one {@code struct timespec} given to {@link FuseFileSystem#utimens}. */
public interface Timespec {
    /** {@code UTIME_NOW} (include/uapi/linux/stat.h): in {@link #nanos()}, set the time to the current time. */
    long UTIME_NOW = (1L << 30) - 1;
    /** {@code UTIME_OMIT}: in {@link #nanos()}, leave the time unchanged. */
    long UTIME_OMIT = (1L << 30) - 2;

    /**
     * The seconds since the epoch, {@code tv_sec}; meaningless when {@link #isNow()} or {@link #isOmit()}.
     *
     * @return the seconds
     */
    long seconds();

    /**
     * The nanoseconds within the second, {@code tv_nsec}: 0 to 999,999,999, or {@link #UTIME_NOW}
     * or {@link #UTIME_OMIT}.
     *
     * @return the nanoseconds, or one of the two special values
     */
    long nanos();

    /**
     * Whether the caller asks to set the time to the current time.
     *
     * @return true if {@link #nanos()} is {@link #UTIME_NOW}
     */
    default boolean isNow() { return nanos() == UTIME_NOW; }

    /**
     * Whether the caller asks to leave this time unchanged.
     *
     * @return true if {@link #nanos()} is {@link #UTIME_OMIT}
     */
    default boolean isOmit() { return nanos() == UTIME_OMIT; }

    /**
     * The time, or {@code now} when {@link #isNow()}; undefined when {@link #isOmit()}.
     *
     * @param now the current time, as the filesystem keeps it
     * @return the time asked for
     */
    default Instant toInstant(Instant now) {
        return isNow() ? now : Instant.ofEpochSecond(seconds(), nanos());
    }
}
