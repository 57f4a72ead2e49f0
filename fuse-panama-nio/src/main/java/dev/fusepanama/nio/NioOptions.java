package dev.fusepanama.nio;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link NioFileSystem} presents its files: how long the kernel may trust what it was told
 * (attributes, names, names found missing), and, where asked, one owner, group and mode for every
 * file, as libfuse's path API shows them with its {@code uid=}, {@code gid=} and {@code umask=}
 * options (lib/fuse.c, {@code set_stat}): the mode's permission bits become {@code 0777 & ~umask}
 * for files and directories alike, whatever the provider keeps. A chmod or chown still reaches
 * the provider; what is shown stays as set here. The kernel checks permissions against what is
 * shown ({@code default_permissions}).
 *
 * <pre>{@code
 * NioFileSystem.of(root, NioOptions.builder().attributeTimeout(Duration.ofSeconds(5)).owner(1000).group(1000).build())
 * }</pre>
 */
public final class NioOptions {
    private final Duration attributeTimeout;
    private final Duration entryTimeout;
    private final Duration negativeTimeout;
    private final int owner;
    private final int group;
    private final int umask;

    private NioOptions(Builder b) {
        this.attributeTimeout = b.attributeTimeout;
        this.entryTimeout = b.entryTimeout;
        this.negativeTimeout = b.negativeTimeout;
        this.owner = b.owner;
        this.group = b.group;
        this.umask = b.umask;
    }

    /** {@return every timeout 1 s; owners and modes as the provider keeps them} */
    public static NioOptions defaults() {
        return builder().build();
    }

    /** {@return a builder that starts from the {@linkplain #defaults() defaults}} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return how long the kernel trusts a file's attributes} */
    public Duration attributeTimeout() { return attributeTimeout; }
    /** {@return how long the kernel trusts a name it looked up} */
    public Duration entryTimeout() { return entryTimeout; }
    /** {@return how long the kernel trusts that a name does not exist} */
    public Duration negativeTimeout() { return negativeTimeout; }
    /** {@return the owner every file is shown with, or -1: the provider's (or the mounting user where it keeps none)} */
    public int owner() { return owner; }
    /** {@return the group every file is shown with, or -1: the provider's (or the mounting user's)} */
    public int group() { return group; }
    /** {@return the umask every file's permission bits are shown through ({@code 0777 & ~umask}), or -1: the provider's bits} */
    public int umask() { return umask; }

    @Override
    public String toString() {
        return "NioOptions[attributes " + attributeTimeout + ", entries " + entryTimeout + ", misses " + negativeTimeout
                + (owner >= 0 ? ", uid " + owner : "") + (group >= 0 ? ", gid " + group : "")
                + (umask >= 0 ? ", umask 0" + Integer.toOctalString(umask) : "") + "]";
    }

    /** Sets the options one by one; each setter returns the builder. Not for use by several threads at once. */
    public static final class Builder {
        private Duration attributeTimeout = Duration.ofSeconds(1);
        private Duration entryTimeout = Duration.ofSeconds(1);
        private Duration negativeTimeout = Duration.ofSeconds(1);
        private int owner = -1;
        private int group = -1;
        private int umask = -1;

        private Builder() {}

        /**
         * Sets all three timeouts at once.
         *
         * @param timeout how long the kernel trusts what it was told; 0 to ask the provider every time
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder cacheTimeout(Duration timeout) {
            return attributeTimeout(timeout).entryTimeout(timeout).negativeTimeout(timeout);
        }

        /**
         * Sets how long the kernel trusts a file's attributes.
         *
         * @param timeout the time, 0 to ask the provider every time; 1 s by default
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder attributeTimeout(Duration timeout) {
            attributeTimeout = notNegative("attribute timeout", timeout);
            return this;
        }

        /**
         * Sets how long the kernel trusts a name it looked up.
         *
         * @param timeout the time, 0 to ask the provider every time; 1 s by default
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder entryTimeout(Duration timeout) {
            entryTimeout = notNegative("entry timeout", timeout);
            return this;
        }

        /**
         * Sets how long the kernel trusts that a name does not exist.
         *
         * @param timeout the time, 0 not to remember misses; 1 s by default
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder negativeTimeout(Duration timeout) {
            negativeTimeout = notNegative("negative timeout", timeout);
            return this;
        }

        /**
         * Shows every file as owned by user {@code uid} (libfuse's {@code -o uid=}).
         *
         * @param uid the user id
         * @return this builder
         * @throws IllegalArgumentException if {@code uid} is negative
         */
        public Builder owner(int uid) {
            owner = notNegative("uid", uid);
            return this;
        }

        /**
         * Shows every file as owned by group {@code gid} (libfuse's {@code -o gid=}).
         *
         * @param gid the group id
         * @return this builder
         * @throws IllegalArgumentException if {@code gid} is negative
         */
        public Builder group(int gid) {
            group = notNegative("gid", gid);
            return this;
        }

        /**
         * Shows every file with the permission bits {@code 0777 & ~umask} (libfuse's {@code -o umask=}, octal there).
         *
         * @param umask the bits to take away, 0 to 0777
         * @return this builder
         * @throws IllegalArgumentException if {@code umask} is outside 0 to 0777
         */
        public Builder umask(int umask) {
            if (umask < 0 || umask > 0777) {
                throw new IllegalArgumentException("a umask is between 0 and 0777, not 0" + Integer.toOctalString(umask));
            }
            this.umask = umask;
            return this;
        }

        /** {@return the options as set}, immutable; the builder may go on to build others. */
        public NioOptions build() {
            return new NioOptions(this);
        }

        private static Duration notNegative(String what, Duration d) {
            Objects.requireNonNull(d, what);
            if (d.isNegative()) throw new IllegalArgumentException("a " + what + " is not negative: " + d);
            return d;
        }

        private static int notNegative(String what, int id) {
            if (id < 0) throw new IllegalArgumentException("a " + what + " is not negative: " + id);
            return id;
        }
    }
}
