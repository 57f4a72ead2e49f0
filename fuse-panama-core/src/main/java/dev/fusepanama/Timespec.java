package dev.fusepanama;

import java.time.Instant;

/** A view of one {@code struct timespec} given to {@link FuseFileSystem#utimens}. */
public interface Timespec {
    /** {@code UTIME_NOW} (include/uapi/linux/stat.h). */
    long UTIME_NOW = (1L << 30) - 1;
    /** {@code UTIME_OMIT}. */
    long UTIME_OMIT = (1L << 30) - 2;

    long seconds();
    long nanos();

    /** Set the time to the current time. */
    default boolean isNow() { return nanos() == UTIME_NOW; }

    /** Leave this time unchanged. */
    default boolean isOmit() { return nanos() == UTIME_OMIT; }

    /** The time, or {@code now} when {@link #isNow()}; undefined when {@link #isOmit()}. */
    default Instant toInstant(Instant now) {
        return isNow() ? now : Instant.ofEpochSecond(seconds(), nanos());
    }
}
