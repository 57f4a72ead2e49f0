package dev.fusepanama.internal.inode;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.Flock;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountException.Reason;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Stat;
import dev.fusepanama.Statx;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_buf;
import dev.fusepanama.internal.bind.fuse_bufvec;
import dev.fusepanama.internal.bind.fuse_lowlevel_ops;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.dispatch.ViewCheck;
import dev.fusepanama.internal.mount.MountFlagsWatch;
import dev.fusepanama.internal.mount.MountSession;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An {@link InodeFileSystem} mounted through libfuse's low-level API: {@code fuse_session_new},
 * {@code fuse_session_loop_mt}, the notifications. Teardown answers deferred replies still
 * open before the session is freed ({@link Replies#dropAll}).
 */
public final class InodeSession extends MountSession implements InodeMount, InitListener, RequestScope {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InodeSession.class);
    private final InodeFileSystem fs;
    /** What an inode filesystem's methods receive that points into libfuse's memory ({@link ViewCheck}); replies are the request's. */
    private static final Set<Class<?>> VIEWS = Set.of(Request.class, Name.class,
            Stat.class, Flock.class, WriteBuffer.class,
            ConnectionInfo.class, Statx.class);
    private final Set<Operation> operations;
    private final LibFuseLowLevel ll;
    private final Replies replies;

    private InodeSession(LibFuse lib, Path mountpoint, MountOptions options, InodeFileSystem fs, Set<Operation> operations,
            KernelSettings settings, LookupCounter counter) {
        super(lib, mountpoint, options, settings);
        this.fs = fs;
        this.operations = operations;
        this.ll = lib.lowLevel;
        this.replies = new Replies(lib, live, this, settings.negativeTimeout(),
                settings.keepListings() ? OpenReply.CACHE_DIR | OpenReply.KEEP_CACHE : 0, counter);
        replies.passthrough(backing);
    }

    public static InodeSession mount(InodeFileSystem fs, Path mountpoint, MountOptions options) throws MountException {
        LibFuse lib = libfuse(mountpoint);
        Path at = checkedMountpoint(mountpoint);
        Set<Operation> ops = operationsFor(InodeUpcalls.OPERATIONS, ForwardingInodeFileSystem.innermost(fs).getClass(), options,
                fuse_lowlevel_ops.layout(lib.version), lib, at);
        KernelSettings settings = kernelSettings(fs, ops, mountpoint, options);
        LookupCounter counter = lookupCounter(fs, ops, mountpoint);
        InodeSession session = new InodeSession(lib, at, options, fs, ops, settings, counter);
        session.start();
        return session;
    }

    /**
     * The filesystem's lookup counter, asked once: with one, the library serves FORGET and its
     * batches itself and ends the counter's session after destroy, and a filesystem that implements {@code forget} as well is refused (it
     * would never be called).
     */
    private static LookupCounter lookupCounter(InodeFileSystem fs, Set<Operation> ops, Path mountpoint) throws MountException {
        LookupCounter counter = fs.lookups();
        if (counter == null) {
            return null;
        }
        Operation forget = InodeUpcalls.OPERATIONS.named("forget");
        if (ops.contains(forget)) {
            throw new MountException(Reason.INVALID_OPTIONS, mountpoint, ForwardingInodeFileSystem.innermost(fs).getClass().getName()
                    + " counts its lookups with " + counter.getClass().getName() + " (lookups()) and implements forget,"
                    + " which would never be called; drop forget");
        }
        ops.add(forget);
        ops.add(InodeUpcalls.OPERATIONS.named("forget_multi"));
        ops.add(InodeUpcalls.OPERATIONS.named("destroy")); // where the counter's session ends
        return counter;
    }

    /** The filesystem's {@link KernelSettings}, checked against the operations it implements; registers what the library answers for it. */
    private static KernelSettings kernelSettings(InodeFileSystem fs, Set<Operation> ops, Path mountpoint, MountOptions options)
            throws MountException {
        KernelSettings settings = fs.kernelSettings();
        checkedSettings(settings, fs, mountpoint, options, settings == null ? List.of() : settings.pathOnly(),
                "an inode filesystem gives its timeouts with each reply (Timeouts) and its page cache per open (OpenReply flags)");
        if (settings.noOpendir()) {
            for (String own : List.of("opendir", "releasedir")) {
                if (ops.contains(InodeUpcalls.OPERATIONS.named(own))) {
                    throw new MountException(Reason.INVALID_OPTIONS, mountpoint, fs.getClass().getName()
                            + " asks for KernelSettings.noOpendir but implements " + own + ", which would never be called;"
                            + " drop one or the other");
                }
            }
        }
        if (settings.noOpendir() || settings.keepListings()) {
            ops.add(InodeUpcalls.OPERATIONS.named("opendir")); // answered by the library (noOpendir) or given the flags
        }
        return settings;
    }

    /**
     * In init: asks the kernel for the settings it offers, decides once how OPENDIR is answered,
     * and records what was got for {@link #describe()}.
     */
    private void applySettings(NativeConnectionInfo c) {
        List<String> got = new ArrayList<>();
        List<String> not = new ArrayList<>();
        Replies.Opendir opendir = Replies.Opendir.FILESYSTEM;
        if (settings.noOpendir()) {
            if (c.isCapable(ConnectionInfo.CAP_NO_OPENDIR_SUPPORT)) {
                c.want(ConnectionInfo.CAP_NO_OPENDIR_SUPPORT);
                opendir = Replies.Opendir.NOT_IMPLEMENTED;
                got.add("no opendir");
            } else {
                opendir = Replies.Opendir.KEEP_LISTING;
                not.add("no opendir (the kernel does not offer it, Linux 5.1+; answered by the library instead)");
            }
        } else if (settings.keepListings() && !InodeUpcalls.OPERATIONS.named("opendir").isImplementedBy(ForwardingInodeFileSystem.innermost(fs).getClass())) {
            opendir = Replies.Opendir.KEEP_LISTING;
        }
        replies.opendir(opendir);
        if (settings.keepListings()) {
            got.add("listings kept");
        }
        if (settings.negativeTimeout() > 0) {
            got.add("negative entries " + formatSeconds(settings.negativeTimeout()));
        }
        applySettings(c, got, not);
        settingsSettled(got, not);
    }

    private static String formatSeconds(double s) {
        return (s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s)) + " s";
    }

    @Override
    protected long create(MemorySegment args) throws Throwable {
        InodeFileSystem served = checksViews ? ViewCheck.wrap(fs, InodeFileSystem.class, VIEWS) : fs;
        InodeUpcalls upcalls = new InodeUpcalls(served, replies, new ErrorMapper(ErrorMapper.INODE_LOGGER, mountpoint.toString()), this, this, this);
        var layout = fuse_lowlevel_ops.layout(lib.version);
        MemorySegment table = Operation.table(layout, operations, op -> upcalls.stub(op, arena), arena);
        if (ll.versionedNew) {
            return (long) ll.sessionNew.invokeExact(args.address(), table.address(), layout.byteSize(),
                    compiledVersion().address(), 0L);
        }
        return (long) ll.sessionNew.invokeExact(args.address(), table.address(), layout.byteSize(), 0L);
    }

    @Override
    protected EntryPoints entryPoints() {
        return new EntryPoints(ll.sessionMount, ll.sessionUnmount, ll.sessionDestroy, ll.sessionLoop, ll.sessionLoopMt);
    }

    @Override
    protected void retire() {
        replies.dropAll();
        MountFlagsWatch.forget(flags);
    }

    /** The mount's flags, followed from the first request that asks about them. */
    private volatile MountFlagsWatch.Watched flags;

    @Override
    public AccessTimes accessTimes() {
        MountFlagsWatch.Watched f = flags;
        if (f == null) {
            synchronized (this) {
                if ((f = flags) == null) flags = f = MountFlagsWatch.watch(mountpoint);
            }
        }
        return f.accessTimes();
    }

    @Override
    public InodeMount mount() {
        return this;
    }

    @Override
    protected boolean insideOwnRequest() {
        return Replies.serving(replies);
    }

    @Override
    protected int operationCount() {
        return operations.size();
    }

    @Override
    public void configure(NativeConnectionInfo connection, NativeFuseConfig none) {
        connection.apply(options, settings);
        applySettings(connection);
        negotiate(connection);
        checkIoUring(connection);
        if (ioUringActive() && !lib.version.atLeast(3, 19, 0)) {
            // libfuse up to 3.18 lets the queue thread flush its ring unlocked while a reply from
            // any other thread flushes it too: the ring's submission state is corrupted (spurious
            // "Failed to get a ring SQEs", doubled commits, a hung queue). Fixed in libfuse's
            // "serialise all ring submission under ring_lock", after 3.18.
            String version = lib.packageVersion;
            replies.refuseDeferral(() -> ioUringActive()
                    ? "libfuse " + version + " over io_uring takes replies only from the thread that received"
                            + " the request (fixed after 3.18); mount without ioUring to defer"
                    : null);
        }
    }

    @Override
    protected long session() {
        return handle;
    }

    // ---- notifications ------------------------------------------------------------------------------

    @Override
    public boolean invalidateInode(long ino, long offset, long length) throws IOException {
        return notify("invalidating inode " + ino, Kind.INVAL_INODE, ino, offset, length, null, null);
    }

    @Override
    public boolean invalidateEntry(long parent, byte[] name) throws IOException {
        return notify("invalidating a name in inode " + parent, Kind.INVAL_ENTRY, parent, 0, 0, name, null);
    }

    /** {@code FUSE_LL_EXPIRE_ONLY}. */
    private static final int EXPIRE_ONLY = 1;

    /** Expires where libfuse and the kernel can (kernel 6.2+), else invalidates, as documented. */
    @Override
    public boolean expireEntry(long parent, byte[] name) throws IOException {
        if (ll.notifyExpireEntry != null && !expireUnsupported) {
            try {
                return notify("expiring a name in inode " + parent, Kind.EXPIRE_ENTRY, parent, 0, 0, name, null);
            } catch (Unsupported e) {
                expireUnsupported = true;
            }
        }
        return invalidateEntry(parent, name);
    }

    private volatile boolean expireUnsupported;

    /** The kernel lacks FUSE_CAP_EXPIRE_ONLY (ENOSYS from libfuse 3.16+, EINVAL from the kernel before). */
    private static final class Unsupported extends IOException {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    @Override
    public boolean deleteEntry(long parent, long child, byte[] name) throws IOException {
        return notify("deleting a name in inode " + parent, Kind.DELETE, parent, child, 0, name, null);
    }

    @Override
    public boolean store(long ino, long offset, ByteBuffer data) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("offset " + offset);
        }
        return notify("storing data of inode " + ino, Kind.STORE, ino, offset, 0, null, data);
    }

    @Override
    public CompletableFuture<byte[]> retrieve(long ino, long offset, int size) throws IOException {
        if (offset < 0 || size < 0) {
            throw new IllegalArgumentException("offset " + offset + ", size " + size);
        }
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        long cookie = replies.retrieving(result);
        boolean asked = false;
        try {
            asked = notify("retrieving data of inode " + ino, Kind.RETRIEVE, ino, offset, size, null, null, cookie);
        } finally {
            if (!asked && replies.retrieved(cookie) != null) {
                result.complete(new byte[0]); // the kernel holds nothing for the inode (or the call failed: thrown)
            }
        }
        return result;
    }

    @Override
    public void incrementEpoch() throws IOException {
        if (ll.notifyIncrementEpoch == null) {
            throw new UnsupportedOperationException("incrementing the epoch needs libfuse 3.18 or later; this is "
                    + lib.packageVersion);
        }
        try {
            notify("incrementing the epoch", Kind.INC_EPOCH, 0, 0, 0, null, null);
        } catch (Unsupported e) {
            throw new UnsupportedOperationException("the kernel has no epoch notification (Linux 6.16+): " + e.getMessage());
        }
    }

    private enum Kind { INVAL_INODE, INVAL_ENTRY, EXPIRE_ENTRY, DELETE, STORE, RETRIEVE, INC_EPOCH }

    private boolean notify(String what, Kind kind, long ino, long a, long b, byte[] name, ByteBuffer data) throws IOException {
        return notify(what, kind, ino, a, b, name, data, 0);
    }

    private boolean notify(String what, Kind kind, long ino, long a, long b, byte[] name, ByteBuffer data, long cookie)
            throws IOException {
        if (name != null && (name.length == 0 || name.length > 255)) {
            throw new IllegalArgumentException("a name has 1 to 255 bytes, not " + name.length);
        }
        int rc = whileLive(what, (se, a1) -> {
            long cName = 0;
            if (name != null) {
                MemorySegment n = a1.allocate(name.length + 1L);
                MemorySegment.copy(name, 0, n, ValueLayout.JAVA_BYTE, 0, name.length);
                cName = n.address();
            }
            return switch (kind) {
                case INVAL_INODE -> (int) ll.notifyInvalInode.invokeExact(se, ino, a, b);
                case INVAL_ENTRY -> (int) ll.notifyInvalEntry.invokeExact(se, ino, cName, (long) name.length);
                case EXPIRE_ENTRY -> ll.expireTakesFlags
                        ? (int) ll.notifyExpireEntry.invokeExact(se, ino, cName, (long) name.length, EXPIRE_ONLY)
                        : (int) ll.notifyExpireEntry.invokeExact(se, ino, cName, (long) name.length);
                case DELETE -> (int) ll.notifyDelete.invokeExact(se, ino, a, cName, (long) name.length);
                case STORE -> store(se, ino, a, data, a1);
                case RETRIEVE -> (int) ll.notifyRetrieve.invokeExact(se, ino, b, a, cookie);
                case INC_EPOCH -> (int) ll.notifyIncrementEpoch.invokeExact(se);
            };
        });
        if (rc == -Errno.ENOENT) {
            return false;
        }
        if ((kind == Kind.EXPIRE_ENTRY || kind == Kind.INC_EPOCH) && (rc == -Errno.ENOSYS || rc == -Errno.EINVAL)) {
            throw new Unsupported(what + ": " + Errno.name(-rc));
        }
        if (rc < 0) {
            throw new IOException(what + " in " + mountpoint + " failed: " + Errno.name(-rc));
        }
        return true;
    }

    private int store(long se, long ino, long offset, ByteBuffer data, Arena arena) throws Throwable {
        int n = data.remaining();
        MemorySegment bytes = arena.allocate(Math.max(n, 1));
        MemorySegment.copy(MemorySegment.ofBuffer(data), 0, bytes, 0, n);
        long vecSize = replies.bufvecSize();
        MemorySegment vec = arena.allocate(vecSize, 8);
        fuse_bufvec.init(vec.address(), vecSize, n);
        fuse_buf.mem(vec.address() + fuse_bufvec.BUF, bytes.address());
        return (int) ll.notifyStore.invokeExact(se, ino, offset, vec.address(), 0);
    }

    @Override
    public String describe() {
        return super.describe().replace("fuse-panama mount", "fuse-panama inode mount");
    }
}
