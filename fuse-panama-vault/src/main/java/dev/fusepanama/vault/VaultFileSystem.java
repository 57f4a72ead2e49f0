package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EIO;
import static dev.fusepanama.Errno.ENAMETOOLONG;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.Errno.ENOTDIR;
import static dev.fusepanama.Errno.EINVAL;
import static dev.fusepanama.Errno.EACCES;
import static dev.fusepanama.Errno.ERANGE;
import static dev.fusepanama.Errno.EOPNOTSUPP;
import static dev.fusepanama.Errno.ESTALE;
import static dev.fusepanama.Posix.O_ACCMODE;
import static dev.fusepanama.Posix.S_ISGID;
import static dev.fusepanama.Posix.S_ISUID;
import static dev.fusepanama.Posix.O_CLOEXEC;
import static dev.fusepanama.Posix.O_CREAT;
import static dev.fusepanama.Posix.O_DIRECTORY;
import static dev.fusepanama.Posix.O_DSYNC;
import static dev.fusepanama.Posix.O_EXCL;
import static dev.fusepanama.Posix.O_NOATIME;
import static dev.fusepanama.Posix.O_NOFOLLOW;
import static dev.fusepanama.Posix.O_RDONLY;
import static dev.fusepanama.Posix.O_RDWR;
import static dev.fusepanama.Posix.O_SYNC;
import static dev.fusepanama.Posix.O_TRUNC;
import static dev.fusepanama.Posix.O_WRONLY;
import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFLNK;
import static dev.fusepanama.Posix.S_IFREG;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import static dev.fusepanama.vault.CipherDir.DIRIV;
import static dev.fusepanama.vault.CipherDir.DIRIV_LENGTH;
import static dev.fusepanama.vault.CipherDir.DOT;
import static dev.fusepanama.vault.CipherDir.NAME_MAX;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.vault.LibcCalls.ctime;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.KernelSettings;
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
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.vault.CipherDir.Place;
import dev.fusepanama.vault.crypto.ContentCipher;
import dev.fusepanama.vault.crypto.MasterKey;
import dev.fusepanama.vault.crypto.NameCipher;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gocryptfs-compatible vault on the inode API: every file of the mount is a file of the cipher
 * directory with its name encrypted (EME, per-directory IV) and its contents in authenticated
 * 4 KiB blocks (AES-256-GCM, per-file id). The cipher directory stays a valid gocryptfs vault
 * throughout: gocryptfs mounts it, and this mounts what gocryptfs wrote.
 *
 * <p>Files are found by name, never by a kept descriptor: a directory's place in the cipher
 * directory is the chain of its encrypted names, opened with {@code openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS)} from the top (so a link planted in the cipher directory is never followed
 * out of it), and a file is its directory's descriptor plus its name. The kernel may hold a node
 * for as long as it likes without costing a descriptor. An unlinked file still open answers
 * through its open descriptor.
 *
 * <p>The files the kernel knows, their numbers, lookups and names, are the library's caching node
 * table's ({@link NodeTable#caching}): the cipher directory is the namespace, and the table
 * remembers what the kernel was told of it.
 *
 * <p>Authenticity: a block that fails authentication fails the read with EIO and one log line
 * naming the file and block; nothing unauthenticated is ever returned. A name that does not
 * decrypt is left out of listings and logged once.
 *
 * <p>This class answers the kernel's requests, takes the locks and delegates, one concern per
 * class of this package: {@code CipherDir} (where a node's file is, its names encrypted,
 * decrypted and listed), {@code Nodes} (what the vault keeps in the node table),
 * {@code OpenFiles} (handles), {@code Directories} (listings of open directories),
 * {@code NameChanges} (unlink, rmdir and rename),
 * {@code Attributes} (what the mount shows of a file, and changes to it), {@code FileContents}
 * (blocks read, decrypted, encrypted and written), {@code Xattrs} (extended attributes) and
 * {@code ExternalChanges} (others' changes in the cipher directory, told to the kernel).
 */
public final class VaultFileSystem implements InodeFileSystem, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    /**
     * Seconds the kernel may trust names and attributes. Changes made through the mount reach
     * the kernel in its own requests, and those made in the cipher directory by other programs
     * are told to it by the watcher ({@link #watch}), so the kernel may cache for long; the bound
     * is for the rare change the watcher cannot see (a directory it could not watch).
     */
    static final double TIMEOUT = 60.0;
    /** {@link #TIMEOUT} for names and attributes alike. */
    static final Timeouts CACHE = Timeouts.NONE.withAttributes(TIMEOUT).withEntries(TIMEOUT);
    /**
     * What the kernel may do on top of caching names and attributes: on libfuse 3.17.1+, skip the
     * {@code security.capability} lookup before each write, since the vault clears set-ID bits
     * itself ({@link Attributes#dataChanged}). Not yet: kept listings, which need offsets that
     * mean the same in every open of a directory (the vault's index a listing taken per open),
     * and negative entries, which need a create over a name made meanwhile behind the vault to
     * check the caller's permission on the existing file (the kernel checked only the directory's).
     */
    private static final KernelSettings CACHING = KernelSettings.builder().handleKillprivV2(true).build();
    /** Access and status flags that mean the same for the ciphertext file. */
    private static final int PASSED_FLAGS = O_SYNC | O_DSYNC | O_NOATIME;

    private final MasterKey key;
    private final ContentCipher content;
    private final String cipherDir;
    private final boolean root = Libc.geteuid() == 0;
    private final SecureRandom random = new SecureRandom();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile InodeMount mount;
    /** Set by {@link #lockNow}: every request is refused from then on. */
    private volatile boolean locked;
    /** Every thread's native memory for this vault, freed by {@link #close}. */
    private final Set<ThreadBuffers> scratches = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<ThreadBuffers> scratch = ThreadLocal.withInitial(() -> {
        ThreadBuffers s = new ThreadBuffers();
        scratches.add(s);
        return s;
    });

    /**
     * The nodes the kernel knows. Keyed by the ciphertext inode number, so that hard links are
     * one node (the number is also the st_ino the mount shows, as gocryptfs shows it; the
     * kernel's numbers are the table's own). A name in the table is the stored (encrypted) name,
     * not the plaintext: the cipher directory is the namespace, so a directory's path for openat2
     * is its table names joined, with nothing encrypted again, and the watcher, which sees only
     * stored names, finds the node of a changed name even when that name no longer decrypts (a
     * long name whose .name file went with it). Stored names are ASCII, which the table's
     * ISO-8859-1 keys hold exactly. The plaintext is kept on the node ({@link Node#named}).
     */
    final NodeTable<Node> table;
    final Node rootNode;
    /** The cipher directory: where a node's file is, and its names encrypted and decrypted. */
    final CipherDir store;
    /** What makes two names one file: the ciphertext file's handle (its inode number is given again). */
    final FileKeys keys;
    /** The files and directories open through the mount, by handle. */
    final OpenFiles openFiles;
    /** Extended attributes: names and values as gocryptfs encrypts them. */
    private final Xattrs xattrs;
    /** Changes other programs make in the cipher directory, told to the kernel. */
    final ExternalChanges changes;
    /** What the vault keeps of the names it told the kernel, changed with the table. */
    final Nodes nodes;
    /** The plaintext file's attributes from the ciphertext file's, and changes to them. */
    final Attributes attrs;
    /** Files' contents: blocks read, decrypted, encrypted and written. */
    private final FileContents contents;
    /** The open directories and their listings. */
    private final Directories directories;
    /** unlink, rmdir and rename. */
    private final NameChanges nameChanges;

    /**
     * Serves the vault in {@code cipherDir} with the unlocked {@code key}; closing the filesystem
     * wipes the key. The directory is opened now and kept open.
     */
    VaultFileSystem(String cipherDir, int rootFd, long rootBackingIno, MasterKey key) {
        this.cipherDir = cipherDir;
        this.key = key;
        this.content = key.content();
        NameCipher names = key.names();
        this.table = NodeTable.caching(new Node(this, S_IFDIR, rootBackingIno));
        this.rootNode = table.root();
        this.store = new CipherDir(cipherDir, rootFd, names, table);
        this.keys = new FileKeys(rootFd);
        if (!keys.byHandle()) {
            LOG.info("vault {}: its filesystem has no file handles; files are told apart by inode number, which a file"
                    + " made while another is removed may share with it for a moment", cipherDir);
        }

        this.openFiles = new OpenFiles(table);
        this.xattrs = new Xattrs(cipherDir, names, content, store, openFiles);
        this.changes = new ExternalChanges(cipherDir, table, store, closed, scratch::get);
        this.nodes = new Nodes(this, table, changes);
        this.attrs = new Attributes(cipherDir, content, store, openFiles, root);
        this.contents = new FileContents(cipherDir, content, store, attrs);
        this.directories = new Directories(this);
        this.nameChanges = new NameChanges(this);
    }

    /** The mount ended: its open files are closed and the key is wiped (a vault serves one mount). */
    @Override
    public void destroy() {
        openFiles.closeAll();
        close();
    }

    /**
     * Locks the vault now, for an application that must not leave it open a moment longer (the
     * user locked the screen, the session timed out): the key is wiped at once, so calls still
     * running fail with EIO; the kernel drops the plaintext it cached; and the mount is ended with
     * {@link dev.fusepanama.Mount#forceClose}, so programs that still have files open there
     * get errors instead of data.
     *
     * @param timeout how long to wait for the mount's session to end
     * @return whether the mount's session ended within {@code timeout} (true for a vault never mounted)
     * @throws IOException if the mount cannot be ended ({@link dev.fusepanama.MountException}); the key is wiped all the same
     */
    public boolean lockNow(Duration timeout) throws IOException {
        InodeMount m = mount;
        locked = true;
        if (m != null && m.isMounted()) {
            for (Node n : table.nodes()) {
                if (n.type() != S_IFREG && n.type() != S_IFLNK) continue;
                try {
                    m.invalidateInode(n.nodeId(), 0, 0);
                } catch (IOException | IllegalStateException e) {
                    LOG.debug("vault {}: dropping cached data at lock: {}", cipherDir, e.toString());
                }
            }
        }
        close();
        return m == null || m.forceClose(timeout);
    }

    /** {@return whether the key has been wiped} (the vault closed or locked, or its mount ended) */
    public boolean isLocked() {
        return closed.get();
    }

    /** Wipes the master key and closes the cipher directory; for a vault never mounted, or after its mount. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            changes.close();
            key.close();
            Libc.close(store.rootFd);
            int busy = 0;
            for (ThreadBuffers s : scratches) {
                if (!s.free()) busy++;
            }
            scratches.clear();
            scratch.remove();
            if (busy > 0) LOG.debug("vault {}: {} threads' buffers still in use at close; left to the garbage collector", cipherDir, busy);
        }
    }

    /** How many threads' native memory this vault holds (for tests: none once closed). */
    int threadBuffers() {
        return scratches.size();
    }

    /**
     * This thread's native memory for this vault, for a request: the request's thread (a libfuse
     * worker) also gets a umask of 0 of its own ({@link Scratch#worker}), so that the cipher
     * files are made with the modes the kernel sent, the caller's umask applied once. Code that
     * also runs on the application's threads (the watcher's start) takes {@link #scratch} itself.
     */
    ThreadBuffers scratch() {
        Scratch.worker();
        return scratch.get();
    }

    // ---- nodes and names ---------------------------------------------------------------------

    private Node node(long ino) throws ErrnoException {
        if (locked) throw new ErrnoException(EIO);
        Node n = table.find(ino);
        if (n == null) throw new ErrnoException(ENOENT);
        return n;
    }

    Node directory(long ino) throws ErrnoException {
        Node n = node(ino);
        if (!n.isDirectory()) throw new ErrnoException(ENOTDIR);
        return n;
    }

    /** The table dropped {@code n}: a directory the kernel no longer knows is not watched any more. */
    void forgotten(Node n) {
        changes.forgotten(n);
    }

    /** Answers with the entry of {@code stored} in {@code parent}, whose attributes {@code st} holds. */
    private void entry(ThreadBuffers s, Node parent, int dfd, byte[] stored, byte[] plain, Stat st, EntryReply reply)
            throws ErrnoException {
        MemorySegment cname = cString(s.path2, stored);
        Node n = nodes.remember(parent, stored, plain, st, keys.of(s, dfd, cname, st.ino()));
        attrs.present(s, n, st, dfd, cname);
        reply.entry(n, CACHE); // the library counts the lookup: the table is the vault's lookups()
    }

    // ---- changes made behind the vault's back ------------------------------------------------

    /**
     * Starts telling the kernel about changes other programs make in the cipher directory (a
     * sync client adding, replacing or removing files), through {@code mount}'s notifications:
     * what it cached of a changed name or file is dropped, so the change is seen at once while
     * caching stays on. Called once the vault is mounted ({@link Vault#mount} does); stopped by
     * {@link #close}.
     *
     * @param mount this vault's mount
     * @throws IOException if the cipher directory cannot be watched (no fanotify, and no inotify instance to be had)
     */
    public void watch(InodeMount mount) throws IOException {
        this.mount = mount;
        xattrs.mountedAt(mount.mountpoint());
        changes.start(mount);
    }

    // ---- names: lookup, create, remove, rename -----------------------------------------------

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node p = directory(parent);
        if (name.is(DOT)) {
            Stat st = reply.attributes();
            attrs.stat(s, p, NO_HANDLE, st);
            reply.entry(p, CACHE);
            return;
        }
        int dfd = store.openDir(s, p);
        try {
            byte[] plain = name.bytes();
            byte[] stored = store.storedName(s, p, dfd, plain);
            changes.announce(stored);
            Stat st = reply.attributes();
            int rc = Libc.fstatat(dfd, cString(s.path2, stored), st.segment(), Libc.AT_SYMLINK_NOFOLLOW);
            if (rc < 0) {
                // A miss, which the kernel keeps (negative entries): another program's creation
                // of the name from now on is not the vault's own, and must reach the kernel.
                changes.remembered(NodeTable.key(stored));
                throw new ErrnoException(-rc);
            }
            entry(s, p, dfd, stored, plain, st, reply);
        } finally {
            store.closeDir(s, dfd);
        }
    }

    /** The node table counts the kernel's lookups; the vault answers with its nodes and never sees a forget. */
    @Override
    public LookupCounter lookups() {
        return table;
    }

    /** A name just created in a directory: plain and stored, and whether a .name file was written for it. */
    private record NewName(byte[] plain, byte[] stored, boolean longName) {}

    /** The system call that makes a new name, given it (stored, as a C string): a descriptor, 0, or -errno. */
    @FunctionalInterface
    private interface Making {
        int make(MemorySegment cname) throws ErrnoException;
    }

    /**
     * Creates {@code name} in {@code p} (open as {@code dfd}) by {@code making}: encrypts the name,
     * tells the watcher the vault is making it, writes a long name's {@code .name} file first, as
     * gocryptfs does, and removes that file again if the call fails.
     *
     * @return the name and what {@code making} returned (a descriptor, or 0)
     */
    private Made make(ThreadBuffers s, Node p, int dfd, Name name, Making making) throws ErrnoException {
        byte[] plain = name.bytes();
        byte[] stored = store.storedName(s, p, dfd, plain);
        changes.announce(stored);
        NewName nn = new NewName(plain, stored, store.writeLongName(s, p, dfd, stored, plain));
        int rc;
        try {
            rc = making.make(cString(s.path, stored));
        } catch (ErrnoException e) {
            if (nn.longName()) store.removeLongName(s, dfd, stored);
            throw e;
        }
        if (rc < 0) {
            if (nn.longName()) store.removeLongName(s, dfd, stored);
            throw new ErrnoException(-rc);
        }
        return new Made(nn, rc);
    }

    /** A name {@link #make} created, and what the call returned. */
    private record Made(NewName name, int result) {}

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node p = directory(parent);
        int dfd = store.openDir(s, p);
        try {
            NewName nn = make(s, p, dfd, name, cname -> Libc.mknodat(dfd, cname, mode, rdev)).name();
            MemorySegment cname = cString(s.path, nn.stored());
            attrs.own(s, request, dfd, cname);
            Stat st = reply.attributes();
            check(Libc.fstatat(dfd, cname, st.segment(), Libc.AT_SYMLINK_NOFOLLOW));
            entry(s, p, dfd, nn.stored(), nn.plain(), st, reply);
        } finally {
            store.closeDir(s, dfd);
        }
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node p = directory(parent);
        int dfd = store.openDir(s, p);
        try {
            boolean inheritsSgid = Attributes.setGroupId(s, dfd);
            int gid = inheritsSgid ? s.statView.gid() : request.gid();
            NewName nn = make(s, p, dfd, name, cname -> Libc.mkdirat(dfd, cname, 0700)).name();
            byte[] plain = nn.plain();
            byte[] stored = nn.stored();
            boolean longName = nn.longName();
            MemorySegment cname = cString(s.path, stored);
            byte[] iv = new byte[DIRIV_LENGTH];
            random.nextBytes(iv);
            int fd = Libc.openat(dfd, cname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
            try {
                int rc = fd < 0 ? fd : CipherDir.writeNew(s, fd, DIRIV, iv, 0444);
                if (rc == 0) rc = Libc.fchmod(fd, (mode & 07777) | (inheritsSgid ? S_ISGID : 0));
                if (rc < 0) {
                    if (fd >= 0) Libc.unlinkat(fd, cString(s.path2, DIRIV), 0);
                    Libc.unlinkat(dfd, cString(s.path, stored), Libc.AT_REMOVEDIR);
                    if (longName) store.removeLongName(s, dfd, stored);
                    throw new ErrnoException(-rc);
                }
                if (root && (request.uid() != 0 || gid != 0)) {
                    Libc.fchown(fd, request.uid(), gid);
                }
                Stat st = reply.attributes();
                check(Libc.fstat(fd, st.segment()));
                Node n = nodes.remember(p, stored, plain, st, keys.of(s, fd, st.ino()));
                n.dirIv = iv;
                n.seenCtime = ctime(st);
                reply.entry(n, CACHE);
            } finally {
                if (fd >= 0) Libc.close(fd);
            }
        } finally {
            store.closeDir(s, dfd);
        }
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node p = directory(parent);
        int dfd = store.openDir(s, p);
        try {
            byte[] encrypted = content.encryptSymlink(target);
            if (encrypted.length >= Scratch.PATH_MAX) throw new ErrnoException(ENAMETOOLONG);
            NewName nn = make(s, p, dfd, name, cname -> Libc.symlinkat(cString(s.cipher, encrypted), dfd, cname)).name();
            byte[] plain = nn.plain();
            byte[] stored = nn.stored();
            MemorySegment cname = cString(s.path, stored);
            attrs.own(s, request, dfd, cname);
            Stat st = reply.attributes();
            check(Libc.fstatat(dfd, cname, st.segment(), Libc.AT_SYMLINK_NOFOLLOW));
            Node n = nodes.remember(p, stored, plain, st, keys.of(s, dfd, cname, st.ino()));
            n.target = target.clone();
            n.seenCtime = ctime(st);
            st.setSize(target.length);
            reply.entry(n, CACHE);
        } finally {
            store.closeDir(s, dfd);
        }
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        if (n.target != null) {
            reply.target(n.target);
            return;
        }
        Place at = store.named(s, n);
        try {
            reply.target(attrs.target(s, n, at.dfd(), cString(s.path2, at.stored())));
        } finally {
            store.closeDir(s, at.dfd());
        }
    }

    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        Node p = directory(newParent);
        Place from = store.named(s, n);
        try {
            int dfd = store.openDir(s, p);
            try {
                NewName nn = make(s, p, dfd, newName,
                        cname -> Libc.linkat(from.dfd(), cString(s.path2, from.stored()), dfd, cname, 0)).name();
                byte[] plain = nn.plain();
                byte[] stored = nn.stored();
                Stat st = reply.attributes();
                check(Libc.fstatat(dfd, cString(s.path2, stored), st.segment(), Libc.AT_SYMLINK_NOFOLLOW));
                entry(s, p, dfd, stored, plain, st, reply);
            } finally {
                store.closeDir(s, dfd);
            }
        } finally {
            store.closeDir(s, from.dfd());
        }
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        nameChanges.unlink(request, parent, name, reply);
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        nameChanges.rmdir(request, parent, name, reply);
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws ErrnoException {
        nameChanges.rename(request, parent, name, newParent, newName, flags, reply);
    }

    // ---- attributes --------------------------------------------------------------------------

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        attrs.stat(s, n, fh, reply.attributes());
        reply.send(CACHE);
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        OpenFile h = openFiles.given(n, fh);
        // Its name is looked up, and its directory opened, before its content lock is taken (the
        // table's lock comes first); not at all when the handle serves (ftruncate).
        boolean byName = n != rootNode && (h == null || (toSet & (SET_MODE | SET_UID | SET_GID | SET_ATIME | SET_MTIME)) != 0);
        Place at = byName ? store.place(s, n) : null;
        try {
            // Held throughout, so that the watcher takes the change for the vault's own (see externalChange).
            Lock changing = n.content.writeLock();
            changing.lock();
            try {
                setattrLocked(s, request, n, h, at, attributes, toSet);
                attrs.stat(s, n, h, at, reply.attributes());
            } finally {
                changing.unlock();
            }
        } finally {
            if (at != null) store.closeDir(s, at.dfd());
        }
        reply.send(CACHE);
    }

    /** The changes of setattr to {@code n}, named {@code at} (null: the root, or no name left). */
    private void setattrLocked(ThreadBuffers s, Request request, Node n, OpenFile h, Place at, Stat attributes, int toSet)
            throws ErrnoException {
        if ((toSet & SET_SIZE) != 0) {
            if (n.type() != S_IFREG) throw new ErrnoException(EINVAL);
            truncate(s, n, h, at, attributes.size());
            if (h != null || at != null) attrs.dataChanged(s, request, h, at);
        }
        if ((toSet & (SET_MODE | SET_UID | SET_GID | SET_ATIME | SET_MTIME)) != 0) {
            if (at != null) {
                Attributes.change(s, at.dfd(), cString(s.path2, at.stored()), false, attributes, toSet);
            } else if (n == rootNode) {
                Attributes.change(s, Libc.AT_FDCWD, s.procPath(store.rootFd), true, attributes, toSet);
            } else {
                // A file with no name left: through an open descriptor's /proc link.
                OpenFile any = h != null && h.borrow() ? h : openFiles.borrow(n);
                if (any == null) throw new ErrnoException(ENOENT);
                try {
                    Attributes.change(s, Libc.AT_FDCWD, s.procPath(any.fd), true, attributes, toSet);
                } finally {
                    any.letGo();
                }
            }
        }
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        MemorySegment v = s.small;
        check(Libc.fstatvfs(store.rootFd, v));
        // Sizes in ciphertext blocks overstate what fits by the 32 bytes per 4 KiB of overhead (<1 %), as gocryptfs reports them.
        reply.statvfs().setBlockSize(v.get(JAVA_LONG, 0)).setFragmentSize(v.get(JAVA_LONG, 8))
                .setBlocks(v.get(JAVA_LONG, 16)).setBlocksFree(v.get(JAVA_LONG, 24))
                .setBlocksAvailable(v.get(JAVA_LONG, 32)).setFiles(v.get(JAVA_LONG, 40))
                .setFilesFree(v.get(JAVA_LONG, 48)).setFilesAvailable(v.get(JAVA_LONG, 56))
                .setFsid(v.get(JAVA_LONG, 64)).setFlags(v.get(JAVA_LONG, 72)).setNameMax(NAME_MAX);
        reply.send();
    }

    // ---- open files ----------------------------------------------------------------------------

    OpenFile handle(long fh) throws ErrnoException {
        if (locked) throw new ErrnoException(EIO);
        return openFiles.handle(fh);
    }

    /**
     * Opens the ciphertext file read-write whatever the caller asked: a write of part of a block
     * must read the rest of it. A file the vault may only read (mode 0444 for a non-root vault) is
     * opened read-only for a reader.
     */
    private int openCipher(ThreadBuffers s, int dfd, MemorySegment name, int flags, int createMode) throws ErrnoException {
        int passed = (flags & PASSED_FLAGS) | O_NOFOLLOW | O_CLOEXEC | (createMode >= 0 ? O_CREAT | (flags & O_EXCL) : 0);
        int fd = Libc.openat(dfd, name, O_RDWR | passed, Math.max(createMode, 0) & 07777);
        if (fd == -EACCES && (flags & O_ACCMODE) == O_RDONLY) {
            fd = Libc.openat(dfd, name, O_RDONLY | passed, 0);
        }
        return check(fd);
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        Place at = store.named(s, n);
        int fd;
        try {
            fd = openCipher(s, at.dfd(), cString(s.path2, at.stored()), flags, -1);
        } finally {
            store.closeDir(s, at.dfd());
        }
        int keep = OpenReply.KEEP_CACHE;
        try {
            check(Libc.fstat(fd, s.stat));
            // Another program replaced the file under this name, and the watcher has not told the
            // kernel yet: ESTALE makes the kernel look the name up again and open the new file.
            if (s.statView.ino() != n.backingIno) throw new ErrnoException(ESTALE);
            // A file cut short answers EIO to a reader; a writer may open it, to truncate it.
            if (n.type() == S_IFREG && (flags & O_ACCMODE) == O_RDONLY && !ContentCipher.isValidCipherSize(s.statView.size())) {
                attrs.reportCutShort(n, s.statView.size());
                throw new ErrnoException(EIO);
            }
            if (ctime(s.statView) != n.seenCtime) {
                // Changed since the vault last looked (perhaps rewritten in place by another
                // program): read its header again, and let the kernel drop the pages it keeps.
                Lock l = n.content.writeLock();
                l.lock();
                try {
                    n.fileId = null;
                } finally {
                    l.unlock();
                }
                keep = 0;
            }
        } catch (ErrnoException e) {
            Libc.close(fd);
            throw e;
        }
        OpenFile h = new OpenFile(n, fd, null);
        if ((flags & O_TRUNC) != 0) {
            try {
                truncate(s, n, h, null, 0);
            } catch (ErrnoException e) {
                Libc.close(fd);
                throw e;
            }
        }
        long fh = openFiles.register(h);
        if (!reply.open(fh, keep)) openFiles.closeHandle(fh);
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node p = directory(parent);
        int dfd = store.openDir(s, p);
        try {
            Made made = make(s, p, dfd, name, cname -> openCipher(s, dfd, cname, flags, mode & 07777));
            byte[] plain = made.name().plain();
            byte[] stored = made.name().stored();
            MemorySegment cname = cString(s.path, stored);
            int fd = made.result();
            attrs.own(s, request, dfd, cname);
            Stat st = reply.attributes();
            int rc = Libc.fstat(fd, st.segment());
            if (rc < 0) {
                Libc.close(fd);
                throw new ErrnoException(-rc);
            }
            Object key;
            try {
                key = keys.of(s, fd, st.ino());
            } catch (ErrnoException e) {
                Libc.close(fd);
                throw e;
            }
            Node n = nodes.remember(p, stored, plain, st, key);
            OpenFile h = new OpenFile(n, fd, null);
            try {
                if ((flags & O_TRUNC) != 0 && st.size() > 0) truncate(s, n, h, null, 0);
                attrs.present(s, n, st, dfd, cname);
            } catch (ErrnoException | RuntimeException e) {
                Libc.close(fd);
                throw e;
            }
            long fh = openFiles.register(h);
            if (!reply.created(n, CACHE, fh, OpenReply.KEEP_CACHE)) openFiles.closeHandle(fh);
        } finally {
            store.closeDir(s, dfd);
        }
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        openFiles.closeHandle(fh);
        reply.ok();
    }

    @Override
    public void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) {
        reply.ok(); // every write reached the ciphertext file before it was answered
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws ErrnoException {
        check(Libc.fsync(handle(fh).fd, dataOnly));
        reply.ok();
    }

    // ---- contents ------------------------------------------------------------------------------

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        OpenFile h = handle(fh);
        Lock l = h.node.content.readLock();
        l.lock();
        try {
            reply.data(contents.readLocked(s, h, size, offset));
        } finally {
            l.unlock();
        }
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        OpenFile h = handle(fh);
        int count = data.remaining();
        Lock l = h.node.content.writeLock();
        l.lock();
        try {
            contents.writeLocked(s, h, data, offset);
            if (Attributes.seen(s, h) && (s.statView.mode() & (S_ISUID | S_ISGID)) != 0) {
                try {
                    if (attrs.dataChanged(s, request, h, null)) Attributes.seen(s, h);
                } catch (ErrnoException e) {
                    // the data is written: the write succeeded; the bits stay as they were
                    LOG.warn("vault {}: clearing the set-ID bits of {} after a write failed: {}", cipherDir, store.plainPath(h.node),
                            Errno.name(e.errno()));
                }
            }
        } finally {
            l.unlock();
        }
        reply.written(count);
    }

    @Override
    public KernelSettings kernelSettings() {
        return CACHING;
    }

    /**
     * Truncates the file of {@code n} (through {@code h}, else opened by its name {@code at}, else
     * through any open handle) to {@code size} plaintext bytes.
     */
    private void truncate(ThreadBuffers s, Node n, OpenFile h, Place at, long size) throws ErrnoException {
        OpenFile via = h;
        boolean opened = false;
        boolean borrowed = false;
        if (via == null) {
            if (at != null) {
                via = new OpenFile(n, openCipher(s, at.dfd(), cString(s.path2, at.stored()), O_WRONLY, -1), null);
                opened = true;
            } else {
                via = openFiles.borrow(n);
                if (via == null) throw new ErrnoException(ENOENT);
                borrowed = true;
            }
        }
        Lock l = n.content.writeLock();
        l.lock();
        try {
            contents.truncateLocked(s, via, size);
            Attributes.seen(s, via);
        } finally {
            l.unlock();
            if (opened) Libc.close(via.fd);
            if (borrowed) via.letGo();
        }
    }

    // ---- extended attributes -------------------------------------------------------------------

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        xattrs.set(s, n, name, value, flags);
        reply.ok();
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws ErrnoException {
        if (xattrs.capabilityIgnored(name)) throw new ErrnoException(EOPNOTSUPP);
        ThreadBuffers s = scratch();
        Node n = node(ino);
        byte[] plain = xattrs.get(s, n, name);
        if (size == 0) reply.size(plain.length);
        else if (plain.length > size) reply.error(ERANGE);
        else reply.data(plain, 0, plain.length);
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        byte[] list = xattrs.list(s, n);
        if (size == 0) reply.size(list.length);
        else if (list.length > size) reply.error(ERANGE);
        else reply.data(list, 0, list.length);
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws ErrnoException {
        ThreadBuffers s = scratch();
        Node n = node(ino);
        xattrs.remove(s, n, name);
        reply.ok();
    }

    // ---- directories ---------------------------------------------------------------------------

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws ErrnoException {
        directories.opendir(request, ino, flags, reply);
    }

    /** READDIRPLUS lists each entry with its node and attributes (a stat each); READDIR by ciphertext inode number. */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws ErrnoException {
        if (reply.plus()) {
            directories.readdirplus(request, ino, fh, size, offset, reply);
        } else {
            directories.readdir(request, ino, fh, size, offset, reply);
        }
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        openFiles.closeHandle(fh);
        reply.ok();
    }

    @Override
    public void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws ErrnoException {
        check(Libc.fsync(handle(fh).fd, dataOnly));
        reply.ok();
    }
}
