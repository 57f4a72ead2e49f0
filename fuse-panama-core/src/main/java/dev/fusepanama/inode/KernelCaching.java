package dev.fusepanama.inode;

import java.util.ArrayList;
import java.util.List;

/**
 * What the kernel may answer for an {@link InodeFileSystem} by itself, beyond the names and
 * attributes each reply lets it cache for its timeouts. Each lever is a promise the filesystem
 * makes about its own behaviour, so the filesystem states them ({@link InodeFileSystem#kernelCaching}).
 * A lever the libfuse or kernel in use cannot give is left off, never failing the mount:
 * {@link dev.fusepanama.Mount#describe()} lists what the mount got and why not the rest.
 *
 * <p>The measurements behind them are memfs's, unpacking and walking a tar of /usr/include on
 * this project's bench machine (fuse-panama-bench {@code --suite memfs}); counts are FUSE requests
 * per tar entry or per directory, read from the kernel's {@code fuse:fuse_request_send} tracepoint.
 *
 * <ul>
 *   <li>{@link Builder#noOpendir}: no OPENDIR and RELEASEDIR at all, two round trips per directory
 *       walked (a {@code find} of 830 directories: 1,660 requests).
 *   <li>{@link Builder#keepListings}: a directory's listing stays in the kernel's page cache across
 *       opens, so a second walk reads no directory at all.
 *   <li>{@link Builder#negativeEntries}: a name that does not exist is remembered ({@code git
 *       status} looks up a {@code .gitignore} in every directory, each a LOOKUP otherwise).
 *   <li>{@link Builder#explicitDataInvalidation}: the kernel keeps a file's pages when its size
 *       changes in an attribute reply; the filesystem drops them with {@link InodeMount#invalidateInode}.
 *   <li>{@link Builder#handleKillprivV2}: the filesystem clears set-ID bits itself, which lets the
 *       kernel stop asking for {@code security.capability} before each write (3 GETXATTR per tar
 *       entry otherwise, a fifth of all its requests).
 *   <li>{@link Builder#writebackCache}: the kernel gathers writes in its page cache and sends them
 *       as whole pages, up to 1 MiB a request, when it flushes them (100 MiB written 10 KiB at a
 *       time: 10,240 WRITEs otherwise).
 * </ul>
 *
 * <p>A filesystem without {@code flush} already gets no FLUSH: the kernel stops sending it after the
 * first ENOSYS. Whoever opens files that cannot have been written through ({@code O_RDONLY}) can
 * spare the FLUSH of each close with {@link OpenReply#NO_FLUSH}.
 */
public final class KernelCaching {
    /** Nothing beyond the timeouts of each reply: libfuse's defaults. */
    public static final KernelCaching NONE = builder().build();

    private final boolean noOpendir;
    private final boolean keepListings;
    private final double negativeTimeout;
    private final boolean explicitDataInvalidation;
    private final boolean handleKillprivV2;
    private final boolean writebackCache;

