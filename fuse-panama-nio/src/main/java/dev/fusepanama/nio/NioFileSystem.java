package dev.fusepanama.nio;

import static dev.fusepanama.nio.NioErrors.call;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Fuse;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
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
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.inode.table.Node;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.WatchService;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A directory of any {@code java.nio.file} filesystem, served as a FUSE filesystem: the default
 * one, a zip archive ({@code jdk.zipfs}), jimfs, a Cryptomator vault (cryptofs), an SFTP or cloud
 * provider. Built on the inode API and the library's node table, which remembers the files the
 * kernel holds (by the provider's {@code fileKey} where it has one, so hard links are one file).
 *
 * <pre>{@code
 * try (InodeMount m = NioFileSystem.of(zipFs.getPath("/")).mount(Path.of("/mnt/zip"))) {
 *     ...   // every program on the machine sees the archive at /mnt/zip
 * }
 * }</pre>
 *
 * <p><b>What it serves.</b> Attributes through the richest view the provider has (see
 * {@link Attributes}); one {@link FileChannel} per open file, read and written at the kernel's
 * offsets; truncate, fsync ({@code force}); directories, listed with their attributes
 * (readdirplus); symbolic and hard links where the provider has them; rename with POSIX's
 * replacing semantics ({@code ATOMIC_MOVE}) or RENAME_NOREPLACE; extended attributes in the
 * {@code user.} namespace through {@code UserDefinedFileAttributeView}; chmod and chown through the
 * {@code unix} view (or {@code posix} permissions, or the {@code dos} view's {@code readonly}
 * attribute as vfat sets it: {@link DosMode}), utimens; statfs from the {@code FileStore}.
 * File locks are the kernel's, which keeps them for every process on the machine. The kernel
 * checks permissions from the modes ({@code default_permissions}). As root, a file another user
 * creates is given to them where the provider can (the {@code unix} view).
 *
 * <p><b>What a provider cannot do</b> is answered as a kernel filesystem without the feature
 * answers: EOPNOTSUPP for extended attributes without a user view (the kernel's own answer once told
 * ENOSYS, so it stops asking), EPERM for mknod of anything but
 * a regular file and for chmod/chown without a view that takes them, EINVAL for
 * RENAME_EXCHANGE, EILSEQ for a new name that is not UTF-8 (a {@code java.nio.file.Path} holds
 * text, not bytes). Errors map to the errno a kernel filesystem gives ({@link NioErrors}).
 *
 * <p><b>Caching.</b> Names, misses and attributes are trusted for their {@link NioOptions} timeouts (1 s unless set),
 * file data stays cached while the file's size and modification time are what the kernel last
 * saw (see the module's README). Changes made through the mount are seen at once; changes
 * made to the NIO filesystem behind it are seen within that time, or at once after
 * {@link #invalidate(Path)}, or as soon as the provider reports them with
 * {@link #watchChanges()}.
 */
public final class NioFileSystem implements InodeFileSystem {
    /**
     * A node of the table: its path, computed from its names and cached until a name changes
     * anywhere, and the attributes last read, which a file removed while open still answers with.
     */
    static final class NioNode extends Node {
        Path path;
        long pathStamp = -1;
        volatile Attributes last;
        /**
         * A channel open on it (the latest), whose size is the file's while open; null when none
         * is. Used only under the node, as another handle's release may close it (see OpenFiles#openSize).
         */
        volatile FileChannel channel;
        /** Every channel open on it, oldest first; guarded by the node, which opens and closes hold. */
        final ArrayDeque<FileChannel> channels = new ArrayDeque<>(1);
        /** When it last changed through the mount, for providers that keep no ctime; null if never. */
        volatile FileTime changed;
        /**
         * Its permission bits as a posix view last gave them, when (System.nanoTime; 0: not known),
         * and how often a chmod or an invalidation made them unknown; guarded by the node.
         */
        int bits;
        long bitsRead;
        int bitsEpoch;
        /** A directory's watcher while it watches it ({@link #watchChanges}); null if none. Set by the watcher. */
        volatile NioWatcher watcher;

        NioNode(int type) {
            super(type);
        }

        /** The kernel no longer knows it: a directory is no longer watched. */
        @Override
        protected void forgotten() {
            NioWatcher w;
            synchronized (this) { // a watch() registering it now has set its watcher by then
                w = watcher;
            }
            if (w != null) w.unwatch(this);
        }
    }

    final Path root;
    final Attributes.View view;
    /**
     * Whether the provider's {@code fileKey} tells which names are one file (hard links, a
     * directory moved behind the mount): where it counts links (the {@code unix} view). Others
     * have no hard links, and their keys may be a store's inode numbers given again to new files
     * (cryptofs's are its ciphertext files'), so each name is its own node there.
     */
    private final boolean identities;
    /** Whether this is the default provider's filesystem, whose calls are the kernel's own. */
    final boolean defaultProvider;
    /** Whether the provider's owner numbers are this machine's users (the default provider's are). */
    final boolean realOwners;
    final NodeTable<NioNode> table;
    final NioOptions options;
    /** Seconds the kernel keeps a miss ({@link NioOptions#negativeTimeout}). */
    private final double negativeTimeout;
    final Timeouts timeouts;
    final int owner = Libc.geteuid();
    final int group = Libc.getegid();
    /** Handles of open files and directories alike, as the kernel numbers neither apart. */
    final AtomicLong handles = new AtomicLong(1);
    private volatile InodeMount mount;
    /** Guards {@link #watch}, {@link #live} and the start and end of a {@link #watcher}. */
    private final Object watchLock = new Object();
    /** Whether changes behind the mount are watched ({@link #watchChanges}). */
    private boolean watch;
    /** Whether a session runs: between init and destroy. */
    private boolean live;
    /** The watcher of the session that runs, if changes are watched; else null. */
    private volatile NioWatcher watcher;
    /** The parts it delegates to, each with its own file: see their class comments. */
    final NodeAttributes attrs;
    final OpenFiles openFiles;
    private final Listings listings;
    private final Renames renames;
    private final UserXattrs xattrs;

    private NioFileSystem(Path root, NioOptions options) throws IOException {
        if (!Files.isDirectory(root)) throw new NotDirectoryException(root.toString());
        this.root = root;
        this.view = Attributes.viewOf(root.getFileSystem());
        this.defaultProvider = root.getFileSystem() == FileSystems.getDefault();
        this.identities = view == Attributes.View.UNIX;
        this.realOwners = defaultProvider && view == Attributes.View.UNIX;
        this.table = NodeTable.caching(new NioNode(Posix.S_IFDIR));
        this.options = options;
        this.negativeTimeout = seconds(options.negativeTimeout());
        this.timeouts = Timeouts.NONE.withAttributes(seconds(options.attributeTimeout())).withEntries(seconds(options.entryTimeout()));
        this.attrs = new NodeAttributes(this);
        this.openFiles = new OpenFiles(this);
        this.listings = new Listings(this);
        this.renames = new Renames(this);
        this.xattrs = new UserXattrs(this);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /**
     * Serves the directory {@code root} of its NIO filesystem, trusting names and attributes for a second.
     *
     * @param root the directory to serve, of any provider; the mount shows what is under it
     * @return the filesystem, to mount
     * @throws IOException if {@code root} is not a directory, or not one that can be reached
     *     ({@link java.nio.file.NotDirectoryException})
     */
    public static NioFileSystem of(Path root) throws IOException {
        return of(root, Duration.ofSeconds(1));
    }

    /**
     * Serves {@code root}, trusting names, misses and attributes for {@code cacheTimeout}.
     *
     * @param root the directory to serve, of any provider
     * @param cacheTimeout how long the kernel trusts what it was told; 0 to ask the provider every time
     * @return the filesystem, to mount
     * @throws IOException if {@code root} is not a directory, or not one that can be reached
     * @throws IllegalArgumentException if {@code cacheTimeout} is negative
     */
    public static NioFileSystem of(Path root, Duration cacheTimeout) throws IOException {
        return of(root, NioOptions.builder().cacheTimeout(cacheTimeout).build());
    }

    /**
     * Serves {@code root} with the timeouts, and any owner and mode shown, of {@code options}.
     *
     * @param root the directory to serve, of any provider
     * @param options how the files are presented
     * @return the filesystem, to mount
     * @throws IOException if {@code root} is not a directory, or not one that can be reached
     */
    public static NioFileSystem of(Path root, NioOptions options) throws IOException {
        return new NioFileSystem(root, options);
    }

    /** {@return how long the kernel trusts attributes it was given}: {@link NioOptions#attributeTimeout()}. */
    public Duration cacheTimeout() {
        return options.attributeTimeout();
    }

    /** {@return the timeouts, and any owner and mode shown, this filesystem serves with} */
    public NioOptions options() {
        return options;
    }

    /**
     * The options this filesystem is meant to be mounted with: the kernel checks permissions from
     * the modes and drops cached data when a file's size or time changed; read-only where the NIO
     * filesystem is; the provider's scheme as the source in the mount table, subtype {@code nio}.
     *
     * @return a builder with these set, to add to and build
     */
    public MountOptions.Builder mountOptions() {
        return MountOptions.builder().defaultPermissions(true).readOnly(root.getFileSystem().isReadOnly())
                .fsName(root.getFileSystem().provider().getScheme()).subtype("nio");
    }

    /**
     * Mounts at {@code mountpoint} with {@link #mountOptions}.
     *
     * @param mountpoint an existing empty directory
     * @return the mount, which {@link #invalidate} and {@link #watchChanges} use from then on
     * @throws MountException saying what is wrong and how to fix it
     */
    public InodeMount mount(Path mountpoint) throws MountException {
        return mount(mountpoint, mountOptions().build());
    }

    /**
     * Mounts at {@code mountpoint} with {@code options}, which should start from {@link #mountOptions}.
     * The filesystem keeps the mount, for {@link #invalidate} and {@link #watchChanges}: mount each
     * instance once at a time.
     *
     * @param mountpoint an existing empty directory
     * @param options the mount's options
     * @return the mount
     * @throws MountException saying what is wrong and how to fix it
     */
    public InodeMount mount(Path mountpoint, MountOptions options) throws MountException {
        InodeMount m = Fuse.mount(this, mountpoint, options);
        mount = m;
        return m;
    }

    /**
     * {@code path} changed behind the mount: the kernel drops its cached name and, for a file it
     * knows, its attributes and data, so the next access asks again. Does nothing before mounting,
     * for the root, or for a path the kernel never saw.
     *
     * @param path a path of the served filesystem, under the root
     * @throws IOException if the kernel refused the notification (its errno in the message)
     * @throws IllegalArgumentException if {@code path} is not of the served filesystem
     * @throws IllegalStateException if the mount has ended, or when called from inside one of its operations
     */
    public void invalidate(Path path) throws IOException {
        InodeMount m = mount;
        Path relative = root.relativize(path);
        if (m == null || relative.toString().isEmpty()) return;
        NioNode dir = table.root();
        for (int i = 0; i < relative.getNameCount() - 1 && dir != null; i++) {
            dir = table.child(dir, key(relative.getName(i).toString()));
        }
        if (dir == null) return;
        invalidate(m, dir, relative.getFileName().toString());
    }

    private void invalidate(InodeMount m, NioNode dir, String name) throws IOException {
        NioNode n = table.child(dir, key(name));
        m.invalidateEntry(dir.nodeId(), name.getBytes(StandardCharsets.UTF_8));
        if (n != null) {
            NodeAttributes.bitsChanged(n);
            m.invalidateInode(n.nodeId(), 0, 0);
        }
    }

    /**
     * Watches the NIO filesystem for changes made behind the mount, through its provider's
     * {@link java.nio.file.WatchService}, and tells the kernel of each as {@link #invalidate}
     * does, so they are seen at once rather than when the cache timeout runs out. Every directory
     * the kernel knows is watched (from the root on, as it learns them), until it forgets it; a
     * name created, removed or modified in one is invalidated; when the service lost events
     * (OVERFLOW), every name and file the kernel holds is. One daemon thread per mount takes the
     * events; it ends with the session (unmount), and starts again with the next mount.
     *
     * <p>Call it before or after mounting with {@link #mount}; the notifications need that
     * mount, as {@link #invalidate} does. Events come when the provider sees the change: at once
     * from the default provider on Linux (inotify), within its polling interval from others
     * (jimfs: 5 s by default). A miss the kernel cached before events were lost is still kept
     * for the cache timeout. Changes made through the mount come back as events too, and cost the
     * kernel what it cached of the files just changed. A directory the provider cannot watch
     * (inotify's {@code max_user_watches} used up) is logged, once as a warning, and its changes
     * are seen as without watching.
     *
     * @return true if the provider has a watch service; false if it has none
     *         ({@code newWatchService} throws UnsupportedOperationException: jdk.zipfs), and
     *         changes behind the mount are seen as without watching
     * @throws IOException if the provider has one but cannot open it (e.g. the user's inotify
     *         instances are used up); a mount made later fails the same way
     */
    public boolean watchChanges() throws IOException {
        synchronized (watchLock) {
            if (watch) return true;
            try (WatchService probe = root.getFileSystem().newWatchService()) {
                // only asks: each session opens its own, closed with it
            } catch (UnsupportedOperationException none) {
                return false;
            }
            if (live) startWatching();
            watch = true;
            return true;
        }
    }

    /** Starts this session's watcher, over the directories the kernel knows already. Under the watch lock. */
    private void startWatching() throws IOException {
        NioWatcher w = NioWatcher.start(this, root);
        watcher = w; // first: a directory learnt from now on is watched by remember
        for (NioNode n : table.nodes()) {
            if (n.isDirectory()) watch(w, n);
        }
    }

    /** {@code dir} is known to the kernel now: watched by {@code w}, unless it has no name left. */
    private void watch(NioWatcher w, NioNode dir) {
        try {
            w.watch(dir, path(dir));
        } catch (ErrnoException removed) {
            // nothing to watch: the kernel learns of its removal from its parent's watch
        }
    }

    /**
     * The adapter clears set-ID bits itself ({@link NodeAttributes#dataChanged}; a view without
     * them has none to clear), so the kernel may stop asking for {@code security.capability}
     * before each write (libfuse 3.17.1+). Misses are cached as names are, by each lookup's own
     * reply. The files can change behind the mount (another program on the NIO filesystem), so
     * the kernel checks a file's attributes before reading its cached data ({@code autoInvalData}).
     */
    private static final KernelSettings CACHING = KernelSettings.builder().handleKillprivV2(true).autoInvalData(true).build();

    @Override
    public KernelSettings kernelSettings() {
        return CACHING;
    }

    /** The watcher saw {@code name} in {@code dir} change. */
    void changed(NioNode dir, String name) throws IOException {
        InodeMount m = mount;
        if (m != null) invalidate(m, dir, name);
    }

    /** The watcher lost events: every name and file the kernel holds may have changed. */
    void changedAll() throws IOException {
        InodeMount m = mount;
        if (m == null) return;
        for (NioNode n : table.nodes()) {
            for (Node.Link l : table.names(n)) {
                m.invalidateEntry(l.parent().nodeId(), l.name().getBytes(StandardCharsets.ISO_8859_1));
            }
            NodeAttributes.bitsChanged(n);
            m.invalidateInode(n.nodeId(), 0, 0);
        }
    }

    // ---- names and paths ----------------------------------------------------------------------

    static String key(String name) {
        return NodeTable.key(name.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code name} as the text a Path holds; null if its bytes are not UTF-8. */
    static String text(Name name) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(name.bytes())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** A new name's text, or EILSEQ: a Path cannot hold bytes that are not UTF-8. */
    static String newName(Name name) throws ErrnoException {
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String s = text(name);
        if (s == null) throw new ErrnoException(Errno.EILSEQ);
        return s;
    }

    NioNode node(long ino) throws ErrnoException {
        NioNode n = table.find(ino);
        if (n == null) throw new ErrnoException(Errno.ESTALE);
        return n;
    }

    /** The path of {@code n}; ESTALE once it has no name left (removed while open). */
    Path path(NioNode n) throws ErrnoException {
        if (n == table.root()) return root;
        long stamp = table.nameChanges();
        synchronized (n) {
            if (n.pathStamp == stamp) return n.path;
        }
        Node.Link link = table.name(n);
        if (link == null) throw new ErrnoException(Errno.ESTALE);
        String name = new String(link.name().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        Path p = path((NioNode) link.parent()).resolve(name);
        synchronized (n) {
            n.path = p;
            n.pathStamp = stamp;
        }
        return p;
    }

    Path child(NioNode dir, String name) throws ErrnoException {
        return path(dir).resolve(name);
    }

    NioNode remember(NioNode dir, String name, Attributes a) {
        NioNode n = table.remember(dir, key(name), identities ? a.fileKey() : null, a.type(), a.nlink(), () -> newNode(a));
        NioWatcher w = watcher;
        if (w != null && n.isDirectory() && n.watcher != w) watch(w, n);
        n.last = a;
        return n;
    }

    /** A node for a name the table did not have, whose attributes {@code a} were read in full. */
    private NioNode newNode(Attributes a) {
        NioNode n = new NioNode(a.type());
        if (view == Attributes.View.POSIX) {
            n.bits = a.mode() & 07777;
            n.bitsRead = System.nanoTime();
        }
        return n;
    }

    private void entry(NioNode dir, String name, Path p, EntryReply reply) throws IOException {
        entry(dir, name, attrs.attributes(p), reply);
    }

    private void entry(NioNode dir, String name, Attributes a, EntryReply reply) {
        NioNode n = remember(dir, name, a);
        attrs.fill(n, a, reply.attributes());
        reply.entry(n, timeouts); // the library counts the lookup: the table is this filesystem's lookups()
    }

    // ---- lookups and attributes ---------------------------------------------------------------

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String s = text(name);
        if (s == null) throw new ErrnoException(Errno.ENOENT); // no Path can name it
        NioNode dir = node(parent);
        Attributes a;
        try {
            a = attrs.attributes(child(dir, s), table.child(dir, key(s)));
        } catch (ErrnoException e) {
            if (e.errno() != Errno.ENOENT || negativeTimeout == 0) throw e;
            reply.noEntry(negativeTimeout); // the kernel keeps the miss as long as a name (tar, git look up names they then create)
            return;
        }
        entry(dir, s, a, reply);
    }

    /** The node table counts the kernel's lookups; this filesystem answers with its nodes and never sees a forget. */
    @Override
    public LookupCounter lookups() {
        return table;
    }

    /** A session starts: the watcher too, if changes are watched. */
    @Override
    public void init(ConnectionInfo connection) throws IOException {
        openFiles.keepData = connection.wants(ConnectionInfo.CAP_AUTO_INVAL_DATA);
        synchronized (watchLock) {
            live = true;
            if (watch) startWatching();
        }
    }

    @Override
    public void destroy() {
        synchronized (watchLock) {
            live = false;
            NioWatcher w = watcher;
            watcher = null;
            if (w != null) w.stop();
        }
        openFiles.closeAll(); // the library then ends the table's session (lookups())
        mount = null;
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        attrs.getattr(request, ino, fh, reply);
    }

    @Override
    public void setattr(Request request, long ino, Stat in, int toSet, long fh, AttrReply reply) throws IOException {
        attrs.setattr(request, ino, in, toSet, fh, reply);
    }

    // ---- namespace ----------------------------------------------------------------------------

    /**
     * Runs {@code c}; a provider without the feature (UnsupportedOperationException) is EPERM, as
     * link(2) and symlink(2) answer on a filesystem without hard or symbolic links.
     */
    private static <T> T orEperm(NioErrors.Call<T> c) throws IOException {
        return call(() -> {
            try {
                return c.run();
            } catch (UnsupportedOperationException notHere) {
                throw new ErrnoException(Errno.EPERM);
            }
        });
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        Path target = call(() -> Files.readSymbolicLink(path(node(ino))));
        reply.target(target.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        String s = newName(name);
        if ((mode & Posix.S_IFMT) != Posix.S_IFREG) throw new ErrnoException(Errno.EPERM); // no NIO call makes a FIFO or device
        NioNode dir = node(parent);
        Path p = child(dir, s);
        call(() -> Files.createFile(p));
        entry(dir, s, attrs.settle(request, p, mode), reply);
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        NioNode dir = node(parent);
        String s = newName(name);
        Path p = child(dir, s);
        call(() -> Files.createDirectory(p));
        entry(dir, s, attrs.settle(request, p, mode), reply);
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        NioNode dir = node(parent);
        String s = newName(name);
        Path p = child(dir, s);
        String t = new String(target, StandardCharsets.UTF_8);
        orEperm(() -> Files.createSymbolicLink(p, root.getFileSystem().getPath(t)));
        if (owner == 0 && realOwners) {
            int gid = view == Attributes.View.UNIX && attrs.setGroupId(p.getParent()) ? -1 : request.gid(); // -1: the directory's, as given
            if (request.uid() != 0 || (gid != 0 && gid != -1)) attrs.setOwner(p, request.uid(), gid);
        }
        entry(dir, s, p, reply);
    }

    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        NioNode n = node(ino);
        // Files.createLink may link a symbolic link's target instead (the spec leaves it to the
        // provider); only the default provider's link(2) is known to link the link itself.
        if (n.type() == Posix.S_IFLNK && !realOwners) throw new ErrnoException(Errno.EPERM);
        NioNode dir = node(newParent);
        String s = newName(newName);
        Path p = child(dir, s);
        Path existing = path(n);
        orEperm(() -> Files.createLink(p, existing));
        attrs.changed(n);
        entry(dir, s, p, reply);
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        remove(parent, name, false);
        reply.ok();
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        remove(parent, name, true);
        reply.ok();
    }

    /** unlink or rmdir: Files.delete removes either, so the type is checked first (EISDIR, ENOTDIR). */
    private void remove(long parent, Name name, boolean directory) throws IOException {
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String s = text(name);
        if (s == null) throw new ErrnoException(Errno.ENOENT);
        NioNode dir = node(parent);
        Path p = child(dir, s);
        Attributes a = attrs.attributes(p);
        if (directory && a.type() != Posix.S_IFDIR) throw new ErrnoException(Errno.ENOTDIR);
        if (!directory && a.type() == Posix.S_IFDIR) throw new ErrnoException(Errno.EISDIR);
        // rmdir(2) refuses a directory with entries before touching it; a provider may not:
        // cryptofs 2.9 first makes it group-writable (0770) and deletes its directory-id backup.
        if (directory && !defaultProvider) checkEmpty(p);
        call(() -> {
            Files.delete(p);
            return null;
        });
        attrs.changed(table.forgetName(dir, key(s)));
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws IOException {
        renames.rename(request, parent, name, newParent, newName, flags, reply);
    }

    /** ENOTEMPTY unless the directory {@code dir} has no entries. */
    static void checkEmpty(Path dir) throws IOException {
        boolean empty = call(() -> {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                return !entries.iterator().hasNext();
            }
        });
        if (!empty) throw new ErrnoException(Errno.ENOTEMPTY);
    }

    // ---- files: see OpenFiles -----------------------------------------------------------------

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        openFiles.open(request, ino, flags, reply);
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        openFiles.create(request, parent, name, mode, flags, reply);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        openFiles.read(request, ino, fh, size, offset, reply);
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        openFiles.write(request, ino, fh, data, offset, reply);
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        openFiles.fsync(request, ino, fh, dataOnly, reply);
    }

    @Override
    public void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        openFiles.flush(request, ino, fh, lockOwner, reply);
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        openFiles.release(request, ino, fh, flags, reply);
    }

    // ---- directories: see Listings ------------------------------------------------------------

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        listings.opendir(request, ino, flags, reply);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        if (reply.plus()) {
            listings.readdirplus(request, ino, fh, size, offset, reply); // each entry with its node and attributes
        } else {
            listings.readdir(request, ino, fh, size, offset, reply);
        }
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        listings.releasedir(request, ino, fh, reply);
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        FileStore store = call(() -> Files.getFileStore(root));
        long blockSize;
        try {
            blockSize = store.getBlockSize();
        } catch (UnsupportedOperationException | IOException e) {
            blockSize = 4096;
        }
        long bs = blockSize;
        long total = call(store::getTotalSpace) / bs;
        long free = call(store::getUnallocatedSpace) / bs;
        long avail = call(store::getUsableSpace) / bs;
        // A store kept in a file of another filesystem (jdk.zipfs) counts that file's size as its
        // total and the other filesystem's free space as its own: df would show negative use. As
        // on a kernel filesystem, the total holds the free space.
        if (free > total || avail > total) total += Math.max(free, avail);
        reply.statvfs().setBlockSize(bs).setFragmentSize(bs).setBlocks(total).setBlocksFree(free).setBlocksAvailable(avail)
                .setNameMax(255);
        reply.send();
    }

    // ---- extended attributes: see UserXattrs --------------------------------------------------

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
