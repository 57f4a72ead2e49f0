package dev.fusepanama.nio;

import static dev.fusepanama.nio.NioErrors.call;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Fuse;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirPlusReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.KernelCaching;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.SetId;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.inode.table.Node;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(NioFileSystem.class);
    /**
     * A node of the table: its path, computed from its names and cached until a name changes
     * anywhere, and the attributes last read, which a file removed while open still answers with.
     */
    static final class NioNode extends Node {
        private Path path;
        private long pathStamp = -1;
        private volatile Attributes last;
        /** A channel open on it (the latest), whose size is the file's while open; null when none is. */
        private volatile FileChannel channel;
        /** Every channel open on it, oldest first; guarded by the node, which opens and closes hold. */
        private final ArrayDeque<FileChannel> channels = new ArrayDeque<>(1);
        /** When it last changed through the mount, for providers that keep no ctime; null if never. */
        private volatile FileTime changed;
        /**
         * Its permission bits as a posix view last gave them, when (System.nanoTime; 0: not known),
         * and how often a chmod or an invalidation made them unknown; guarded by the node.
         */
        private int bits;
        private long bitsRead;
        private int bitsEpoch;
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

    /**
     * An open file: its node, how it was opened, its channel (null once a flush closed it, see
     * {@link #flush}; written under the node), and whether it was written since its last flush.
     */
    private static final class OpenFile {
        private final NioNode node;
        private final Set<OpenOption> options;
        private volatile FileChannel channel;
        private volatile boolean dirty;
        /** Calls using the channel share it; a flush that closes the channel takes it alone. */
        private final ReentrantReadWriteLock io = new ReentrantReadWriteLock();

        OpenFile(NioNode node, Set<OpenOption> options, FileChannel channel) {
            this.node = node;
            this.options = options;
            this.channel = channel;
        }

        NioNode node() {
            return node;
        }
    }

    /**
     * An open directory: the names listed at opendir, taken again at each later read from offset
     * 0 (rewinddir) so that a rewind shows what changed. Readdirs of one open directory are
     * serialized by the kernel.
     */
    private static final class OpenDir {
        private final NioNode node;
        private volatile List<String> names;
        /** Whether the listing was read from offset 0 since it was taken. */
        private volatile boolean listedFromStart;

        OpenDir(NioNode node, List<String> names) {
            this.node = node;
            this.names = names;
        }

        NioNode node() {
            return node;
        }

        List<String> names() {
            return names;
        }
    }

    private static final int READ_BUFFER = 1 << 20;

    private final Path root;
    private final Attributes.View view;
    /**
     * Whether the provider's {@code fileKey} tells which names are one file (hard links, a
     * directory moved behind the mount): where it counts links (the {@code unix} view). Others
     * have no hard links, and their keys may be a store's inode numbers given again to new files
     * (cryptofs's are its ciphertext files'), so each name is its own node there.
     */
    private final boolean identities;
    /** Whether the provider has user-defined attributes (the {@code user} view), served as user.* extended attributes. */
    private final boolean userXattrs;
    /**
     * Whether the provider keeps a file's written data apart until its channel closes, showing a
     * new file only then (jdk.zipfs): a flush then closes the channel, so the data is in place
     * when close(2) returns, and a release the kernel sends later cannot put back a file removed
     * meanwhile. Known for zipfs, and learnt from the first create on any other provider.
     */
    private volatile boolean deferredWrites;
    /**
     * Whether file data stays cached across opens (KEEP_CACHE): where the kernel checks size and
     * mtime before it reads cached data ({@code auto_inval_data}, which {@link #mountOptions}
     * asks for); without it an open drops the data, so changes behind the mount are still seen.
     */
    private volatile boolean keepData;
    /** Whether this is the default provider's filesystem, whose calls are the kernel's own. */
    private final boolean defaultProvider;
    /** Whether the provider's owner numbers are this machine's users (the default provider's are). */
    private final boolean realOwners;
    private final NodeTable<NioNode> table;
    private final NioOptions options;
    /** Seconds the kernel keeps a miss ({@link NioOptions#negativeTimeout}). */
    private final double negativeTimeout;
    private final Timeouts timeouts;
    /** Nanoseconds the kernel trusts attributes: also how long permission bits read are reused. */
    private final long timeoutNanos;
    private final int owner = Libc.geteuid();
    private final int group = Libc.getegid();
    private final AtomicLong handles = new AtomicLong(1);
    private final Map<Long, OpenFile> files = new ConcurrentHashMap<>();
    private final Map<Long, OpenDir> dirs = new ConcurrentHashMap<>();
    private final ThreadLocal<ByteBuffer> readBuffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(READ_BUFFER));
    private volatile InodeMount mount;
    /** Guards {@link #watch}, {@link #live} and the start and end of a {@link #watcher}. */
    private final Object watchLock = new Object();
    /** Whether changes behind the mount are watched ({@link #watchChanges}). */
    private boolean watch;
    /** Whether a session runs: between init and destroy. */
    private boolean live;
    /** The watcher of the session that runs, if changes are watched; else null. */
    private volatile NioWatcher watcher;

    private NioFileSystem(Path root, NioOptions options) throws IOException {
        if (!Files.isDirectory(root)) throw new NotDirectoryException(root.toString());
        this.root = root;
        this.view = Attributes.viewOf(root.getFileSystem());
        this.defaultProvider = root.getFileSystem() == FileSystems.getDefault();
        this.identities = view == Attributes.View.UNIX;
        this.deferredWrites = "jar".equals(root.getFileSystem().provider().getScheme());
        this.userXattrs = root.getFileSystem().supportedFileAttributeViews().contains("user");
        this.realOwners = defaultProvider && view == Attributes.View.UNIX;
        this.table = NodeTable.caching(new NioNode(Posix.S_IFDIR));
        this.options = options;
        this.negativeTimeout = seconds(options.negativeTimeout());
        this.timeouts = Timeouts.NONE.withAttributes(seconds(options.attributeTimeout())).withEntries(seconds(options.entryTimeout()));
        this.timeoutNanos = options.attributeTimeout().toNanos();
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** Serves the directory {@code root} of its NIO filesystem, trusting names and attributes for a second. */
    public static NioFileSystem of(Path root) throws IOException {
        return of(root, Duration.ofSeconds(1));
    }

    /** Serves {@code root}, trusting names and attributes for {@code cacheTimeout} (0: ask the provider every time). */
    public static NioFileSystem of(Path root, Duration cacheTimeout) throws IOException {
        return of(root, NioOptions.builder().cacheTimeout(cacheTimeout).build());
    }

    /** Serves {@code root} with the timeouts, and any owner and mode shown, of {@code options}. */
    public static NioFileSystem of(Path root, NioOptions options) throws IOException {
        return new NioFileSystem(root, options);
    }

    /** How long the kernel trusts attributes it was given. */
    public Duration cacheTimeout() {
        return options.attributeTimeout();
    }

    /** The timeouts, and any owner and mode shown, this filesystem serves with. */
    public NioOptions options() {
        return options;
    }

    /**
     * The options this filesystem is meant to be mounted with: the kernel checks permissions from
     * the modes; read-only where the NIO filesystem is.
     */
    public MountOptions.Builder mountOptions() {
        return MountOptions.builder().defaultPermissions(true).autoInvalData(true).readOnly(root.getFileSystem().isReadOnly())
                .fsName(root.getFileSystem().provider().getScheme()).subtype("nio");
    }

    /** Mounts at {@code mountpoint} with {@link #mountOptions}. */
    public InodeMount mount(Path mountpoint) throws MountException {
        return mount(mountpoint, mountOptions().build());
    }

    public InodeMount mount(Path mountpoint, MountOptions options) throws MountException {
        InodeMount m = Fuse.mount(this, mountpoint, options);
        mount = m;
        return m;
    }

    /**
     * {@code path} (a path of the served filesystem, under the root) changed behind the mount:
     * the kernel drops its cached name and, for a file it knows, its attributes and data, so the
     * next access asks again. Does nothing before mounting or for a path the kernel never saw.
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
            bitsChanged(n);
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
     * The adapter clears set-ID bits itself ({@link #dataChanged}; a view without them has none to
     * clear), so the kernel may stop asking for {@code security.capability} before each write
     * (libfuse 3.17.1+). Misses are cached as names are, by each lookup's own reply.
     */
    private static final KernelCaching CACHING = KernelCaching.builder().handleKillprivV2(true).build();

    @Override
    public KernelCaching kernelCaching() {
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
            bitsChanged(n);
            m.invalidateInode(n.nodeId(), 0, 0);
        }
    }

    // ---- names and paths ---------------------------------------------------------------------

    private static String key(String name) {
        return NodeTable.key(name.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code name} as the text a Path holds; null if its bytes are not UTF-8. */
    private static String text(Name name) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(name.bytes())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** A new name's text, or EILSEQ: a Path cannot hold bytes that are not UTF-8. */
    private static String newName(Name name) throws ErrnoException {
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String s = text(name);
        if (s == null) throw new ErrnoException(Errno.EILSEQ);
        return s;
    }

    private NioNode node(long ino) throws ErrnoException {
        NioNode n = table.find(ino);
        if (n == null) throw new ErrnoException(Errno.ESTALE);
        return n;
    }

    /** The path of {@code n}; ESTALE once it has no name left (removed while open). */
    private Path path(NioNode n) throws ErrnoException {
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

    private Path child(NioNode dir, String name) throws ErrnoException {
        return path(dir).resolve(name);
    }

    private Attributes attributes(Path p) throws IOException {
        return call(() -> Attributes.read(p, view, realOwners, owner, group));
    }

    /**
     * The attributes of {@code p}, which names {@code known} if the table has a node for it (else
     * null). On a posix view, permission bits read less than the cache timeout ago are taken as
     * they were, and only the basic view is read: within that time the kernel would not have seen
     * a chmod made behind the mount either (see the consistency rule), and a chmod through the
     * mount reads them again ({@link #bitsChanged}).
     */
    private Attributes attributes(Path p, NioNode known) throws IOException {
        if (known == null || view != Attributes.View.POSIX) return attributes(p);
        int bits;
        long read;
        int epoch;
        synchronized (known) {
            bits = known.bits;
            read = known.bitsRead;
            epoch = known.bitsEpoch;
        }
        if (read != 0 && System.nanoTime() - read < timeoutNanos) {
            Attributes a = call(() -> Attributes.readKnowingBits(p, bits, owner, group));
            if (a.type() == known.type()) return a;
        }
        Attributes a = attributes(p);
        synchronized (known) {
            if (known.bitsEpoch == epoch) { // else a chmod came meanwhile, and a may predate it
                known.bits = a.mode() & 07777;
                known.bitsRead = System.nanoTime();
            }
        }
        return a;
    }

    /**
     * After a write or truncate through the mount: clears set-ID bits as a local filesystem does
     * ({@link SetId}). The provider writes as this process, which may keep them (root), so the
     * adapter applies the rule itself where files have such bits at all (the unix view). The
     * attributes last sent to the kernel tell whether the file has any, so a file without costs
     * nothing; a file removed while open is left as it is.
     */
    private void dataChanged(Request request, NioNode n) throws IOException {
        if (view != Attributes.View.UNIX) return;
        Attributes last = n.last;
        if (last != null && (last.mode() & (Posix.S_ISUID | Posix.S_ISGID)) == 0) return;
        if (table.name(n) == null) return;
        Path p = path(n);
        if (last == null && (attributes(n, p).mode() & (Posix.S_ISUID | Posix.S_ISGID)) == 0) return;
        Attributes now = attributes(n, p);
        int mode = now.mode() & 07777;
        int kept = SetId.afterDataChange(mode, now.gid(), request);
        if (kept != mode) {
            setMode(p, false, kept);
            bitsChanged(n);
            attributes(n, p);
        }
    }

    /** The permission bits of {@code n} were changed, or may have been: the next read asks the provider. */
    private static void bitsChanged(NioNode n) {
        if (n == null) return;
        synchronized (n) {
            n.bitsRead = 0;
            n.bitsEpoch++;
        }
    }

    /** {@code n}'s attributes, remembered for when its names are gone and only an open file is left. */
    private Attributes attributes(NioNode n, Path p) throws IOException {
        Attributes a = attributes(p, n);
        n.last = a;
        return a;
    }

    /**
     * Fills {@code st} with {@code a} as {@code n}'s. Where the provider keeps no change time
     * (no {@code unix} view: its ctime is the modification time), the last change made through
     * the mount counts too, so chmod, rename and link move ctime as on a kernel filesystem while
     * mounted.
     */
    private void fill(NioNode n, Attributes a, Stat st) {
        FileTime changed = n.changed;
        FileChannel open = n.channel;
        long size = a.size();
        if (open != null && !defaultProvider) {
            try {
                size = open.size(); // a provider may show a file's new size only when it is closed (zipfs)
            } catch (IOException closedMeanwhile) {
                // the provider's size stands
            }
        }
        if ((changed != null && changed.compareTo(a.ctime()) > 0) || size != a.size()) {
            a = new Attributes(a.mode(), a.ino(), a.nlink(), a.uid(), a.gid(), a.rdev(), size, a.atime(), a.mtime(),
                    changed != null && changed.compareTo(a.ctime()) > 0 ? changed : a.ctime(), a.fileKey());
        }
        a.fill(st, n.nodeId());
        // As libfuse's path API shows them with -o uid=, gid=, umask= (lib/fuse.c, set_stat).
        if (options.owner() >= 0) st.setUid(options.owner());
        if (options.group() >= 0) st.setGid(options.group());
        if (options.umask() >= 0) st.setMode(a.type() | (0777 & ~options.umask()));
    }

    /** {@code n} changed through the mount now (see {@link #fill}); nothing where the provider keeps ctime. */
    private void changed(NioNode n) {
        if (n != null && view != Attributes.View.UNIX) n.changed = FileTime.from(Instant.now());
    }

    private NioNode remember(NioNode dir, String name, Attributes a) {
        NioNode n = table.remember(dir, key(name), identities ? a.fileKey() : null, a.type(), () -> newNode(a));
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
        entry(dir, name, attributes(p), reply);
    }

    private void entry(NioNode dir, String name, Attributes a, EntryReply reply) {
        NioNode n = remember(dir, name, a);
        fill(n, a, reply.attributes());
        table.entry(reply, n, timeouts);
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
            a = attributes(child(dir, s), table.child(dir, key(s)));
        } catch (ErrnoException e) {
            if (e.errno() != Errno.ENOENT || negativeTimeout == 0) throw e;
            reply.noEntry(negativeTimeout); // the kernel keeps the miss as long as a name (tar, git look up names they then create)
            return;
        }
        entry(dir, s, a, reply);
    }

    @Override
    public void forget(long ino, long lookups) {
        table.forget(ino, lookups);
    }

    /** A session starts: the watcher too, if changes are watched. */
    @Override
    public void init(ConnectionInfo connection) throws IOException {
        keepData = connection.wants(ConnectionInfo.CAP_AUTO_INVAL_DATA);
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
        table.sessionEnded();
        for (Long fh : List.copyOf(files.keySet())) close(fh);
        mount = null;
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        NioNode n = node(ino);
        FileChannel c = table.name(n) == null && n.last != null ? openChannel(n, fh) : null;
        if (c != null) {
            // Removed while open: NIO has no fstat, so the last attributes, with the size the channel has now.
            Attributes a = n.last;
            long size = call(c::size);
            fill(n, new Attributes(a.mode(), a.ino(), 0, a.uid(), a.gid(), a.rdev(), size, a.atime(), a.mtime(), a.ctime(), a.fileKey()), reply.attributes());
        } else {
            fill(n, attributes(n, path(n)), reply.attributes());
        }
        reply.send(timeouts);
    }

    /**
     * A channel open on {@code n}: the handle's, else any (the kernel asks for an {@code fstat} by
     * the inode alone), or null.
     */
    private FileChannel openChannel(NioNode n, long fh) {
        OpenFile f = fh == NO_HANDLE ? null : files.get(fh);
        return f != null && f.node() == n && f.channel != null ? f.channel : n.channel;
    }

    @Override
    public void setattr(Request request, long ino, Stat in, int toSet, long fh, AttrReply reply) throws IOException {
        NioNode n = node(ino);
        OpenFile f = fh == NO_HANDLE ? null : files.get(fh);
        if (f != null && table.name(n) == null && toSet == SET_SIZE) {
            f.dirty = true;
            withChannel(f, c -> resize(c, in.size())); // ftruncate of a file removed while open
            changed(n);
            getattr(request, ino, fh, reply);
            return;
        }
        Path p = path(n);
        if ((toSet & SET_SIZE) != 0) {
            if (f != null) {
                f.dirty = true;
                withChannel(f, c -> resize(c, in.size()));
            } else {
                call(() -> {
                    try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
                        return resize(c, in.size());
                    }
                });
            }
        }
        if ((toSet & SET_SIZE) != 0) {
            dataChanged(request, n);
        }
        if ((toSet & SET_MODE) != 0) {
            setMode(p, n.isDirectory(), in.mode() & 07777);
            bitsChanged(n);
        }
        if ((toSet & (SET_UID | SET_GID)) != 0) {
            setOwner(p, (toSet & SET_UID) != 0 ? in.uid() : -1, (toSet & SET_GID) != 0 ? in.gid() : -1);
        }
        if ((toSet & (SET_ATIME | SET_MTIME)) != 0) {
            FileTime now = FileTime.from(Instant.now());
            FileTime atime = (toSet & SET_ATIME) == 0 ? null : (toSet & SET_ATIME_NOW) != 0 ? now
                    : FileTime.from(Instant.ofEpochSecond(in.atimeSeconds(), in.atimeNanos()));
            FileTime mtime = (toSet & SET_MTIME) == 0 ? null : (toSet & SET_MTIME_NOW) != 0 ? now
                    : FileTime.from(Instant.ofEpochSecond(in.mtimeSeconds(), in.mtimeNanos()));
            call(() -> {
                Files.getFileAttributeView(p, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setTimes(mtime, atime, null);
                return null;
            });
        }
        changed(n);
        fill(n, attributes(n, p), reply.attributes());
        reply.send(timeouts);
    }

    /** Truncates or extends through {@code c}: a FileChannel only shrinks, so a longer size writes its last byte. */
    private static Void resize(FileChannel c, long size) throws IOException {
        long now = c.size();
        if (size < now) {
            c.truncate(size);
        } else if (size > now) {
            c.write(ByteBuffer.allocate(1), size - 1);
        }
        return null;
    }

    /**
     * chmod: through the unix view (every bit), else posix permissions (no set-ID or sticky bits),
     * else DOS's readonly attribute as vfat sets it ({@link DosMode}), else EPERM.
     */
    private void setMode(Path p, boolean directory, int mode) throws IOException {
        if (view == Attributes.View.UNIX) {
            try {
                Files.setAttribute(p, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
                return;
            } catch (UnsupportedOperationException | IllegalArgumentException | ClassCastException readOnlyView) {
                // jimfs's unix view is read-only: its posix view takes the permission bits
            }
        }
        if (view == Attributes.View.DOS) {
            boolean readOnly = DosMode.readOnlyAfterChmod(directory, mode);
            call(() -> Files.setAttribute(p, "dos:readonly", readOnly, LinkOption.NOFOLLOW_LINKS));
            return;
        }
        if (view == Attributes.View.BASIC || (mode & 07000) != 0) throw new ErrnoException(Errno.EPERM);
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission pp : PosixFilePermission.values()) {
            if ((mode & (0400 >> pp.ordinal())) != 0) perms.add(pp);
        }
        call(() -> Files.setPosixFilePermissions(p, perms));
    }

    /**
     * chown through the unix view (-1: leave as it is). Where the provider's owners are not this
     * machine's users, files belong to the mounting user: a chown to them changes nothing, any
     * other is EPERM, as on a FAT mount.
     */
    private void setOwner(Path p, int uid, int gid) throws IOException {
        if (!realOwners) {
            if ((uid == -1 || uid == owner) && (gid == -1 || gid == group)) return;
            throw new ErrnoException(Errno.EPERM);
        }
        try {
            if (uid != -1) Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            if (gid != -1) Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new ErrnoException(Errno.EPERM);
        } catch (IOException e) {
            call(() -> {
                throw e;
            });
        }
    }

    /**
     * A new file as the caller asked: its mode exactly (the process's umask undone) and, as root,
     * the caller's. Returns its attributes, read once more only if something had to change. Only
     * a view with permission bits keeps the mode: a dos view's file starts writable, as vfat's
     * create ignores the mode (and a mkstemp's 0600 is no mode DOS can show).
     */
    private Attributes settle(Request request, Path p, int mode) throws IOException {
        Attributes a = attributes(p);
        boolean changed = false;
        boolean bits = view == Attributes.View.UNIX || view == Attributes.View.POSIX;
        // In a set-group-ID directory the store gave the entry the directory's group, and a new
        // directory the bit: both stay, as on a local filesystem.
        boolean inherited = view == Attributes.View.UNIX && setGroupId(p.getParent());
        int wanted = (mode & 07777) | (inherited && a.type() == Posix.S_IFDIR ? Posix.S_ISGID : 0);
        if (bits && (a.mode() & 07777) != wanted) {
            setMode(p, a.type() == Posix.S_IFDIR, wanted);
            changed = true;
        }
        int gid = inherited ? a.gid() : request.gid();
        if (owner == 0 && realOwners && (request.uid() != 0 || gid != 0)) {
            setOwner(p, request.uid(), gid);
            changed = true;
        }
        return changed ? attributes(p) : a;
    }

    /** Whether directory {@code dir} has the set-group-ID bit (unix view). */
    private boolean setGroupId(Path dir) throws IOException {
        if (dir == null) return false;
        int mode = call(() -> (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS));
        return (mode & Posix.S_ISGID) != 0;
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
        entry(dir, s, settle(request, p, mode), reply);
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        NioNode dir = node(parent);
        String s = newName(name);
        Path p = child(dir, s);
        call(() -> Files.createDirectory(p));
        entry(dir, s, settle(request, p, mode), reply);
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        NioNode dir = node(parent);
        String s = newName(name);
        Path p = child(dir, s);
        String t = new String(target, StandardCharsets.UTF_8);
        orEperm(() -> Files.createSymbolicLink(p, root.getFileSystem().getPath(t)));
        if (owner == 0 && realOwners) {
            int gid = view == Attributes.View.UNIX && setGroupId(p.getParent()) ? -1 : request.gid(); // -1: the directory's, as given
            if (request.uid() != 0 || (gid != 0 && gid != -1)) setOwner(p, request.uid(), gid);
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
        changed(n);
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
        Attributes a = attributes(p);
        if (directory && a.type() != Posix.S_IFDIR) throw new ErrnoException(Errno.ENOTDIR);
        if (!directory && a.type() == Posix.S_IFDIR) throw new ErrnoException(Errno.EISDIR);
        // rmdir(2) refuses a directory with entries before touching it; a provider may not:
        // cryptofs 2.9 first makes it group-writable (0770) and deletes its directory-id backup.
        if (directory && !defaultProvider) checkEmpty(p);
        call(() -> {
            Files.delete(p);
            return null;
        });
        changed(table.forgetName(dir, key(s)));
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws IOException {
        if ((flags & ~Posix.RENAME_NOREPLACE) != 0) throw new ErrnoException(Errno.EINVAL); // no NIO call exchanges
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String from = text(name);
        if (from == null) throw new ErrnoException(Errno.ENOENT);
        String to = newName(newName);
        NioNode dir = node(parent);
        NioNode newDir = node(newParent);
        Path source = child(dir, from);
        Path target = child(newDir, to);
        call(() -> {
            if ((flags & Posix.RENAME_NOREPLACE) != 0) {
                return Files.move(source, target);
            }
            if (defaultProvider) { // rename(2) itself: replaces, and answers type mismatches, as POSIX says
                return Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
            }
            boolean replaces = checkReplaceable(source, target);
            try {
                try {
                    return Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                    // A provider that cannot replace atomically (cryptofs replacing a directory),
                    // or whose atomic move never replaces: the same end, not atomically.
                    return Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (FileSystemException e) {
                int errno = NioErrors.errno(e);
                if (!replaces || (errno != Errno.ENOTEMPTY && errno != Errno.ENOTDIR && errno != Errno.EISDIR
                        && errno != Errno.EEXIST)) throw e;
                // The types match and a directory replaced is empty (checked above), but the
                // provider cannot move one over the other: it keeps a file as a directory of its
                // own (cryptofs's symbolic links), or replaces no directory (jdk.zipfs). The old
                // one goes first, so the name is absent for that moment.
                Files.delete(target);
                return Files.move(source, target);
            }
        });
        if (!defaultProvider && !source.equals(target) && Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)
                && Files.exists(source, LinkOption.NOFOLLOW_LINKS) && !call(() -> Files.isSameFile(source, target))) {
            call(() -> moveEntries(source, target));
        }
        NioNode replaced = table.write(() -> table.move(dir, key(from), newDir, key(to)));
        changed(table.child(newDir, key(to)));
        changed(replaced);
        reply.ok();
    }

    /**
     * Finishes moving the directory {@code from} to {@code to}, for a provider whose move made the
     * new directory but left the old one with its entries (jdk.zipfs moves a directory's own
     * entry only): its entries are moved one by one, then it is removed. Not atomic, as a rename
     * on such a provider cannot be.
     */
    private static Void moveEntries(Path from, Path to) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(from)) {
            for (Path e : s) entries.add(e);
        }
        for (Path e : entries) {
            Path moved = to.resolve(e.getFileName().toString());
            Files.move(e, moved);
            if (Files.isDirectory(moved, LinkOption.NOFOLLOW_LINKS) && Files.exists(e, LinkOption.NOFOLLOW_LINKS)) {
                moveEntries(e, moved);
            }
        }
        Files.delete(from);
        return null;
    }

    /**
     * What rename(2) checks before it replaces, which a provider's REPLACE_EXISTING does not: a
     * directory replaces only a directory (else ENOTDIR), an empty one (ENOTEMPTY), and is
     * replaced only by one (EISDIR). Returns whether something is about to be replaced.
     */
    private static boolean checkReplaceable(Path source, Path target) throws IOException {
        BasicFileAttributes to;
        try {
            to = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return false;
        }
        boolean fromDir = Files.readAttributes(source, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isDirectory();
        if (fromDir && !to.isDirectory()) throw new ErrnoException(Errno.ENOTDIR);
        if (!fromDir && to.isDirectory()) throw new ErrnoException(Errno.EISDIR);
        if (to.isDirectory()) checkEmpty(target);
        return true;
    }

    /** ENOTEMPTY unless the directory {@code dir} has no entries. */
    private static void checkEmpty(Path dir) throws IOException {
        boolean empty = call(() -> {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                return !entries.iterator().hasNext();
            }
        });
        if (!empty) throw new ErrnoException(Errno.ENOTEMPTY);
    }

    // ---- files --------------------------------------------------------------------------------

    private static Set<OpenOption> options(int flags) {
        Set<OpenOption> o = new HashSet<>();
        int access = flags & Posix.O_ACCMODE;
        if (access != Posix.O_WRONLY) o.add(StandardOpenOption.READ);
        if (access != Posix.O_RDONLY) o.add(StandardOpenOption.WRITE);
        // O_APPEND is the kernel's: it sends each write at the end of the file. O_TRUNC arrives as a setattr.
        return o;
    }

    private long register(NioNode n, Set<OpenOption> options, FileChannel c) {
        table.hold(n);
        synchronized (n) {
            n.channels.addLast(c);
            n.channel = c;
        }
        long fh = handles.getAndIncrement();
        files.put(fh, new OpenFile(n, options, c));
        return fh;
    }

    /** What a call does with an open file's channel. */
    private interface ChannelUse<T> {
        T run(FileChannel c) throws IOException;
    }

    /**
     * Runs {@code use} on {@code f}'s channel, which a flush on another thread (the close of a
     * dup of the descriptor) does not close meanwhile; errors as {@link NioErrors#call} maps them.
     */
    private <T> T withChannel(OpenFile f, ChannelUse<T> use) throws IOException {
        f.io.readLock().lock();
        try {
            FileChannel c = channel(f);
            return call(() -> use.run(c));
        } finally {
            f.io.readLock().unlock();
        }
    }

    /** The channel of {@code f}, opened again if a flush closed it (a descriptor used after a close of its dup). */
    private FileChannel channel(OpenFile f) throws IOException {
        FileChannel c = f.channel;
        if (c != null) return c;
        NioNode n = f.node();
        synchronized (n) {
            if (f.channel == null) {
                Path p = path(n);
                FileChannel opened = call(() -> FileChannel.open(p, f.options));
                n.channels.addLast(opened);
                n.channel = opened;
                f.channel = opened;
            }
            return f.channel;
        }
    }

    /** Closes {@code f}'s channel if it has one; under the node. */
    private static void closeChannel(OpenFile f) throws IOException {
        NioNode n = f.node();
        FileChannel c = f.channel;
        if (c == null) return;
        f.channel = null;
        n.channels.remove(c);
        n.channel = n.channels.peekLast();
        c.close();
    }

    /**
     * Closes the handle {@code fh}. Under the node, as {@link #open} opens: the kernel sends a
     * release without waiting for it, so a program that closes and opens a file again may have
     * both running at once, and a provider that keeps one state per open file (cryptofs) may hand
     * the new channel the state its last close is tearing down (its data then reads as zeros).
     */
    private void close(long fh) {
        OpenFile f = files.remove(fh);
        if (f != null) {
            NioNode n = f.node();
            synchronized (n) {
                try {
                    closeChannel(f);
                } catch (IOException e) {
                    // only what was written after the last flush can be lost here: no program is told any more
                    LOG.warn("closing {}: {}", n.path != null ? n.path : "a file", e.toString());
                }
            }
            table.letGo(n);
        }
    }

    private OpenFile file(long fh) throws ErrnoException {
        OpenFile f = files.get(fh);
        if (f == null) throw new ErrnoException(Errno.EBADF);
        return f;
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        NioNode n = node(ino);
        Path p = path(n);
        Set<OpenOption> o = options(flags);
        FileChannel c;
        synchronized (n) { // see close
            c = call(() -> FileChannel.open(p, o));
        }
        long fh = register(n, o, c);
        // an open for reading writes nothing its close would have to flush (see flush)
        boolean readOnly = (flags & Posix.O_ACCMODE) == Posix.O_RDONLY;
        if (!reply.open(fh, (keepData ? OpenReply.KEEP_CACHE : 0) | (readOnly ? OpenReply.NO_FLUSH : 0))) close(fh);
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        NioNode dir = node(parent);
        String s = newName(name);
        Path p = child(dir, s);
        Set<OpenOption> o = options(flags);
        boolean exclusive = (flags & Posix.O_EXCL) != 0;
        // The kernel sends create for a name it holds a miss for, which may exist by now (made
        // behind the mount): then it is opened as it is (truncated for O_TRUNC, which the kernel
        // leaves to a create), keeping its mode and owner.
        boolean existed = false;
        FileChannel c;
        if ((flags & Posix.O_ACCMODE) == Posix.O_RDONLY) {
            // A FileChannel opened only for reading ignores CREATE (O_RDONLY|O_CREAT is legal): make the file first.
            existed = call(() -> {
                try {
                    Files.createFile(p);
                    return false;
                } catch (FileAlreadyExistsException e) {
                    if (exclusive) throw e;
                    return true;
                }
            });
            c = call(() -> FileChannel.open(p, o));
        } else {
            Set<OpenOption> creating = new HashSet<>(o);
            creating.add(StandardOpenOption.CREATE_NEW);
            try {
                c = call(() -> FileChannel.open(p, creating));
            } catch (ErrnoException e) {
                if (exclusive || e.errno() != Errno.EEXIST) throw e;
                existed = true;
                Set<OpenOption> truncating = new HashSet<>(o);
                if ((flags & Posix.O_TRUNC) != 0) truncating.add(StandardOpenOption.TRUNCATE_EXISTING);
                c = call(() -> FileChannel.open(p, truncating));
            }
            if (!existed && !defaultProvider && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                // A provider whose new file appears only when its channel closes (zipfs): close it, open it again.
                deferredWrites = true;
                c.close();
                c = call(() -> FileChannel.open(p, o));
            }
        }
        try {
            Attributes a = existed ? attributes(p, table.child(dir, key(s))) : settle(request, p, mode);
            NioNode n = remember(dir, s, a);
            fill(n, a, reply.attributes());
            long fh = register(n, o, c);
            if (!table.created(reply, n, timeouts, fh, keepData ? OpenReply.KEEP_CACHE : 0)) close(fh);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        ByteBuffer buf = readBuffers.get().clear().limit((int) Math.min(size, READ_BUFFER));
        withChannel(file(fh), c -> {
            while (buf.hasRemaining()) {
                int n = c.read(buf, offset + buf.position());
                if (n < 0) break;
            }
            return null;
        });
        reply.data(buf.flip());
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        OpenFile f = file(fh);
        f.dirty = true;
        int size = data.remaining();
        withChannel(f, c -> {
            long at = offset;
            while (data.hasRemaining()) at += c.write(data, at);
            return null;
        });
        dataChanged(request, f.node());
        reply.written(size);
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        withChannel(file(fh), c -> {
            c.force(!dataOnly);
            return null;
        });
        reply.ok();
    }

    /**
     * At each close(2): a provider that keeps written data in memory until its channel is forced
     * or closed (cryptofs writes whole encrypted chunks, and fills a gap a write leaves with
     * encrypted zeros) fails there when its store is full, and the kernel ignores what a release
     * answers: so a file written since the last flush is forced here, and close(2) reports the
     * failure (ENOSPC) as on a kernel filesystem, instead of the data going missing after a close
     * that succeeded. The default provider writes through to the kernel at each write, whose
     * errors the write answers: there flush answers ENOSYS once and the kernel stops sending it.
     */
    @Override
    public void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        if (defaultProvider) throw new ErrnoException(Errno.ENOSYS);
        OpenFile f = file(fh);
        if (deferredWrites && f.options.contains(StandardOpenOption.WRITE)) {
            // even unwritten: closing a channel opened for writing puts the file back as it was opened
            f.dirty = false;
            f.io.writeLock().lock();
            try {
                synchronized (f.node()) {
                    call(() -> {
                        closeChannel(f);
                        return null;
                    });
                }
            } finally {
                f.io.writeLock().unlock();
            }
        } else if (f.dirty) {
            f.dirty = false;
            withChannel(f, c -> {
                c.force(false);
                return null;
            });
        }
        reply.ok();
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        close(fh);
        reply.ok();
    }

    // ---- directories --------------------------------------------------------------------------

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        NioNode n = node(ino);
        List<String> names = names(path(n));
        long fh = handles.getAndIncrement();
        dirs.put(fh, new OpenDir(n, names));
        if (!reply.open(fh, 0)) dirs.remove(fh);
    }

    private List<String> names(Path dir) throws IOException {
        return call(() -> {
            List<String> all = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                for (Path e : s) all.add(e.getFileName().toString());
            }
            return all;
        });
    }

    /** The open directory {@code fh} for a read from {@code offset}: listed again at a rewind. */
    private OpenDir dir(long fh, long offset) throws IOException {
        OpenDir d = dirs.get(fh);
        if (d == null) throw new ErrnoException(Errno.EBADF);
        if (offset == 0) {
            if (d.listedFromStart) d.names = names(path(d.node()));
            d.listedFromStart = true;
        }
        return d;
    }

    /** Offsets: 1 ".", 2 "..", then 3 + the entry's index in the listing taken at opendir. */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        OpenDir d = dir(fh, offset);
        if (offset < 1 && reply.add(new byte[] {'.'}, d.node().nodeId(), Posix.S_IFDIR, 1)) {
            reply.send();
            return;
        }
        if (offset < 2 && reply.add(new byte[] {'.', '.'}, d.node().nodeId(), Posix.S_IFDIR, 2)) {
            reply.send();
            return;
        }
        eachListed(d, offset, (cookie, s, a) ->
                reply.add(s.getBytes(StandardCharsets.UTF_8), a.ino() != 0 ? a.ino() : cookie, a.type(), cookie));
        reply.send();
    }

    /** What a listing does with an entry: true when the reply is full (as the replies' add). */
    private interface Listed {
        boolean add(long cookie, String name, Attributes a) throws IOException;
    }

    /**
     * Hands {@code listed} the entries of {@code d}'s listing from {@code offset} on (cookies: 1
     * ".", 2 "..", then 3 + the index in the listing), with their attributes, until it is full;
     * names removed since the listing was taken are left out.
     */
    private void eachListed(OpenDir d, long offset, Listed listed) throws IOException {
        Path dirPath = path(d.node());
        for (int i = (int) Math.max(0, offset - 2); i < d.names().size(); i++) {
            String s = d.names().get(i);
            Attributes a;
            try {
                a = attributes(dirPath.resolve(s), table.child(d.node(), key(s)));
            } catch (ErrnoException gone) {
                continue;
            }
            if (listed.add(i + 3L, s, a)) return;
        }
    }

    @Override
    public void readdirplus(Request request, long ino, long fh, long size, long offset, DirPlusReply reply) throws IOException {
        OpenDir d = dir(fh, offset);
        NioNode dir = d.node();
        Path dirPath = path(dir);
        if (offset < 1) {
            fill(dir, attributes(dir, dirPath), reply.attributes());
            if (reply.add(new byte[] {'.'}, dir, timeouts, 1)) {
                reply.send();
                return;
            }
        }
        if (offset < 2) {
            NioNode parent = dir == table.root() ? dir : (NioNode) table.name(dir).parent();
            fill(parent, attributes(parent, path(parent)), reply.attributes());
            if (reply.add(new byte[] {'.', '.'}, parent, timeouts, 2)) {
                reply.send();
                return;
            }
        }
        List<NioNode> counted = new ArrayList<>();
        eachListed(d, offset, (cookie, s, a) -> {
            NioNode n = remember(dir, s, a);
            fill(n, a, reply.attributes());
            if (reply.add(s.getBytes(StandardCharsets.UTF_8), n, timeouts, cookie)) {
                table.forget(n.nodeId(), 1);
                return true;
            }
            counted.add(n);
            return false;
        });
        if (!reply.send()) {
            for (NioNode n : counted) table.forget(n.nodeId(), 1);
        }
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        dirs.remove(fh);
        reply.ok();
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
        reply.statvfs().setBlockSize(bs).setFragmentSize(bs).setBlocks(total).setBlocksFree(free).setBlocksAvailable(avail)
                .setNameMax(255);
        reply.send();
    }

    // ---- extended attributes ------------------------------------------------------------------

    /** The provider's user attributes of {@code ino}, and the name without "user."; EOPNOTSUPP for another namespace. */
    private UserDefinedFileAttributeView xattrs(long ino) throws IOException {
        UserDefinedFileAttributeView v = Files.getFileAttributeView(path(node(ino)), UserDefinedFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (v == null) throw new ErrnoException(Errno.EOPNOTSUPP);
        return v;
    }

    private static String userName(Name name) throws ErrnoException {
        String s = text(name);
        if (s == null || !s.startsWith("user.") || s.length() == 5) throw new ErrnoException(Errno.EOPNOTSUPP);
        return s.substring(5);
    }

    private static boolean has(UserDefinedFileAttributeView v, String name) throws IOException {
        return call(v::list).contains(name);
    }

    /**
     * ENOSYS where the provider has no user attributes at all: the kernel then answers EOPNOTSUPP
     * itself and stops asking (it asks for security.capability before every write otherwise).
     */
    private void requireUserXattrs() throws ErrnoException {
        if (!userXattrs) throw new ErrnoException(Errno.ENOSYS);
    }

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if ((flags & Posix.XATTR_CREATE) != 0 && has(v, n)) throw new ErrnoException(Errno.EEXIST);
        if ((flags & Posix.XATTR_REPLACE) != 0 && !has(v, n)) throw new ErrnoException(Errno.ENODATA);
        call(() -> v.write(n, value));
        reply.ok();
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if (!has(v, n)) throw new ErrnoException(Errno.ENODATA);
        int length = call(() -> v.size(n));
        if (size == 0) {
            reply.size(length);
            return;
        }
        if (length > size) throw new ErrnoException(Errno.ERANGE);
        ByteBuffer buf = ByteBuffer.allocate(length);
        call(() -> v.read(n, buf));
        reply.data(buf.array(), 0, buf.position());
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UserDefinedFileAttributeView v;
        try {
            v = xattrs(ino);
        } catch (ErrnoException none) {
            v = null; // a file of a provider without user attributes has none to list
        }
        if (v != null) {
            for (String n : call(v::list)) {
                out.writeBytes(("user." + n).getBytes(StandardCharsets.UTF_8));
                out.write(0);
            }
        }
        if (size == 0) {
            reply.size(out.size());
        } else if (out.size() > size) {
            throw new ErrnoException(Errno.ERANGE);
        } else {
            reply.data(out.toByteArray(), 0, out.size());
        }
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if (!has(v, n)) throw new ErrnoException(Errno.ENODATA);
        call(() -> {
            v.delete(n);
            return null;
        });
        reply.ok();
    }
}
