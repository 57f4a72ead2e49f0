package dev.fusepanama;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Everything a filesystem lets the kernel decide or remember on its own, for either API, in one
 * place: which FUSE capabilities it asks for, how long names and attributes may be trusted, what
 * happens to cached data at each open, and whether directories are opened at all. Each setting
 * is a promise about the filesystem's own behaviour (a kept listing promises the directory does
 * not change behind the mount, a writeback cache promises the store cannot refuse a write it has
 * room for), so the filesystem states them: {@link FuseFileSystem#kernelSettings()} and
 * {@link dev.fusepanama.inode.InodeFileSystem#kernelSettings()}, asked once at mount. Whoever
 * mounts a filesystem with other settings wraps it ({@link ForwardingFileSystem#withKernelSettings},
 * {@link dev.fusepanama.inode.ForwardingInodeFileSystem#withKernelSettings}). After {@code init}
 * nothing changes them: {@link ConnectionInfo} and {@link FuseConfig} only report what was granted.
 *
 * <p>A setting the libfuse or kernel in use cannot give is left off, never failing the mount, and
 * {@link Mount#describe()} lists what the mount got and why not the rest. A setting only one API
 * can take (the path API's timeouts and page-cache modes, the inode API's directory levers) is
 * refused at mount by the other with {@link MountException.Reason#INVALID_OPTIONS}, naming what
 * that API uses instead.
 *
 * <p>The request counts below are memfs's, unpacking and walking a tar of /usr/include on this
 * project's bench machine ({@code fuse-panama-bench --suite memfs}), read from the kernel's
 * {@code fuse:fuse_request_send} tracepoint.
 *
 * <table>
 *   <caption>The settings, by what they save</caption>
 *   <tr><th>Setting</th><th>API</th><th>Saves</th></tr>
 *   <tr><td>{@link Builder#noOpendir}</td><td>inode</td><td>OPENDIR and RELEASEDIR: two round trips per directory walked</td></tr>
 *   <tr><td>{@link Builder#keepListings}</td><td>inode</td><td>every READDIR of a directory listed before</td></tr>
 *   <tr><td>{@link Builder#negativeEntries}</td><td>both</td><td>the LOOKUP of a name known absent</td></tr>
 *   <tr><td>{@link Builder#attrTimeout}, {@link Builder#entryTimeout}</td><td>path</td><td>GETATTR and LOOKUP while trusted</td></tr>
 *   <tr><td>{@link Builder#keepCache}, {@link Builder#autoCache}</td><td>path</td><td>READs of data cached by an earlier open</td></tr>
 *   <tr><td>{@link Builder#explicitDataInvalidation}</td><td>both</td><td>READs of pages a size change would drop</td></tr>
 *   <tr><td>{@link Builder#handleKillprivV2}</td><td>both</td><td>a GETXATTR of {@code security.capability} before each write</td></tr>
 *   <tr><td>{@link Builder#writebackCache}</td><td>both</td><td>a WRITE per {@code write(2)}: pages gathered, up to 1 MiB a request</td></tr>
 *   <tr><td>{@link Builder#atomicOTrunc}</td><td>both</td><td>the SETATTR after an {@code O_TRUNC} open</td></tr>
 *   <tr><td>{@link Builder#autoInvalData}</td><td>both</td><td>nothing: it costs a GETATTR per read, for data changed behind an open file</td></tr>
 * </table>
 *
 * <p>A filesystem without {@code flush} already gets no FLUSH: the kernel stops sending it after
 * the first ENOSYS. Immutable; start from {@link #DEFAULTS} or {@link #builder()}.
 */
public final class KernelSettings {
    /**
     * What fuse-panama asks for when a filesystem states nothing: libfuse's defaults, except that
     * {@code auto_inval_data} and {@code atomic_o_trunc} (which libfuse 3 turns on) are off; see
     * {@link Builder#autoInvalData} and {@link Builder#atomicOTrunc} for why.
     */
    public static final KernelSettings DEFAULTS = builder().build();

    /** The {@code -o} names of these settings, as libfuse's own command line spells them. */
    private static final Set<String> NAMES = FuseOptionNames.KERNEL_SETTINGS;

    private final Builder s;

    private KernelSettings(Builder settings) {
        this.s = settings;
    }

    /**
     * A builder holding {@link #DEFAULTS}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding these settings, to change some of them.
     *
     * @return a new builder, independent of this object
     */
    public Builder toBuilder() {
        return s.copy();
    }

    /**
     * Whether the {@code -o} option {@code option} ({@code NAME} or {@code NAME=VALUE}) is one of these settings.
     *
     * @param option an option as given after {@code -o}
     * @return true for the names {@link Builder#fuseOption} takes
     */
    public static boolean isSetting(String option) {
        return NAMES.contains(FuseOptionNames.name(option));
    }

    /** {@return whether directories are opened and closed without a request} ({@link Builder#noOpendir}) */
    public boolean noOpendir() { return s.noOpendir; }

    /** {@return whether opendir answers keep the kernel's cached listing} ({@link Builder#keepListings}); implied by {@link #noOpendir} */
    public boolean keepListings() { return s.keepListings || s.noOpendir; }

    /** {@return seconds a name found absent is remembered, 0 for not at all} ({@link Builder#negativeEntries}) */
    public double negativeTimeout() { return s.negativeTimeout; }

    /** {@return seconds the kernel trusts attributes on the path API, empty for libfuse's 1} ({@link Builder#attrTimeout}) */
    public OptionalDouble attrTimeout() { return s.attrTimeout; }

    /** {@return seconds the kernel trusts names on the path API, empty for libfuse's 1} ({@link Builder#entryTimeout}) */
    public OptionalDouble entryTimeout() { return s.entryTimeout; }

    /** {@return whether cached file data survives every open on the path API} ({@link Builder#keepCache}) */
    public boolean keepCache() { return s.keepCache; }

    /** {@return whether cached file data survives an open while mtime and size are unchanged} ({@link Builder#autoCache}) */
    public boolean autoCache() { return s.autoCache; }

    /** {@return whether every file of the path API bypasses the page cache} ({@link Builder#directIo}) */
    public boolean directIo() { return s.directIo; }

    /** {@return whether the kernel drops cached pages only when told} ({@link Builder#explicitDataInvalidation}) */
    public boolean explicitDataInvalidation() { return s.explicitDataInvalidation; }

    /** {@return whether the filesystem clears set-ID bits itself} ({@link Builder#handleKillprivV2}) */
    public boolean handleKillprivV2() { return s.handleKillprivV2; }

    /** {@return whether the kernel keeps written data and sends it later} ({@link Builder#writebackCache}) */
    public boolean writebackCache() { return s.writebackCache; }

    /** {@return whether the kernel checks attributes before reading cached data} ({@link Builder#autoInvalData}) */
    public boolean autoInvalData() { return (s.wanted & ConnectionInfo.CAP_AUTO_INVAL_DATA) != 0; }

    /** {@return whether an {@code O_TRUNC} open asks the filesystem to truncate} ({@link Builder#atomicOTrunc}) */
    public boolean atomicOTrunc() { return (s.wanted & ConnectionInfo.CAP_ATOMIC_O_TRUNC) != 0; }

    /**
     * {@return the {@code ConnectionInfo.CAP_*} bits asked for}: those of {@link Builder#want}, with
     * {@code CAP_AUTO_INVAL_DATA} and {@code CAP_ATOMIC_O_TRUNC} when {@link Builder#autoInvalData}
     * and {@link Builder#atomicOTrunc} are on
     */
    public long wantedCapabilities() { return s.wanted; }

    /** {@return the {@code ConnectionInfo.CAP_*} bits turned off} by {@link Builder#unwant} and the typed settings, among them libfuse defaults */
    public long unwantedCapabilities() { return s.unwanted; }

    /**
     * The settings that only libfuse's path API can take, by name, for a refusal's message.
     *
     * @return the names of those set, empty if none
     */
    public List<String> pathOnly() {
        List<String> n = new ArrayList<>();
        if (s.attrTimeout.isPresent()) n.add("attrTimeout");
        if (s.entryTimeout.isPresent()) n.add("entryTimeout");
        if (s.keepCache) n.add("keepCache");
        if (s.autoCache) n.add("autoCache");
        if (s.directIo) n.add("directIo");
        return n;
    }

    /**
     * The settings that only the inode API can take, by name, for a refusal's message.
     *
     * @return the names of those set, empty if none
     */
    public List<String> inodeOnly() {
        List<String> n = new ArrayList<>();
        if (s.noOpendir) n.add("noOpendir");
        if (s.keepListings) n.add("keepListings");
        return n;
    }

    /**
     * The settings that differ from {@link #DEFAULTS}, by name.
     *
     * @return the names, in the order of this class's methods
     */
    public List<String> names() {
        List<String> n = new ArrayList<>(inodeOnly());
        if (noOpendir() && !s.keepListings) n.add("keepListings");
        if (s.negativeTimeout > 0) n.add("negativeEntries");
        n.addAll(pathOnly());
        if (s.explicitDataInvalidation) n.add("explicitDataInvalidation");
        if (s.handleKillprivV2) n.add("handleKillprivV2");
        if (s.writebackCache) n.add("writebackCache");
        if (autoInvalData()) n.add("autoInvalData");
        if (atomicOTrunc()) n.add("atomicOTrunc");
        long others = ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_ATOMIC_O_TRUNC;
        if ((s.wanted & ~others) != 0) n.add("want(0x" + Long.toHexString(s.wanted & ~others) + ")");
        if ((s.unwanted & ~others) != 0) n.add("unwant(0x" + Long.toHexString(s.unwanted & ~others) + ")");
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KernelSettings k && s.same(k.s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(s.noOpendir, s.keepListings, s.negativeTimeout, s.attrTimeout, s.entryTimeout, s.keepCache,
                s.autoCache, s.directIo, s.explicitDataInvalidation, s.handleKillprivV2, s.writebackCache, s.wanted, s.unwanted);
    }

    @Override
    public String toString() {
        return "KernelSettings" + names();
    }

    /** Makes a {@link KernelSettings}; each method returns the builder. Not thread-safe. */
    public static final class Builder implements Cloneable {
        private boolean noOpendir;
        private boolean keepListings;
        private double negativeTimeout;
        private OptionalDouble attrTimeout = OptionalDouble.empty();
        private OptionalDouble entryTimeout = OptionalDouble.empty();
        private boolean keepCache;
        private boolean autoCache;
        private boolean directIo;
        private boolean explicitDataInvalidation;
        private boolean handleKillprivV2;
        private boolean writebackCache;
        private long wanted;
        private long unwanted = ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_ATOMIC_O_TRUNC;

        private Builder() {}

        private Builder copy() {
            try {
                return (Builder) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        private boolean same(Builder o) {
            return noOpendir == o.noOpendir && keepListings == o.keepListings && negativeTimeout == o.negativeTimeout
                    && attrTimeout.equals(o.attrTimeout) && entryTimeout.equals(o.entryTimeout) && keepCache == o.keepCache
                    && autoCache == o.autoCache && directIo == o.directIo && explicitDataInvalidation == o.explicitDataInvalidation
                    && handleKillprivV2 == o.handleKillprivV2 && writebackCache == o.writebackCache && wanted == o.wanted
                    && unwanted == o.unwanted;
        }

        /**
         * Inode API: directories are opened and closed without a request (the kernel's
         * {@code no_opendir}, Linux 5.1+): the library answers the first OPENDIR with ENOSYS and
         * the kernel sends no OPENDIR or RELEASEDIR again, two round trips saved per directory
         * walked (a {@code find} of 830 directories: 1,660 requests). {@code readdir} and
         * {@code readdirplus} then get {@code fh} 0, so a listing must resume from its offset
         * alone; a filesystem that overrides {@code opendir} or {@code releasedir} is refused at
         * mount. Implies {@link #keepListings} (the kernel's default for such directories), with
         * what that says of changing directories. On a kernel without it, the library answers
         * each OPENDIR itself, with {@code fh} 0 and the listing kept.
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder noOpendir(boolean on) {
            noOpendir = on;
            return this;
        }

        /**
         * Inode API: every opendir answer keeps the kernel's cached listing
         * ({@code OpenReply.CACHE_DIR} with {@code OpenReply.KEEP_CACHE}: with CACHE_DIR alone,
         * each open drops what the last one cached), so a second walk reads no directory at all.
         * The kernel drops the listing itself when the directory changes through the mount; a
         * change behind the mount needs {@code InodeMount.invalidateInode} of the directory.
         *
         * <p>Only for directories that do not change while they are listed: the kernel ends a
         * listing early when the offset it resumes from is not in its cached listing and that
         * listing fills a whole number of pages (fs/fuse/readdir.c, {@code fuse_readdir_cached},
         * through Linux 6.18), which a listing that began before a change can meet (its last
         * entry unlinked since); names nobody touched are then missing from it. memfs lost 98 of
         * 300 that way ({@code dev.fusepanama.testkit.ListingRace}).
         *
         * @param on whether to keep listings
         * @return this builder
         */
        public Builder keepListings(boolean on) {
            keepListings = on;
            return this;
        }

        /**
         * Both APIs: a lookup answered ENOENT is remembered by the kernel for {@code seconds}, so
         * the next lookup of the name asks nothing ({@code git status} looks up a
         * {@code .gitignore} in every directory, each a LOOKUP otherwise). Creating the name
         * through the mount replaces the negative entry at once; a name made behind the mount
         * stays unseen until it expires, or until {@code InodeMount.invalidateEntry}
         * ({@link FuseMount#invalidate} on the path API). On the inode API this covers
         * {@code Reply.error(ENOENT)}, {@code EntryReply.noEntry} and a thrown
         * {@code ErrnoException}/{@code NoSuchFileException}; on the path API, libfuse's
         * {@code negative_timeout}. 0, the default, turns it off.
         *
         * @param seconds a finite number of seconds, at least 0
         * @return this builder
         * @throws IllegalArgumentException for a negative, infinite or NaN value
         */
        public Builder negativeEntries(double seconds) {
            negativeTimeout = seconds("negative entry timeout", seconds);
            return this;
        }

        /**
         * Path API: seconds the kernel trusts a file's attributes before asking again (libfuse's
         * {@code attr_timeout}, default 1). Longer saves GETATTRs; a change made behind the mount
         * is then seen that much later. 0 asks every time. The inode API gives a timeout in each
         * reply instead.
         *
         * @param seconds a finite number of seconds, at least 0
         * @return this builder
         * @throws IllegalArgumentException for a negative, infinite or NaN value
         */
        public Builder attrTimeout(double seconds) {
            attrTimeout = OptionalDouble.of(seconds("timeout", seconds));
            return this;
        }

        /**
         * Path API: seconds the kernel trusts a name it looked up (libfuse's
         * {@code entry_timeout}, default 1), with what {@link #attrTimeout} says of changes
         * behind the mount. The inode API gives a timeout in each entry reply instead.
         *
         * @param seconds a finite number of seconds, at least 0
         * @return this builder
         * @throws IllegalArgumentException for a negative, infinite or NaN value
         */
        public Builder entryTimeout(double seconds) {
            entryTimeout = OptionalDouble.of(seconds("timeout", seconds));
            return this;
        }

        /**
         * Path API: cached file data survives every open (libfuse's {@code kernel_cache}), so a
         * file read twice is read from the filesystem once. Only for data that nothing changes
         * behind the mount: such a change is not seen while the kernel keeps the pages. Not with
         * {@link MountOptions.Builder#passthrough}. The inode API says it per open
         * ({@code OpenReply.KEEP_CACHE}).
         *
         * @param on whether to keep cached data across opens
         * @return this builder
         */
        public Builder keepCache(boolean on) {
            keepCache = on;
            return this;
        }

        /**
         * Path API: cached file data survives an open while the file's mtime and size are those
         * of the last open (libfuse's {@code auto_cache}): the data of an unchanged file is read
         * once, a changed one at its next open, at the cost of a GETATTR per open. Not with
         * {@link MountOptions.Builder#passthrough}.
         *
         * @param on whether to decide by mtime and size
         * @return this builder
         */
        public Builder autoCache(boolean on) {
            autoCache = on;
            return this;
        }

        /**
         * Path API: every file bypasses the page cache (libfuse's {@code direct_io}): each
         * {@code read(2)} and {@code write(2)} is a request of its own size, and shared
         * {@code mmap} is refused. For data generated per read (a pipe-like file, a size the
         * filesystem cannot know). Not with {@link MountOptions.Builder#passthrough}. The inode
         * API says it per open ({@code OpenReply.DIRECT_IO}).
         *
         * @param on whether to bypass the page cache
         * @return this builder
         */
        public Builder directIo(boolean on) {
            directIo = on;
            return this;
        }

        /**
         * Both APIs: the kernel drops a file's cached pages only when told
         * ({@code FUSE_CAP_EXPLICIT_INVAL_DATA}, Linux 5.2+): a new size in an attribute reply
         * drops only the pages past the new end, where otherwise it drops them all (and, with
         * {@link #autoInvalData}, a new mtime does too; this setting turns that off). For a
         * filesystem that is its data's only writer, or that invalidates the inode
         * ({@code InodeMount.invalidateInode}, {@link FuseMount#invalidate}) for every
         * change behind the mount.
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder explicitDataInvalidation(boolean on) {
            explicitDataInvalidation = on;
            return this;
        }

        /**
         * Both APIs: the filesystem clears set-user-ID and set-group-ID bits itself, as a local
         * filesystem does ({@code FUSE_CAP_HANDLE_KILLPRIV_V2}: libfuse 3.17.1+, Linux 5.11+). In
         * exchange the kernel marks files without set-ID bits as needing no check and stops
         * sending a GETXATTR of {@code security.capability} before each write (3 per tar entry
         * otherwise, a fifth of all its requests).
         *
         * <p>The filesystem must then clear {@code S_ISUID}, and {@code S_ISGID} if the file is
         * group-executable or the caller is not in its group (Linux 6.2+), when a caller without
         * CAP_FSETID ({@code Request.mayKeepSetId} on the inode API) writes, truncates (setattr
         * of the size, or an open with {@code O_TRUNC}), allocates or copies into the file; and
         * on a chown of a file that is not a directory, clear {@code S_ISUID} always and
         * {@code S_ISGID} as for a write. The kernel marks such a setattr with bit 11 of its
         * valid mask ({@code FATTR_KILL_SUIDGID}), but libfuse passes on neither its per-write
         * flag nor its open flag, so decide from the file's mode and the caller. Where libfuse or
         * the kernel lacks the capability, the kernel keeps asking and clears the bits itself,
         * with a GETATTR and a SETATTR of the mode (libfuse 3.14 asks for the older
         * {@code HANDLE_KILLPRIV} but never tells the kernel): a filesystem that follows the
         * rules is right either way.
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder handleKillprivV2(boolean on) {
            handleKillprivV2 = on;
            return this;
        }

        /**
         * Both APIs: the kernel keeps written data in its page cache and sends it later as whole
         * pages ({@code FUSE_CAP_WRITEBACK_CACHE}, Linux 3.15+): {@code write(2)} returns without
         * a request, and the data comes in WRITEs of up to 1 MiB when the kernel flushes it: in
         * the background, on {@code fsync}, and on every close (100 MiB written 10 KiB at a
         * time: 10,240 WRITEs otherwise). Not with {@link MountOptions.Builder#passthrough},
         * which the kernel refuses beside it. The kernel then owns what a write changes, and the
         * filesystem promises to:
         * <ul>
         *   <li>be its files' only writer: the kernel keeps the size, mtime and ctime of a regular
         *       file it has cached and ignores those in attribute replies, also after an
         *       invalidation (which writes the dirty pages and drops them), so a change made
         *       behind the mount is not seen while the kernel holds the inode;
         *   <li>take the size, mtime and ctime from {@code setattr} (the kernel sends its times
         *       when it flushes), and leave the times and set-ID bits alone on a write from the
         *       page cache ({@code Request.fromPageCache} on the inode API): the kernel has moved
         *       them already;
         *   <li>write each WRITE at its offset: the kernel applies {@code O_APPEND}, which still
         *       arrives among the open flags; and serve reads on files opened write-only, which
         *       the kernel sends to fill a page a write covers in part.
         * </ul>
         * Errors change place, and a refused WRITE is data lost: the {@code write(2)} was
         * answered without asking the filesystem, so a WRITE refused later (ENOSPC from a full
         * store, EIO) is reported only by the next {@code fsync} of each descriptor, and by a
         * {@code close} unless an fsync or close of the file reported it before (the kernel
         * keeps one error per file, as for NFS); the data is gone, and the kernel's cached size
         * still counts it. No reserve prevents it: a writer that opened the file while there was
         * room can go on writing through the cache without bound. So take this only for a store
         * that cannot refuse what fits in memory (none of this project's filesystems takes it:
         * memfs has a capacity, the mirror, the vault and the NIO adapter a disk that can fill).
         * A WRITE from the page cache should be taken whole or refused, since the kernel takes a
         * short count for success and the rest is lost without a word. And the kernel forwards
         * {@code lseek}'s SEEK_DATA and SEEK_HOLE without flushing first, so the filesystem
         * cannot tell a hole from data the kernel still holds: answering ENOSYS lets the kernel
         * answer from its own size, a file without holes.
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder writebackCache(boolean on) {
            writebackCache = on;
            return this;
        }

        /**
         * Both APIs: whether the kernel checks a file's attributes before reading from its cached
         * data and drops that data when size or mtime changed ({@code FUSE_CAP_AUTO_INVAL_DATA},
         * which bare libfuse 3 turns on). Default off: cached data is dropped at each open
         * instead (as in libfuse 2 and NFS's close-to-open consistency), which saves a GETATTR
         * per read whose cached attributes have expired: with an attribute timeout of 0, every
         * read, which halves small-read throughput. Turn it on when file contents change behind
         * the kernel's back while programs keep the file open and read it again (a log appended
         * to by another host, say).
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder autoInvalData(boolean on) {
            return on ? want(ConnectionInfo.CAP_AUTO_INVAL_DATA) : unwant(ConnectionInfo.CAP_AUTO_INVAL_DATA);
        }

        /**
         * Both APIs: whether an {@code open} with {@code O_TRUNC} asks the filesystem to truncate
         * as it opens ({@code FUSE_CAP_ATOMIC_O_TRUNC}, which bare libfuse 3 turns on). Default
         * off: the kernel opens, makes its own checks, then truncates with a SETATTR of size 0,
         * as for every kernel filesystem. On, it saves that round trip per truncating open of an
         * existing file, but the kernel sends the truncating open before it checks that the file
         * is not a running program: {@code open(O_RDONLY|O_TRUNC)} of one fails with ETXTBSY
         * after the filesystem has emptied it (pjdfstest's {@code open::etxtbsy} catches it).
         *
         * @param on whether to ask for it
         * @return this builder
         */
        public Builder atomicOTrunc(boolean on) {
            return on ? want(ConnectionInfo.CAP_ATOMIC_O_TRUNC) : unwant(ConnectionInfo.CAP_ATOMIC_O_TRUNC);
        }

        /**
         * Both APIs: asks for {@code capabilities} ({@code ConnectionInfo.CAP_*}) on top of
         * libfuse's defaults, for those without a setting of their own here (flock and POSIX
         * locks, POSIX ACLs, cached symlinks, splice, {@code CAP_DONT_MASK}, ...). Each is turned
         * on only where the kernel and libfuse offer it, never failing the mount;
         * {@link ConnectionInfo#wants} in {@code init} tells what was granted. The capabilities
         * of the typed settings ({@code CAP_WRITEBACK_CACHE}, {@code CAP_HANDLE_KILLPRIV_V2},
         * {@code CAP_EXPLICIT_INVAL_DATA}, {@code CAP_NO_OPENDIR_SUPPORT}, {@code CAP_PASSTHROUGH})
         * are refused here: each has a rule the typed one applies.
         *
         * @param capabilities {@code ConnectionInfo.CAP_*} bits
         * @return this builder
         * @throws IllegalArgumentException for a capability with a typed setting
         */
        public Builder want(long capabilities) {
            typedElsewhere("want", capabilities);
            wanted |= capabilities;
            unwanted &= ~capabilities;
            return this;
        }

        /**
         * Both APIs: turns {@code capabilities} off, among them any that libfuse enables by
         * default ({@code CAP_SPLICE_READ}, {@code CAP_ASYNC_READ}, ...). The capabilities of
         * the typed settings are refused here, as for {@link #want}.
         *
         * @param capabilities {@code ConnectionInfo.CAP_*} bits
         * @return this builder
         * @throws IllegalArgumentException for a capability with a typed setting
         */
        public Builder unwant(long capabilities) {
            typedElsewhere("unwant", capabilities);
            unwanted |= capabilities;
            wanted &= ~capabilities;
            return this;
        }

        private static final long TYPED = ConnectionInfo.CAP_WRITEBACK_CACHE | ConnectionInfo.CAP_HANDLE_KILLPRIV_V2
                | ConnectionInfo.CAP_EXPLICIT_INVAL_DATA | ConnectionInfo.CAP_NO_OPENDIR_SUPPORT | ConnectionInfo.CAP_PASSTHROUGH;

        private static void typedElsewhere(String what, long capabilities) {
            if ((capabilities & TYPED) != 0) {
                throw new IllegalArgumentException(what + "(0x" + Long.toHexString(capabilities & TYPED) + "): "
                        + "writebackCache, handleKillprivV2, explicitDataInvalidation, noOpendir and MountOptions.passthrough"
                        + " are the settings of those capabilities");
            }
        }

        /**
         * One of these settings by its {@code -o} name, as libfuse's command line spells it
         * ({@code attr_timeout=2.5}, {@code entry_timeout=}, {@code negative_timeout=},
         * {@code kernel_cache}, {@code auto_cache}, {@code noauto_cache}, {@code direct_io},
         * {@code auto_inval_data}, {@code no_auto_inval_data}).
         *
         * @param option {@code NAME} or {@code NAME=VALUE}
         * @return this builder
         * @throws IllegalArgumentException for a name that is not one of these settings, or a bad value
         */
        public Builder fuseOption(String option) {
            String name = FuseOptionNames.name(option);
            String value = name.length() == option.length() ? null : option.substring(name.length() + 1);
            boolean valued = name.endsWith("_timeout");
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("-o " + option + " is not a kernel setting");
            }
            if (valued != (value != null)) {
                throw new IllegalArgumentException(valued ? "-o " + name + " needs a value: " + name + "=SECONDS"
                        : "-o " + name + " takes no value: " + option);
            }
            try {
                switch (name) {
                    case "attr_timeout" -> attrTimeout(parseSeconds(option, value));
                    case "entry_timeout" -> entryTimeout(parseSeconds(option, value));
                    case "negative_timeout" -> negativeEntries(parseSeconds(option, value));
                    case "direct_io" -> directIo(true);
                    case "kernel_cache" -> keepCache(true);
                    case "auto_cache" -> autoCache(true);
                    case "noauto_cache" -> autoCache(false);
                    case "auto_inval_data" -> autoInvalData(true);
                    case "no_auto_inval_data" -> autoInvalData(false);
                    default -> throw new AssertionError(name);
                }
            } catch (IllegalArgumentException e) {
                throw e.getMessage().startsWith("-o ") ? e : new IllegalArgumentException("-o " + option + ": " + e.getMessage(), e);
            }
            return this;
        }

        private static double parseSeconds(String option, String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-o " + option + ": " + value + " is not a number of seconds");
            }
        }

        private static double seconds(String what, double seconds) {
            if (!(seconds >= 0) || seconds == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("a " + what + " is a finite number of seconds >= 0, not " + seconds);
            }
            return seconds;
        }

        /**
         * The settings made so far.
         *
         * @return an immutable {@link KernelSettings}; this builder may go on being used
         */
        public KernelSettings build() {
            return new KernelSettings(copy());
        }
    }
}
