package dev.fusepanama;

import java.util.Set;

/**
 * The settings of libfuse's path layer itself, which keeps the inode table for a
 * {@link FuseFileSystem} ({@code struct fuse_config}): how an unlinked open file is named, whether
 * operations on open files get their path, which inode numbers are reported. An inode filesystem
 * keeps its own table, so {@link Fuse#mount(FuseFileSystem, java.nio.file.Path, MountOptions,
 * PathOptions)} is the only mount that takes these: passing them to an inode mount does not
 * compile. What the kernel may cache (timeouts, page cache at open) is the filesystem's
 * {@link KernelSettings}. Immutable; start from {@link #defaults()} or {@link #builder()}.
 */
public final class PathOptions {
    /** The {@code -o} names of these settings, as libfuse's own command line spells them. */
    private static final Set<String> NAMES = FuseOptionNames.PATH_SETTINGS;

    private final Builder s;

    private PathOptions(Builder settings) {
        this.s = settings;
    }

    /**
     * libfuse's defaults: unlinked open files hidden as {@code .fuse_hidden*}, paths for every
     * operation, libfuse's own inode numbers.
     *
     * @return the defaults
     */
    public static PathOptions defaults() {
        return builder().build();
    }

    /**
     * A builder holding the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return whether open files are unlinked at once, without a hidden name} ({@link Builder#hardRemove}) */
    public boolean hardRemove() { return s.hardRemove; }
    /** {@return whether operations on open files may get a null path} ({@link Builder#nullPathOk}) */
    public boolean nullPathOk() { return s.nullPathOk; }
    /** {@return whether the filesystem's own inode numbers are reported} ({@link Builder#useIno}) */
    public boolean useIno() { return s.useIno; }
    /** {@return whether the filesystem's inode numbers are reported in listings} ({@link Builder#readdirIno}) */
    public boolean readdirIno() { return s.readdirIno; }

    /**
     * Whether the {@code -o} option {@code option} ({@code NAME} or {@code NAME=VALUE}) is one of these settings.
     *
     * @param option an option as given after {@code -o}
     * @return true for the names {@link Builder#fuseOption} takes
     */
    public static boolean isSetting(String option) {
        return NAMES.contains(FuseOptionNames.name(option));
    }

    /**
     * Whether the {@code -o} option {@code option} is one libfuse's high-level (path) API takes
     * with no typed setting here, passed on as it is with {@link MountOptions.Builder#option}
     * ({@code uid=}, {@code gid=}, {@code umask=}, {@code noforget}, {@code modules=subdir}, ...):
     * it applies them to the attributes it passes on, and a session of the inode API refuses
     * them.
     *
     * @param option an option as given after {@code -o}
     * @return true for the options the path API alone takes, untyped
     */
    public static boolean isPassedOn(String option) {
        return FuseOptionNames.PATH_API.contains(FuseOptionNames.name(option));
    }

    /**
     * A builder holding these settings, to change some of them.
     *
     * @return a new builder, independent of this object
     */
    public Builder toBuilder() {
        return s.copy();
    }

    @Override
    public String toString() {
        return "PathOptions[hardRemove=" + s.hardRemove + ", nullPathOk=" + s.nullPathOk + ", useIno=" + s.useIno
                + ", readdirIno=" + s.readdirIno + "]";
    }

    /** Makes a {@link PathOptions}; each method returns the builder. Not thread-safe. */
    public static final class Builder implements Cloneable {
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

        /**
         * Unlink open files at once instead of hiding them as {@code .fuse_hidden*} (libfuse's
         * {@code hard_remove}; see {@link FuseConfig#hardRemove}): operations on such a file then
         * get no path, so the filesystem must serve them by {@code fh}.
         *
         * @param on whether to unlink at once
         * @return this builder
         */
        public Builder hardRemove(boolean on) { hardRemove = on; return this; }
        /**
         * Accept operations on open files without their path (libfuse's {@code nullpath_ok};
         * see {@link FuseConfig#nullPathOk}): saves libfuse building the path, for a filesystem
         * that serves open files by {@code fh}.
         *
         * @param on whether paths may be null
         * @return this builder
         */
        public Builder nullPathOk(boolean on) { nullPathOk = on; return this; }
        /**
         * Report the filesystem's own inode numbers ({@code use_ino}), from {@code getattr}'s
         * {@code st_ino}.
         *
         * @param on whether to use them
         * @return this builder
         */
        public Builder useIno(boolean on) { useIno = on; return this; }
        /**
         * Without {@code useIno}: report the filesystem's inode numbers in listings alone
         * ({@code readdir_ino}).
         *
         * @param on whether to use them in listings
         * @return this builder
         */
        public Builder readdirIno(boolean on) { readdirIno = on; return this; }

        /**
         * One of these settings by its {@code -o} name, as libfuse's command line spells it
         * ({@code hard_remove}, {@code nullpath_ok}, {@code use_ino}, {@code readdir_ino}).
         *
         * @param option the option's name; none of these takes a value
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of these settings, or a value
         */
        public Builder fuseOption(String option) {
            String name = FuseOptionNames.name(option);
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("-o " + option + " is not a path API setting"
                        + (KernelSettings.isSetting(option) ? ": it is a kernel setting (KernelSettings.Builder.fuseOption)" : ""));
            }
            if (name.length() != option.length()) {
                throw new IllegalArgumentException("-o " + name + " takes no value: " + option);
            }
            switch (name) {
                case "hard_remove" -> hardRemove(true);
                case "nullpath_ok" -> nullPathOk(true);
                case "use_ino" -> useIno(true);
                case "readdir_ino" -> readdirIno(true);
                default -> throw new AssertionError(name);
            }
            return this;
        }

        /**
         * The settings made so far.
         *
         * @return an immutable {@link PathOptions}; this builder may go on being used
         */
        public PathOptions build() {
            return new PathOptions(copy());
        }
    }
}
