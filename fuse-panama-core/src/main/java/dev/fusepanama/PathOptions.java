package dev.fusepanama;

import java.util.OptionalDouble;
import java.util.Set;

/**
 * The settings that only the path API has: libfuse's path layer keeps the kernel's inode table
 * for a {@link FuseFileSystem}, and these say how ({@code struct fuse_config}): how long the
 * kernel may trust names and attributes, what happens to the page cache at each open, how an
 * unlinked open file is named. An inode filesystem makes the same choices per reply (its
 * timeouts, {@code OpenReply} flags), so {@link Fuse#mount(FuseFileSystem, java.nio.file.Path,
 * MountOptions, PathOptions)} is the only mount that takes these: passing them to an inode mount
 * does not compile. Immutable; start from {@link #defaults()} or {@link #builder()}.
 */
public final class PathOptions {
    /** The {@code -o} names of these settings, as libfuse's own command line spells them. */
    private static final Set<String> NAMES = FuseOptionNames.PATH_SETTINGS;

    private final Builder s;

    private PathOptions(Builder settings) {
        this.s = settings;
    }

    /** libfuse's defaults: names and attributes trusted for a second, cached data dropped at each open. */
    public static PathOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public OptionalDouble attrTimeout() { return s.attrTimeout; }
    public OptionalDouble entryTimeout() { return s.entryTimeout; }
    public OptionalDouble negativeTimeout() { return s.negativeTimeout; }
    public boolean directIo() { return s.directIo; }
    public boolean kernelCache() { return s.kernelCache; }
    public boolean autoCache() { return s.autoCache; }
    public boolean hardRemove() { return s.hardRemove; }
    public boolean nullPathOk() { return s.nullPathOk; }
    public boolean useIno() { return s.useIno; }
    public boolean readdirIno() { return s.readdirIno; }

    /** Whether the {@code -o} option {@code option} ({@code NAME} or {@code NAME=VALUE}) is one of these settings. */
    public static boolean isSetting(String option) {
        return NAMES.contains(FuseOptionNames.name(option));
    }

    /**
     * Whether the {@code -o} option {@code option} is one libfuse's high-level (path) API takes
     * with no typed setting here, passed on as it is with {@link MountOptions.Builder#option}
     * ({@code uid=}, {@code gid=}, {@code umask=}, {@code noforget}, {@code modules=subdir}, ...):
     * it applies them to the attributes it passes on, and a session of the inode API refuses
     * them.
     */
    public static boolean isPassedOn(String option) {
        return FuseOptionNames.PATH_API.contains(FuseOptionNames.name(option));
    }

    public Builder toBuilder() {
        return s.copy();
    }

    @Override
    public String toString() {
        return "PathOptions[attrTimeout=" + s.attrTimeout + ", entryTimeout=" + s.entryTimeout + ", negativeTimeout="
                + s.negativeTimeout + ", directIo=" + s.directIo + ", kernelCache=" + s.kernelCache + ", autoCache="
                + s.autoCache + ", hardRemove=" + s.hardRemove + ", nullPathOk=" + s.nullPathOk + ", useIno=" + s.useIno
                + ", readdirIno=" + s.readdirIno + "]";
    }

    public static final class Builder implements Cloneable {
        private OptionalDouble attrTimeout = OptionalDouble.empty();
        private OptionalDouble entryTimeout = OptionalDouble.empty();
        private OptionalDouble negativeTimeout = OptionalDouble.empty();
        private boolean directIo;
        private boolean kernelCache;
        private boolean autoCache;
        private boolean hardRemove;
        private boolean nullPathOk;
        private boolean useIno;
        private boolean readdirIno;

        private Builder() {}

        private Builder copy() {
            try {
                return (Builder) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /** Seconds the kernel caches attributes (libfuse default 1). */
        public Builder attrTimeout(double seconds) { attrTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }
        /** Seconds the kernel caches name lookups (libfuse default 1). */
        public Builder entryTimeout(double seconds) { entryTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }
        /** Seconds the kernel caches failed lookups (libfuse default 0). */
        public Builder negativeTimeout(double seconds) { negativeTimeout = OptionalDouble.of(nonNegative(seconds)); return this; }
        /** Bypass the page cache for every file. */
        public Builder directIo(boolean on) { directIo = on; return this; }
        /** Keep cached file data across opens (for data nothing else changes). */
        public Builder kernelCache(boolean on) { kernelCache = on; return this; }
        /** Keep cached file data across opens while mtime and size are unchanged. */
        public Builder autoCache(boolean on) { autoCache = on; return this; }
        /** Unlink open files at once instead of hiding them as {@code .fuse_hidden*} (see {@link FuseConfig#hardRemove}). */
        public Builder hardRemove(boolean on) { hardRemove = on; return this; }
        /** Accept operations on open files without their path (see {@link FuseConfig#nullPathOk}). */
        public Builder nullPathOk(boolean on) { nullPathOk = on; return this; }
        /** Report the filesystem's own inode numbers. */
        public Builder useIno(boolean on) { useIno = on; return this; }
        /** Without {@code useIno}: report the filesystem's inode numbers in listings alone. */
        public Builder readdirIno(boolean on) { readdirIno = on; return this; }

        /**
         * One of these settings by its {@code -o} name, as libfuse's command line spells it
         * ({@code attr_timeout=2.5}, {@code kernel_cache}, ...).
         *
         * @throws IllegalArgumentException for a name that is not one of these settings, or a bad value
         */
        public Builder fuseOption(String option) {
            int eq = option.indexOf('=');
            String name = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? null : option.substring(eq + 1);
            boolean valued = name.endsWith("_timeout");
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("-o " + option + " is not a path API setting");
            }
            if (valued != (value != null)) {
                throw new IllegalArgumentException(valued ? "-o " + name + " needs a value: " + name + "=SECONDS"
                        : "-o " + name + " takes no value: " + option);
            }
            try {
                typedOption(name, value, option);
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith("-o ") ? e : new IllegalArgumentException("-o " + option + ": " + e.getMessage(), e);
            }
            return this;
        }

        private void typedOption(String name, String value, String option) {
            switch (name) {
                case "attr_timeout" -> attrTimeout(seconds(option, value));
                case "entry_timeout" -> entryTimeout(seconds(option, value));
                case "negative_timeout" -> negativeTimeout(seconds(option, value));
                case "direct_io" -> directIo(true);
                case "kernel_cache" -> kernelCache(true);
                case "auto_cache" -> autoCache(true);
                case "noauto_cache" -> autoCache(false);
                case "hard_remove" -> hardRemove(true);
                case "nullpath_ok" -> nullPathOk(true);
                case "use_ino" -> useIno(true);
                case "readdir_ino" -> readdirIno(true);
                default -> throw new AssertionError(name);
            }
        }

        private static double seconds(String option, String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-o " + option + ": " + value + " is not a number of seconds");
            }
        }

        private static double nonNegative(double seconds) {
            if (!(seconds >= 0) || seconds == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("a timeout is a finite number of seconds >= 0, not " + seconds);
            }
            return seconds;
        }

        public PathOptions build() {
            return new PathOptions(copy());
        }
    }
}
