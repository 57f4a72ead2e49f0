package dev.fusepanama.examples.mirror;

import static dev.fusepanama.examples.mirror.SourceNodes.EMPTY;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.watch.SourceWatcher;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A mirror of a real directory on the inode API, as libfuse's {@code passthrough_hp} is on the
 * low-level one: one node per source inode, and every operation one system call relative to an
 * {@code O_PATH} descriptor of that inode with one name at most. So a file keeps being itself
 * whatever happens to its names: {@code fstat} of a file unlinked or replaced while open answers
 * from the file (the path API cannot: the kernel asks it by a name that is gone), and a file
 * replaced in the source while open through the mirror is a new node that opens at once. No link
 * in the source is followed: a name is resolved one component at a time by the kernel, and each
 * component here is opened with {@code O_NOFOLLOW}, so the mirror needs no containment of its own.
 *
 * <p><b>Descriptors.</b> A node is known by its file's handle ({@code name_to_handle_at(2)}),
 * which names that file for its filesystem's life, where an inode number is given to the next file
 * as soon as the old one is deleted (ext4 does so at once). It holds its {@code O_PATH} descriptor
 * only while among the {@link Builder#descriptors} most recently used, or while a file or
 * directory of it is open ({@link NodeDescriptors}); an operation on any other opens it again:
 * by its handle ({@code open_by_handle_at(2)}) where the mirror has CAP_DAC_READ_SEARCH, else by
 * the name it was last seen under, below its directory's descriptor, with {@code O_NOFOLLOW}, and
 * only if what opens there has the node's handle. So the mirror serves as many inodes as the
 * kernel caches, whatever its descriptor limit; an operation that still finds no descriptor left
 * fails alone, with EMFILE, which the log says once per burst with the limit and how to raise it
 * ({@link DescriptorLimit}), and the next one works once descriptors are free.
 *
 * <p>What that costs: a node opened again takes one system call by handle, two by name (and as
 * many for each directory above it that has no descriptor either); each unlink, rmdir and rename
 * first reads what loses its name ({@code fstatat}), so that a file losing its last name through
 * the mirror keeps its descriptor while the kernel holds its node (nothing could open it again),
 * and a rename reads its result after, for opening by name; an open file takes two descriptors,
 * its own and its node's. Opened by name, a node whose file was renamed or deleted in the source
 * behind the mirror's back answers ESTALE until the kernel looks it up again; by handle, only one
 * whose file was deleted in the source and is open nowhere does. Where the source's filesystem gives no handles, every
 * node holds its descriptor for its life, as {@code passthrough_hp}'s do: the kernel's inode cache
 * is then what the process's descriptor limit allows.
 *
 * <p>Files created by a caller belong to it when the mirror runs as root. With
 * {@link Builder#passthrough}, the kernel reads and writes open files from the source itself
 * (libfuse 3.17+, CAP_SYS_ADMIN); otherwise the mirror reads and writes them.
 *
 * <p>This class answers the kernel's questions about nodes (lookup, attributes, links' targets,
 * statfs) and hands the rest to one class each: {@link SourceNodes} keeps the nodes and their
 * descriptors, {@link NameChanges} makes, links, removes and renames names, {@link OpenFiles}
 * serves open files and directories, {@link Xattrs} extended attributes.
 */
public final class InodeMirror implements InodeFileSystem, AutoCloseable {
    /** UTIME_NOW and UTIME_OMIT (sys/stat.h). */
    private static final long UTIME_NOW = (1L << 30) - 1;
    private static final long UTIME_OMIT = (1L << 30) - 2;

    /** How a mirror is made: {@link #builder(Path)}. */
    public static final class Builder {
        private final Path source;
        private double timeout;
        private boolean passthrough;
        private int descriptors;
        private SourceWatcher.Mechanism watchAtMost = SourceWatcher.Mechanism.FANOTIFY_FILESYSTEM;
        private int watchLimit = Integer.MAX_VALUE;

        private Builder(Path source) {
            this.source = source;
        }

        /**
         * Seconds the kernel may trust names and attributes (0, the default: the source may
         * change underneath at any time, and each access asks); a mirror whose source only it
         * changes can let the kernel answer walks itself.
         */
        public Builder cacheSeconds(double seconds) {
            if (!(seconds >= 0)) throw new IllegalArgumentException("cacheSeconds must be 0 or more: " + seconds);
            timeout = seconds;
            return this;
        }

        /** Open files' data moves between the kernel and the source without the mirror, where the mount can. */
        public Builder passthrough(boolean on) {
            passthrough = on;
            return this;
        }

        /**
         * How many descriptors of nodes that no open file holds the mirror keeps, the least
         * recently used closed first: by default a quarter of the process's descriptor limit when
         * the mirror is built, at least 16 and at most 16,384. Each spares opening the node again;
         * each also keeps its inode in the source's inode cache.
         */
        public Builder descriptors(int count) {
            if (count < 1) throw new IllegalArgumentException("descriptors must be 1 or more: " + count);
            descriptors = count;
            return this;
        }

        /** The best way {@link InodeMirror#watch} may watch the source (tests run each). */
        Builder watchAtMost(SourceWatcher.Mechanism most) {
            watchAtMost = most;
            return this;
        }

        /** At most this many directories watched at once, as if the kernel's limit were met there (tests). */
        Builder watchLimit(int directories) {
            watchLimit = directories;
            return this;
        }

        /** @throws IOException if the source cannot be opened as a directory */
        public InodeMirror build() throws IOException {
            return new InodeMirror(this);
        }
    }

    public static Builder builder(Path source) {
        return new Builder(source);
    }

    /** A mirror of {@code source} that caches nothing, with passthrough where the mount can. */
    public static InodeMirror of(Path source) throws IOException {
        return builder(source).passthrough(true).build();
    }

    private final Path source;
    private final SourceWatcher.Mechanism watchAtMost;
    private final int watchLimit;
    private final boolean passthrough;
    private final SourceNodes table;
    private final Callers callers = new Callers();
    private final NameChanges names;
    private final OpenFiles open;
    private final Xattrs xattrs;

    private InodeMirror(Builder b) throws IOException {
        this.source = b.source;
        this.watchAtMost = b.watchAtMost;
        this.watchLimit = b.watchLimit;
        this.passthrough = b.passthrough;
        this.table = new SourceNodes(b.source, b.descriptors > 0 ? b.descriptors : DescriptorLimit.defaultKept(),
                Timeouts.NONE.withAttributes(b.timeout).withEntries(b.timeout));
        this.names = new NameChanges(table, callers);
        this.open = new OpenFiles(table, callers, passthrough);
        this.xattrs = new Xattrs(table);
    }

    /**
     * Without kernel passthrough, the mirror clears set-ID bits itself, as a local filesystem
     * does (writes reach the source as the mirror's process, which may keep them, so its own
     * kernel would not): where libfuse (3.17.1+) and the kernel take it, the kernel then stops
     * asking for {@code security.capability} before every write, a round trip each. Not with
     * passthrough: the kernel writes passed-through files itself, the mirror never sees those
     * writes, and under {@code HANDLE_KILLPRIV_V2} the kernel leaves the bits to the filesystem
     * (fs/fuse/dir.c, fuse_setattr), so they would stay.
     */
    private static final KernelSettings PASSED_THROUGH = KernelSettings.builder()
            .want(ConnectionInfo.CAP_FLOCK_LOCKS | ConnectionInfo.CAP_POSIX_ACL | ConnectionInfo.CAP_DONT_MASK)
            .unwant(ConnectionInfo.CAP_SPLICE_READ | ConnectionInfo.CAP_HANDLE_KILLPRIV)
            .build();
    private static final KernelSettings CLEARS_SET_ID = PASSED_THROUGH.toBuilder().handleKillprivV2(true).build();

    /**
     * What the kernel may do for the mirror: set-ID bits cleared by the mirror where the kernel
     * leaves them to it (not with passthrough, above) and by the kernel's rule otherwise (never the
     * older {@code handle_killpriv}, which libfuse 3.14 asks for without telling the kernel);
     * {@code flock} locks and POSIX ACLs are the source's. Requests are read into memory, not
     * spliced ({@code SPLICE_READ}, which libfuse turns on for a filesystem with write_buf): it
     * would read every request through a pipe, which cost the create cycle twice the CPU of
     * passthrough_hp without splice ({@code --suite mirror}).
     */
    @Override
    public KernelSettings kernelSettings() {
        return passthrough ? PASSED_THROUGH : CLEARS_SET_ID;
    }

    /**
     * The options to mount with: the kernel checks permissions ({@code default_permissions}, since
     * the mirror may run as root), files are passed through where the mirror was made to
     * ({@link #kernelSettings} says what else the kernel may do).
     */
    public MountOptions.Builder mountOptions() {
        return MountOptions.builder()
                .fsName("mirror")
                .subtype("mirror")
                .defaultPermissions(true)
                .passthrough(passthrough);
    }

    @Override
    public void init(ConnectionInfo connection) {
        callers.init(connection);
    }

    // ---- nodes -------------------------------------------------------------------------------

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        table.entry(Scratch.worker(), table.node(parent), name, reply);
    }

    /** The mirror's table of source nodes counts the kernel's lookups; the library brings it the forgets. */
    @Override
    public LookupCounter lookups() {
        return table;
    }

    /**
     * Starts telling the kernel, through {@code mount}'s notifications, of the changes other
     * programs make in the source ({@link SourceChanges}), and from then on lets it cache what
     * the watch covers: names and attributes for a day, file data across opens. Call it once the
     * mirror is mounted; the mount's end stops it. Under fanotify the
     * changes of this process are taken for the mirror's own, which the kernel knows of: an
     * application that embeds the mirror and changes the source itself, not through the mount,
     * has that seen only where inotify watches.
     *
     * @throws IOException if the source cannot be watched at all (no inotify instance left)
     */
    public void watch(InodeMount mount) throws IOException {
        synchronized (this) {
            if (table.changes != null) throw new IllegalStateException("already watching");
            table.changes = SourceChanges.start(table, mount, source, watchAtMost, watchLimit);
        }
    }

    /** How the source is watched, or null where it is not (tests). */
    SourceWatcher.Mechanism watching() {
        SourceChanges c = table.changes;
        return c == null ? null : c.mechanism();
    }

    /** The mount has ended: every descriptor still open is closed, the source's last. */
    @Override
    public void destroy() {
        stopWatching();
        open.closeAll();
        table.forgetAll();
        close();
    }

    /** Closes the source's descriptors; for a mirror that was never mounted, or at any time after. */
    @Override
    public void close() {
        stopWatching();
        table.close();
    }

    private synchronized void stopWatching() {
        SourceChanges c = table.changes;
        if (c != null) {
            table.changes = null;
            c.close();
        }
    }

    /** How many source inodes the kernel holds entries of (tests). */
    int nodes() {
        return table.nodes();
    }

    /** How many nodes hold a descriptor now, the root's included (tests). */
    int descriptorsHeld() {
        return table.descriptors.held();
    }

    /** How many descriptors of nodes no open file holds it keeps at most (tests). */
    int descriptorCapacity() {
        return table.descriptors.capacity();
    }

    // ---- attributes -------------------------------------------------------------------------

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        MemorySegment st = reply.attributes().segment();
        int rc;
        if (fh != NO_HANDLE) {
            rc = Libc.fstat((int) fh, st);
        } else {
            SourceNode n = table.node(ino);
            long d = table.descriptor(n);
            if (d < 0) {
                table.fail(reply, (int) -d);
                return;
            }
            rc = Libc.fstatat((int) d, EMPTY, st, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            table.release(n, d);
        }
        if (rc < 0) {
            table.fail(reply, -rc);
        } else {
            SourceNode n = table.nodeOrNull(ino);
            SourceNode.Link l = n == null ? null : n.link;
            reply.send(table.timeouts(l == null ? null : l.parent(), n, reply.attributes()));
        }
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int rc;
        try {
            rc = setattr(request, s, n, (int) d, attributes, toSet, fh);
        } finally {
            table.release(n, d);
        }
        if (rc < 0) {
            table.fail(reply, -rc);
            return;
        }
        getattr(request, ino, fh, reply);
    }

    private static int setattr(Request request, Scratch s, SourceNode n, int nodeFd, Stat attributes, int toSet, long fh) {
        int fd = (int) fh;
        boolean open = fh != NO_HANDLE;
        int rc = 0;
        if ((toSet & SET_MODE) != 0) {
            rc = open ? Libc.fchmod(fd, attributes.mode() & 07777)
                    : n.symlink ? -Errno.EOPNOTSUPP
                    : Libc.fchmodat(Libc.AT_FDCWD, s.procPath(nodeFd), attributes.mode() & 07777, 0);
        }
        if (rc == 0 && (toSet & (SET_UID | SET_GID)) != 0) {
            int uid = (toSet & SET_UID) != 0 ? attributes.uid() : -1;
            int gid = (toSet & SET_GID) != 0 ? attributes.gid() : -1;
            rc = Libc.fchownat(nodeFd, EMPTY, uid, gid, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
        }
        if (rc == 0 && (toSet & SET_SIZE) != 0) {
            rc = open ? Libc.ftruncate(fd, attributes.size())
                    : Libc.truncate(s.procPath(nodeFd), attributes.size());
            if (rc == 0 && (toSet & SET_MODE) == 0) {
                OpenFiles.dropSetId(request, open ? fd : nodeFd, open ? null : s.procPath(nodeFd));
            }
        }
        if (rc == 0 && (toSet & (SET_ATIME | SET_MTIME)) != 0) {
            MemorySegment times = s.small;
            times.set(JAVA_LONG, 0, attributes.atimeSeconds());
            times.set(JAVA_LONG, 8, (toSet & SET_ATIME) == 0 ? UTIME_OMIT
                    : (toSet & SET_ATIME_NOW) != 0 ? UTIME_NOW : attributes.atimeNanos());
            times.set(JAVA_LONG, 16, attributes.mtimeSeconds());
            times.set(JAVA_LONG, 24, (toSet & SET_MTIME) == 0 ? UTIME_OMIT
                    : (toSet & SET_MTIME_NOW) != 0 ? UTIME_NOW : attributes.mtimeNanos());
            rc = open ? Libc.utimensat(Libc.AT_FDCWD, s.procPath(fd), times, 0)
                    : n.symlink ? Libc.utimensat(nodeFd, EMPTY, times, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW)
                    : Libc.utimensat(Libc.AT_FDCWD, s.procPath(nodeFd), times, 0);
        }
        return rc;
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode node = table.node(ino);
        long d = table.descriptor(node);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        long n = Libc.readlinkat((int) d, EMPTY, s.text, Scratch.PATH_MAX);
        table.release(node, d);
        if (n < 0) {
            table.fail(reply, (int) -n);
            return;
        }
        reply.target(s.text.asSlice(0, n).toArray(JAVA_BYTE));
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        Scratch s = Scratch.worker();
        MemorySegment v = s.small;
        SourceNode n = table.node(ino);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int rc = Libc.fstatvfs((int) d, v);
        table.release(n, d);
        if (rc < 0) {
            table.fail(reply, -rc);
            return;
        }
        reply.statvfs().setBlockSize(v.get(JAVA_LONG, 0)).setFragmentSize(v.get(JAVA_LONG, 8))
                .setBlocks(v.get(JAVA_LONG, 16)).setBlocksFree(v.get(JAVA_LONG, 24))
                .setBlocksAvailable(v.get(JAVA_LONG, 32)).setFiles(v.get(JAVA_LONG, 40))
                .setFilesFree(v.get(JAVA_LONG, 48)).setFilesAvailable(v.get(JAVA_LONG, 56))
                .setFsid(v.get(JAVA_LONG, 64)).setFlags(v.get(JAVA_LONG, 72)).setNameMax(v.get(JAVA_LONG, 80));
        reply.send();
    }

    // ---- names in NameChanges ----------------------------------------------------------------

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        names.mknod(request, parent, name, mode, rdev, reply);
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        names.mkdir(request, parent, name, mode, reply);
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        names.symlink(request, parent, name, target, reply);
    }

    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        names.link(request, ino, newParent, newName, reply);
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        names.unlink(request, parent, name, reply);
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        names.rmdir(request, parent, name, reply);
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags,
            EmptyReply reply) throws IOException {
        names.rename(request, parent, name, newParent, newName, flags, reply);
    }

    // ---- open files in OpenFiles -------------------------------------------------------------

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        open.open(request, ino, flags, reply);
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        open.create(request, parent, name, mode, flags, reply);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        open.read(request, ino, fh, size, offset, reply);
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
        open.write(request, ino, fh, data, offset, reply);
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        open.release(request, ino, fh, flags, reply);
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        open.fsync(request, ino, fh, dataOnly, reply);
    }

    @Override
    public void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply) {
        open.fallocate(request, ino, fh, mode, offset, length, reply);
    }

    @Override
    public void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) {
        open.copyFileRange(request, inoIn, fhIn, offsetIn, inoOut, fhOut, offsetOut, length, flags, reply);
    }

    @Override
    public void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) {
        open.lseek(request, ino, fh, offset, whence, reply);
    }

    @Override
    public void flock(Request request, long ino, long fh, int operation, EmptyReply reply) {
        open.flock(request, ino, fh, operation, reply);
    }

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        open.opendir(request, ino, flags, reply);
    }

    /** READDIRPLUS lists entries with their nodes and attributes: no lookup per entry for {@code ls -l} and {@code find}. */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        if (reply.plus()) {
            open.readdirplus(request, ino, fh, size, offset, reply);
        } else {
            open.readdir(request, ino, fh, size, offset, reply);
        }
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        open.releasedir(request, ino, fh, reply);
    }

    @Override
    public void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        open.fsyncdir(request, ino, fh, dataOnly, reply);
    }

    // ---- extended attributes in Xattrs -------------------------------------------------------

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        xattrs.setxattr(request, ino, name, value, flags, reply);
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        xattrs.getxattr(request, ino, name, size, reply);
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        xattrs.listxattr(request, ino, size, reply);
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        xattrs.removexattr(request, ino, name, reply);
    }
}
