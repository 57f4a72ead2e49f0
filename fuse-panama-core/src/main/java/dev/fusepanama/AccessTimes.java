package dev.fusepanama;

import java.util.Arrays;
import java.util.List;

/**
 * When a read should change a file's access time, as the kernel decides it for its own
 * filesystems: by the mount's flags ({@code noatime}, {@code relatime}, {@code strictatime},
 * {@code nodiratime}, {@code ro}), which a remount may change while the filesystem runs. The
 * kernel leaves access times of FUSE files to the filesystem, and tells it nothing about these
 * flags: a filesystem that keeps access times asks {@link dev.fusepanama.inode.Request#accessTimes()}
 * for the mount's current rule, which follows remounts.
 *
 * <p>Reads the kernel answers from its page cache never reach the filesystem, so under
 * {@code relatime} (the default) the first read after a change is seen only when the changed data
 * is not cached, and under {@code strictatime} ({@link #everyRead()}) a filesystem that wants
 * each read seen has to drop the file's cached data after answering one
 * ({@link dev.fusepanama.inode.InodeMount#invalidateInode}).
 *
 * @param rule         when a read of a file changes its access time
 * @param directories  whether reading a directory may change its access time ({@code nodiratime} says no)
 * @param readOnly     the mount is read-only: no access time changes
 */
public record AccessTimes(Rule rule, boolean directories, boolean readOnly) {
    /** When a read changes the access time. */
    public enum Rule {
        /** Never ({@code noatime}). */
        NEVER,
        /**
         * When the access time is not after the modification or change time, or is a day old
         * ({@code relatime}, the kernel's default).
         */
        RELATIVE,
        /** At every read ({@code strictatime}). */
        ALWAYS
    }

    /** What a mount without atime flags gets: the kernel's default, relatime. */
    public static final AccessTimes DEFAULT = new AccessTimes(Rule.RELATIVE, true, false);

    private static final long DAY_NANOS = 24L * 3600 * 1_000_000_000;

    /**
     * A rule as given.
     *
     * @param rule when a read of a file changes its access time, not null
     * @param directories whether reading a directory may change its access time
     * @param readOnly whether the mount is read-only
     * @throws NullPointerException if {@code rule} is null
     */
    public AccessTimes {
        if (rule == null) throw new NullPointerException("rule");
    }

    /**
     * The rule of a mount whose per-mount options are {@code options}, as /proc/self/mountinfo
     * lists them ({@code rw,nosuid,nodev,relatime}): strictatime shows as neither relatime nor noatime.
     *
     * @param options the comma-separated per-mount options
     * @return the rule those options give
     */
    public static AccessTimes ofMountOptions(String options) {
        List<String> words = Arrays.asList(options.split(",")); // Set.of would throw on a repeated word
        Rule rule = words.contains("noatime") ? Rule.NEVER : words.contains("relatime") ? Rule.RELATIVE : Rule.ALWAYS;
        return new AccessTimes(rule, !words.contains("nodiratime"), words.contains("ro"));
    }

    /**
     * Whether a read now should set the access time, as the kernel's {@code atime_needs_update}
     * decides: times in nanoseconds since the epoch.
     *
     * @param directory whether the file read is a directory
     * @param atime the file's access time
     * @param mtime the file's modification time
     * @param ctime the file's status change time
     * @param now the current time
     * @return true if the read should set the access time to {@code now}
     */
    public boolean needsUpdate(boolean directory, long atime, long mtime, long ctime, long now) {
        if (readOnly || rule == Rule.NEVER || (directory && !directories) || atime == now) return false;
        return rule == Rule.ALWAYS || mtime >= atime || ctime >= atime || now - atime >= DAY_NANOS;
    }

    /**
     * Whether every read of a file changes its access time ({@code strictatime} on a writable mount).
     *
     * @return true for {@link Rule#ALWAYS} on a mount that is not read-only
     */
    public boolean everyRead() {
        return rule == Rule.ALWAYS && !readOnly;
    }
}