    private KernelCaching(Builder b) {
        this.noOpendir = b.noOpendir;
        this.keepListings = b.keepListings || b.noOpendir;
        this.negativeTimeout = b.negativeTimeout;
        this.explicitDataInvalidation = b.explicitDataInvalidation;
        this.handleKillprivV2 = b.handleKillprivV2;
        this.writebackCache = b.writebackCache;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** See {@link Builder#noOpendir}. */
    public boolean noOpendir() { return noOpendir; }

    /** See {@link Builder#keepListings}; implied by {@link #noOpendir}. */
    public boolean keepListings() { return keepListings; }

    /** Seconds a name found absent is remembered, 0 for not at all ({@link Builder#negativeEntries}). */
    public double negativeTimeout() { return negativeTimeout; }

    /** See {@link Builder#explicitDataInvalidation}. */
    public boolean explicitDataInvalidation() { return explicitDataInvalidation; }

    /** See {@link Builder#handleKillprivV2}. */
    public boolean handleKillprivV2() { return handleKillprivV2; }

    /** See {@link Builder#writebackCache}. */
    public boolean writebackCache() { return writebackCache; }

    /** The levers asked for, by name, for messages. */
    public List<String> names() {
        List<String> n = new ArrayList<>();
        if (noOpendir) n.add("noOpendir");
        if (keepListings) n.add("keepListings");
        if (negativeTimeout > 0) n.add("negativeEntries");
        if (explicitDataInvalidation) n.add("explicitDataInvalidation");
        if (handleKillprivV2) n.add("handleKillprivV2");
        if (writebackCache) n.add("writebackCache");
        return n;
    }

    @Override
    public String toString() {
        return "KernelCaching" + names();
    }

    public static final class Builder {
        private boolean noOpendir;
        private boolean keepListings;
        private double negativeTimeout;
        private boolean explicitDataInvalidation;
        private boolean handleKillprivV2;
        private boolean writebackCache;

        private Builder() {}

        /**
         * Directories are opened and closed without a request (the kernel's {@code no_opendir},
         * Linux 5.1+): the library answers the first OPENDIR with ENOSYS and the kernel sends no
         * OPENDIR or RELEASEDIR again. {@code readdir} and {@code readdirplus} then get {@code fh}
         * 0, so a listing must resume from its offset alone; a filesystem that overrides
         * {@code opendir} or {@code releasedir} is refused at mount. Implies {@link #keepListings}
         * (the kernel's default for such directories). On a kernel without it, the library
         * answers each OPENDIR itself, with {@code fh} 0 and the listing kept. What {@link
         * #keepListings} says of changing directories holds here too.
         */
        public Builder noOpendir(boolean on) {
            noOpendir = on;
            return this;
        }

        /**
         * Every opendir answer keeps the kernel's cached listing ({@link OpenReply#CACHE_DIR} with
         * {@link OpenReply#KEEP_CACHE}: with CACHE_DIR alone, each open drops what the last one
         * cached). The kernel drops the listing itself when the directory changes through the
         * mount; a change behind the mount needs {@link InodeMount#invalidateInode} of the directory.
         *
         * <p>Only for directories that do not change while they are listed: the kernel ends a
         * listing early when the offset it resumes from is not in its cached listing and that
         * listing fills a whole number of pages (fs/fuse/readdir.c, {@code fuse_readdir_cached},
         * through Linux 6.18), which a listing that began before a change can meet (its last
         * entry unlinked since); names nobody touched are then missing from it. memfs lost 98 of
         * 300 that way ({@code dev.fusepanama.testkit.ListingRace}).
         */
        public Builder keepListings(boolean on) {
            keepListings = on;
            return this;
        }

        /**
         * A lookup answered ENOENT (by {@link Reply#error}, {@link EntryReply#noEntry}'s absence
         * or a thrown {@code ErrnoException}/{@code NoSuchFileException}) is sent as a negative
         * entry the kernel remembers for {@code seconds}: the next lookup of the name asks nothing.
         * Creating the name through the mount replaces it at once; a name made behind the mount
         * needs {@link InodeMount#invalidateEntry}. 0 turns it off.
         */
        public Builder negativeEntries(double seconds) {
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("a negative entry timeout is a finite number of seconds >= 0, not " + seconds);
            }
            negativeTimeout = seconds;
            return this;
        }

        /**
         * The kernel drops a file's cached pages only when told ({@code FUSE_CAP_EXPLICIT_INVAL_DATA},
         * Linux 5.2+): a new size in an attribute reply drops only the pages past the new end,
         * where otherwise it drops them all (and with {@code auto_inval_data}, which
         * {@link dev.fusepanama.MountOptions} leaves off unless asked, a new mtime does too;
         * this lever turns it off). For a filesystem that is its data's only writer, or that calls
         * {@link InodeMount#invalidateInode} for every change behind the mount.
         */
        public Builder explicitDataInvalidation(boolean on) {
            explicitDataInvalidation = on;
            return this;
        }

        /**
         * The filesystem clears set-user-ID and set-group-ID bits itself, as a local filesystem
         * does ({@code FUSE_CAP_HANDLE_KILLPRIV_V2}: libfuse 3.17.1+, Linux 5.11+). In exchange the
         * kernel marks files without set-ID bits as needing no check, and stops sending a GETXATTR
         * of {@code security.capability} before each write. The filesystem must then clear
         * {@code S_ISUID}, and {@code S_ISGID} if the file is group-executable or the caller is not
         * in its group (Linux 6.2+), when a caller without CAP_FSETID ({@link Request#mayKeepSetId}) writes, truncates (setattr of the size,
         * or an open with {@code O_TRUNC}), allocates or copies into the file; and on a chown of a
         * file that is not a directory, clear {@code S_ISUID} always and {@code S_ISGID} as for a write. The kernel marks such a setattr with
         * {@code FUSE_SET_ATTR_KILL_SUID} in {@code toSet} (bit 11: its {@code FATTR_KILL_SUIDGID}),
         * but libfuse passes on neither its per-write flag nor its open flag, so decide from the
         * file's mode and the caller. Where libfuse or the kernel lacks the capability, the kernel
         * keeps asking and clears the bits itself, with a GETATTR and a SETATTR of the mode
         * (libfuse 3.14 asks for the older {@code HANDLE_KILLPRIV} but never tells the kernel):
         * a filesystem that follows the rules is right either way.
         */
        public Builder handleKillprivV2(boolean on) {
            handleKillprivV2 = on;
            return this;
        }

        /**
         * The kernel keeps written data in its page cache and sends it later as whole pages
         * ({@code FUSE_CAP_WRITEBACK_CACHE}, Linux 3.15+): {@code write(2)} returns without a
         * request, and the data comes in WRITEs of up to 1 MiB ({@link Request#fromPageCache})
         * when the kernel flushes it: in the background, on {@code fsync}, and on every close.
         * Not with {@link dev.fusepanama.MountOptions.Builder#passthrough}, which the kernel
         * refuses beside it. The kernel then owns what a write changes, and the filesystem
         * promises to:
         * <ul>
         *   <li>be its files' only writer: the kernel keeps the size, mtime and ctime of a regular
         *       file it has cached and ignores those in attribute replies, also after
         *       {@link InodeMount#invalidateInode} (which writes the dirty pages and drops them),
         *       so a change made behind the mount is not seen while the kernel holds the inode;
         *   <li>take the size, mtime and ctime from {@code setattr} (the kernel sends its times
         *       when it flushes, with {@code SET_MTIME} and {@code SET_CTIME}), and leave the times
         *       and set-ID bits alone on a write {@linkplain Request#fromPageCache from the page
         *       cache}: the kernel has moved them already;
         *   <li>write each WRITE at its offset: the kernel applies {@code O_APPEND}, which still
         *       arrives among the open flags; and serve reads on files opened write-only, which the
         *       kernel sends to fill a page a write covers in part.
         * </ul>
         * Errors change place, and a refused WRITE is data lost: the {@code write(2)} was
         * answered without asking the filesystem, so a WRITE refused later (ENOSPC from a full
         * store, EIO) is reported only by the next {@code fsync} of each descriptor, and by a
         * {@code close} unless an fsync or close of the file reported it before (the kernel keeps
         * one error per file, as for NFS); the data is gone, and the kernel's cached size still
         * counts it. No reserve prevents it: a writer that opened the file while there was room
         * can go on writing through the cache without bound. So take this only for a store that
         * cannot refuse what fits in memory (none of this project's filesystems takes it: memfs
         * has a capacity, the mirror, the vault and the NIO adapter a disk that can fill). A WRITE
         * from the page cache should be taken whole or refused, since the kernel takes a short
         * count for success and the rest is lost without a word. And the kernel forwards {@code lseek}'s SEEK_DATA and
         * SEEK_HOLE without flushing first, so the filesystem cannot tell a hole from data the
         * kernel still holds: answering ENOSYS lets the kernel answer from its own size, a file
         * without holes.
         */
        public Builder writebackCache(boolean on) {
            writebackCache = on;
            return this;
        }

        public KernelCaching build() {
            return new KernelCaching(this);
        }
    }
}
