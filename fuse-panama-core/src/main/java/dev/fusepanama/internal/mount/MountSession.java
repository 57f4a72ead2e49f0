package dev.fusepanama.internal.mount;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.Mount;
import dev.fusepanama.MountException;
import dev.fusepanama.MountException.Reason;
import dev.fusepanama.MountOptions;
import dev.fusepanama.internal.bind.FuseLog;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseUnavailableException;
import dev.fusepanama.internal.bind.fuse_args;
import dev.fusepanama.internal.bind.fuse_loop_config_v1;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.dispatch.ViewCheck;
import dev.fusepanama.internal.passthrough.BackingFiles;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativePollHandle;
import dev.fusepanama.libc.Arch;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mount's life, for either API: the session is created and mounted on the caller's thread
 * (so failures surface there), the session loop runs on a thread of its own, and teardown
 * happens on that same thread when the loop ends, however it ends: unmount, destroy (which calls
 * the filesystem's destroy) and freeing the arena that holds the upcall stubs. {@link #close()}
 * unmounts through the kernel, which ends the loop, and waits for that teardown. The two APIs
 * differ only in the libfuse calls that create, run and free a session: {@code internal.path.PathSession}
 * ({@code fuse_new}) and {@code internal.inode.InodeSession} ({@code fuse_session_new}).
 */
public abstract class MountSession implements Mount, NativePollHandle.Guard {
    private static final Logger LOG = LoggerFactory.getLogger(MountSession.class);

    protected final LibFuse lib;
    protected final Path mountpoint;
    protected final MountOptions options;
    protected final Arena arena = Arena.ofShared();
    private final CompletableFuture<Void> initialized = new CompletableFuture<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final ReentrantLock closing = new ReentrantLock();
    /**
     * Held to read {@link #handle} for a notification; the loop thread takes the write lock to
     * destroy it, so no notification ever reaches a freed session.
     */
    protected final ReentrantReadWriteLock live = new ReentrantReadWriteLock();
    /** Whether the filesystem's views expire with their calls ({@link ViewCheck}): read once, at mount. */
    protected final boolean checksViews = ViewCheck.enabled();
    /** The {@code struct fuse} or {@code struct fuse_session}; 0 before it exists and after it is freed. */
    protected volatile long handle;
    /** The FUSE connection's number (the mount's minor device), for aborting it; null if unknown. */
    private String connection;
    private volatile boolean closed;
    private volatile int loopResult;
    /** What the kernel and libfuse offer this mount beyond plain requests, and what it got. */
    private final KernelFeatures features;
    /** The mount's passthrough registrations (null if passthrough was not asked for or this libfuse has none). */
    protected final BackingFiles backing;

    /** What the filesystem lets the kernel cache or decide, as it stated them at mount ({@link #checkedSettings}). */
    protected final KernelSettings settings;
    /** What of {@link #settings} the mount got, and what not and why; settled in init. */
    private volatile String settingsGranted = "";

    protected MountSession(LibFuse lib, Path mountpoint, MountOptions options, KernelSettings settings) {
        this.lib = lib;
        this.mountpoint = mountpoint;
        this.options = options;
        this.settings = settings;
        features = new KernelFeatures(lib, mountpoint, options);
        backing = features.backing;
    }

    /**
     * The filesystem's {@link KernelSettings}, asked once: refused when null, when they hold a
     * setting the other API takes ({@code settingsOfTheOtherApi}, with what this API uses instead),
     * or a page-cache setting beside passthrough.
     */
    protected static KernelSettings checkedSettings(KernelSettings settings, Object fs, Path mountpoint, MountOptions options,
            List<String> settingsOfTheOtherApi, String insteadHere) throws MountException {
        String name = fs.getClass().getName();
        if (settings == null) {
            throw new MountException(Reason.INVALID_OPTIONS, mountpoint, name
                    + ".kernelSettings() returned null; KernelSettings.DEFAULTS asks for nothing");
        }
        if (!settingsOfTheOtherApi.isEmpty()) {
            throw new MountException(Reason.INVALID_OPTIONS, mountpoint, name + ".kernelSettings() asks for "
                    + String.join(", ", settingsOfTheOtherApi) + ", which this API cannot take: " + insteadHere);
        }
        List<String> pageCache = new ArrayList<>();
        if (settings.keepCache()) pageCache.add("keepCache");
        if (settings.autoCache()) pageCache.add("autoCache");
        if (settings.directIo()) pageCache.add("directIo");
        if (settings.writebackCache()) pageCache.add("writebackCache");
        if (options.passthrough() && !pageCache.isEmpty()) {
            throw new MountException(Reason.INVALID_OPTIONS, mountpoint, "passthrough cannot be combined with "
                    + String.join(", ", pageCache) + " (" + name + ".kernelSettings()): "
                    + (settings.writebackCache() ? "the kernel refuses the writeback cache beside it" : "each decides the page cache of every open file"));
        }
        return settings;
    }

    /**
     * In init, before the filesystem's own: asks for the capabilities of {@link #settings} the
     * kernel and libfuse offer, adding to {@code got} what the mount got and to {@code not} what
     * it did not and why.
     */
    protected final void applySettings(NativeConnectionInfo c, List<String> got, List<String> not) {
        if (settings.explicitDataInvalidation()) {
            if (c.isCapable(ConnectionInfo.CAP_EXPLICIT_INVAL_DATA)) {
                c.want(ConnectionInfo.CAP_EXPLICIT_INVAL_DATA);
                c.unwant(ConnectionInfo.CAP_AUTO_INVAL_DATA);
                got.add("explicit data invalidation");
            } else {
                not.add("explicit data invalidation (the kernel does not offer it, Linux 5.2+)");
            }
        }
        if (settings.handleKillprivV2()) {
            if (!lib.version.atLeast(3, 17, 1)) {
                not.add("handle_killpriv_v2 (libfuse " + lib.packageVersion + " has none, 3.17.1+)");
            } else if (!c.isCapable(ConnectionInfo.CAP_HANDLE_KILLPRIV_V2)) {
                not.add("handle_killpriv_v2 (the kernel does not offer it, Linux 5.11+)");
            } else {
                c.want(ConnectionInfo.CAP_HANDLE_KILLPRIV_V2);
                got.add("handle_killpriv_v2");
            }
        }
        if (settings.writebackCache()) {
            if (!c.isCapable(ConnectionInfo.CAP_WRITEBACK_CACHE)) {
                not.add("writeback cache (the kernel does not offer it, Linux 3.15+)");
            } else {
                c.want(ConnectionInfo.CAP_WRITEBACK_CACHE);
                got.add("writeback cache");
            }
        }
    }

    /** Records what {@link #applySettings} and the API's own found, for {@link #describe()}. */
    protected final void settingsSettled(List<String> got, List<String> not) {
        if (!not.isEmpty()) {
            LOG.debug("{}: kernel settings without {}", mountpoint, String.join(", ", not)); // describe() says it too
        }
        String text = String.join(", ", got);
        if (!not.isEmpty()) text += (text.isEmpty() ? "" : "; ") + "without " + String.join(", ", not);
        settingsGranted = text;
    }

    /** The {@code struct fuse_session} of {@link #handle}, whose /dev/fuse descriptor the backing-file ioctls go to. */
    protected abstract long session() throws Throwable;

    /**
     * In init, before the filesystem's own: asks for passthrough where the kernel offers it and
     * this process may use it, and records what the mount got.
     */
    protected final void negotiate(NativeConnectionInfo connection) {
        if (options.requestTimeoutSeconds() > 0) {
            connection.requestTimeout(options.requestTimeoutSeconds()); // checked against the release at start
        }
        features.negotiatePassthrough(connection, () -> {
            try {
                return (int) lib.sessionFd.invokeExact(session());
            } catch (Throwable t) {
                throw new IllegalStateException("cannot find the session's /dev/fuse descriptor", t);
            }
        });
    }

    /** In init: whether the kernel offers io_uring where it was asked for ({@link KernelFeatures#checkIoUring}). */
    protected final void checkIoUring(NativeConnectionInfo connection) {
        features.checkIoUring(connection);
    }

    /** Whether requests travel over io_uring: asked for, and nothing has said otherwise (final once init has run). */
    protected final boolean ioUringActive() {
        return features.ioUringActive();
    }

    /** The {@code -o} options for libfuse: the mount's, and the transport's where it can be had. */
    private List<String> sessionOptions() {
        List<String> o = new ArrayList<>(options.libfuseOptions());
        if (ioUringActive()) {
            o.add("io_uring");
            if (options.ioUringQueueDepth() > 0) o.add("io_uring_q_depth=" + options.ioUringQueueDepth());
        }
        return o;
    }

    /** The loaded libfuse, or the MountException saying what is wrong (for a mount at {@code mountpoint}, if not null). */
    public static LibFuse libfuse(Path mountpoint) throws MountException {
        try {
            return LibFuse.get();
        } catch (LibFuseUnavailableException e) {
            Reason reason = e.getCause() instanceof Arch.UnsupportedArchitectureException
                    ? Reason.UNSUPPORTED_ARCHITECTURE : Reason.LIBFUSE_UNAVAILABLE;
            throw new MountException(reason, mountpoint, e.getMessage(), e);
        }
    }

    /** Whether this process could mount now: /dev/fuse usable (or fusermount3 for a user), libfuse loaded. */
    public static void checkReady() throws MountException {
        Preflight.checkDevice(Libc.geteuid() == 0);
        libfuse(null);
    }

    protected static Path checkedMountpoint(Path mountpoint) throws MountException {
        Path at = Preflight.checkMountpoint(mountpoint.toAbsolutePath().normalize(), MountTable.read());
        Preflight.checkDevice(Libc.geteuid() == 0);
        return at;
    }

    /**
     * The operations to register, for either API: those the filesystem's class
     * {@code implementation} implements (and the library's own), release for a mount that may
     * pass files through (their backing is dropped there), less the ones whose slot the loaded
     * release's struct {@code loaded} lacks (operations libfuse added later), which are logged.
     */
    protected static Set<Operation> operationsFor(Operation.Table table, Class<?> implementation, MountOptions options,
            StructLayout loaded, LibFuse lib, Path mountpoint) {
        Set<Operation> ops = table.implementedBy(implementation);
        if (options.passthrough()) {
            ops.add(table.named("release"));
        }
        Set<String> slots = new HashSet<>();
        loaded.memberLayouts().forEach(l -> slots.add(l.name().orElseThrow()));
        List<String> absent = new ArrayList<>();
        ops.removeIf(op -> {
            boolean missing = !slots.contains(op.cName());
            if (missing) absent.add(op.cName());
            return missing;
        });
        if (!absent.isEmpty()) {
            LOG.info("{}: libfuse {} has no {} operation; the filesystem's is not called", mountpoint, lib.packageVersion,
                    String.join(", ", absent));
        }
        return ops;
    }

    /** Creates the session from the command line {@code args} (its upcall stubs in {@link #arena}); 0 if libfuse rejected the options. */
    protected abstract long create(MemorySegment args) throws Throwable;

    /**
     * libfuse's entry points for one API's handle (a {@code struct fuse} for paths, a
     * {@code struct fuse_session} for inodes), all taking the handle first: mount (handle,
     * mountpoint) → 0 or failure; unmount and destroy (handle); loop (handle) and the
     * multi-threaded loop (handle, config: a config object or a v1 struct) → the loop's result.
     */
    public record EntryPoints(MethodHandle mount, MethodHandle unmount, MethodHandle destroy, MethodHandle loop,
            MethodHandle loopMt) {}

    /** This API's {@link EntryPoints}. */
    protected abstract EntryPoints entryPoints();

    private int loop(long handle, long config, boolean singleThreaded) throws Throwable {
        EntryPoints e = entryPoints();
        return singleThreaded ? (int) e.loop().invokeExact(handle) : (int) e.loopMt().invokeExact(handle, config);
    }

    /** After the loop, under the write lock: whatever must be settled before the session is freed. */
    protected void retire() {}

    /** After the loop: unmount and free the session (the filesystem's destroy runs here). */
    private void teardown(long handle) throws Throwable {
        entryPoints().unmount().invokeExact(handle);
        entryPoints().destroy().invokeExact(handle);
    }

    /** Whether the current thread is a libfuse worker serving a request of this mount. */
    protected abstract boolean insideOwnRequest();

    /** How many operations the filesystem registered, for {@link #describe()}. */
    protected abstract int operationCount();

    protected final void start() throws MountException {
        if (options.requestTimeoutSeconds() > 0 && !lib.version.atLeast(3, 18, 0)) {
            throw new MountException(Reason.INVALID_OPTIONS, mountpoint, "requestTimeout needs libfuse 3.18 or later;"
                    + " this is " + lib.packageVersion);
        }
        boolean mounted = false;
        try {
            MemorySegment args = arguments();
            FuseLog.capture();
            try {
                handle = create(args);
                if (handle == 0) {
                    throw new MountException(Reason.INVALID_OPTIONS, mountpoint, "libfuse rejected the options "
                            + sessionOptions() + ": " + orUnknown(FuseLog.captured()));
                }
                int rc = (int) entryPoints().mount().invokeExact(handle, arena.allocateFrom(mountpoint.toString()).address());
                if (rc != 0) {
                    String why = FuseLog.captured();
                    entryPoints().destroy().invokeExact(handle);
                    handle = 0;
                    throw mountFailed(why);
                }
                mounted = true;
                connection = MountTable.read().find(mountpoint).map(e -> e.device().substring(e.device().indexOf(':') + 1)).orElse(null);
            } finally {
                FuseLog.captured();
            }
            Thread loop = new Thread(this::serve, "fuse-panama " + mountpoint);
            loop.setDaemon(true);
            loop.start();
            awaitInit();
            awaitInitReply();
            features.settle(connection);
            MountRegistry.add(this);
            LOG.debug("mounted {} with {} operations", mountpoint, operationCount());
        } catch (MountException e) {
            abandon(mounted);
            throw e;
        } catch (Throwable t) {
            abandon(mounted);
            throw new MountException(Reason.MOUNT_FAILED, mountpoint, "mounting " + mountpoint + " failed: " + t, t);
        }
    }

    /**
     * The filesystem's init has run, but libfuse replies to the kernel's INIT only after it, and
     * in between it starts the io_uring queues (which may fail, see {@link #checkIoUring}) and the
     * kernel sets the readahead from the reply and starts taking backing files. A stat of the
     * mountpoint returns once the kernel has that reply (every request waits for it), so what
     * {@link #describe} says and {@link KernelFeatures#settle} writes and finds is
     * final. libfuse 3.18 also takes notifications only from then on ({@code got_init} is set just
     * before the reply; earlier releases set it before calling init): without the wait, a
     * notification sent right after mount returned could fail with ENOTCONN. A plain stat (no
     * birth time asked, so a getattr of the root, never a statx): the cheapest request, where a
     * statfs may be slow. If the kernel refused the reply (libfuse 3.18 can refuse its own INIT
     * after init ran) or the connection ended, the mount fails.
     */
    private void awaitInitReply() throws MountException {
        if (!features.settleAfterInitReply(connection)) {
            return;
        }
        int rc;
        try (Arena probe = Arena.ofConfined()) {
            rc = Libc.fstatat(Libc.AT_FDCWD, probe.allocateFrom(mountpoint.toString()),
                    probe.allocate(dev.fusepanama.libc.structs.stat.LAYOUT), 0);
        }
        if (rc == -Errno.ECONNREFUSED || rc == -Errno.ENOTCONN) {
            throw new MountException(Reason.MOUNT_FAILED, mountpoint, "mounting " + mountpoint + " failed: the kernel's "
                    + "connection ended right after init (" + Errno.name(-rc) + "; the logger dev.fusepanama.libfuse says why)");
        }
        if (rc < 0) {
            LOG.debug("stat of {} after init: {}", mountpoint, Errno.name(-rc));
        }
    }

    private MountException mountFailed(String libfuseMessage) {
        MountTable table = MountTable.read();
        if (table.find(mountpoint).isPresent()) {
            return new MountException(Reason.ALREADY_MOUNTED, mountpoint,
                    "mountpoint " + mountpoint + " became a mount point while mounting: " + orUnknown(libfuseMessage));
        }
        return new MountException(Reason.MOUNT_FAILED, mountpoint, "mounting " + mountpoint + " failed: "
                + orUnknown(libfuseMessage)
                + (options.allowOther() ? " (allow_other for non-root needs user_allow_other in /etc/fuse.conf)" : ""));
    }

    private static String orUnknown(String s) {
        return s == null || s.isBlank() ? "no reason given by libfuse" : s;
    }

    /** After a failed start: undo what was done, never throwing over the original failure. */
    private void abandon(boolean mounted) {
        if (mounted) {
            try {
                detach(true);
            } catch (Throwable t) {
                LOG.warn("could not unmount {} after a failed mount", mountpoint, t);
            }
            try {
                if (!terminated.await(10, TimeUnit.SECONDS)) {
                    LOG.warn("the loop of the failed mount {} did not end; native memory stays allocated", mountpoint);
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } else {
            arena.close();
        }
        closed = true;
    }

    /**
     * {@code struct libfuse_version {major, minor, hotfix, padding}} for 3.17's versioned
     * constructors: the release whose layouts we use, as the inline wrappers in libfuse's
     * headers pass the release a program was compiled against. Never NULL (3.17.x dereferences it).
     */
    protected final MemorySegment compiledVersion() {
        MemorySegment v = arena.allocate(ValueLayout.JAVA_INT, 4);
        v.setAtIndex(ValueLayout.JAVA_INT, 0, lib.version.major());
        v.setAtIndex(ValueLayout.JAVA_INT, 1, lib.version.minor());
        v.setAtIndex(ValueLayout.JAVA_INT, 2, lib.version.patch());
        return v;
    }

    /** {@code fuse-panama -o opt,opt,...}, kept alive by the arena (libfuse may keep pointers into it). */
    private MemorySegment arguments() {
        List<String> argv = new ArrayList<>(List.of("fuse-panama", "-o", String.join(",", sessionOptions())));
        MemorySegment array = arena.allocate(ValueLayout.ADDRESS, argv.size() + 1);
        for (int i = 0; i < argv.size(); i++) {
            array.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(argv.get(i)));
        }
        MemorySegment args = arena.allocate(fuse_args.LAYOUT);
        fuse_args.set(args, argv.size(), array);
        return args;
    }

    private void awaitInit() throws MountException, InterruptedException {
        Duration timeout = options.mountTimeout();
        try {
            initialized.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new MountException(Reason.TIMEOUT, mountpoint, "the kernel did not initialise the mount at "
                    + mountpoint + " within " + timeout + "; is another process holding the mountpoint?", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof MountException m) {
                throw m;
            }
            throw new MountException(Reason.INIT_FAILED, mountpoint,
                    "the filesystem's init failed for " + mountpoint + ": " + cause, cause);
        }
    }

    /** Called once, from the session's init: {@code failure} is what the filesystem's init threw, or null. */
    public void initialized(Throwable failure) {
        if (failure == null) {
            initialized.complete(null);
        } else {
            LOG.error("init of the filesystem at {} failed; unmounting", mountpoint, failure);
            initialized.completeExceptionally(failure);
        }
    }

    /** The loop thread: serve until the session ends, then tear down. */
    private void serve() {
        int rc = -1;
        try {
            rc = runLoop();
        } catch (Throwable t) {
            LOG.error("the session loop of {} failed", mountpoint, t);
        }
        loopResult = rc;
        initialized.completeExceptionally(new MountException(Reason.MOUNT_FAILED, mountpoint,
                "the session at " + mountpoint + " ended before the kernel initialised it (loop result " + rc + ")"));
        // Retire the session under the write lock (no notification or deferred reply is using it
        // then, and none can start after), but free it outside the lock: freeing calls the
        // filesystem's destroy, which may wait for threads that are waiting for the lock.
        long retired;
        live.writeLock().lock();
        try {
            retired = handle;
            handle = 0;
            retire();
        } finally {
            live.writeLock().unlock();
        }
        try {
            teardown(retired);
        } catch (Throwable t) {
            LOG.error("tearing down {} failed", mountpoint, t);
        }
        if (backing != null) {
            backing.ended();
        }
        arena.close();
        MountRegistry.remove(this);
        terminated.countDown();
        LOG.debug("session at {} ended (loop result {})", mountpoint, rc);
    }

    private int runLoop() throws Throwable {
        if (options.singleThreaded()) {
            return loop(handle, 0, true);
        }
        if (lib.version.loopSymbol().usesConfigObject()) {
            long config = (long) lib.loopCfgCreate.invokeExact();
            try {
                lib.loopCfgSetMaxThreads.invokeExact(config, options.maxThreads());
                lib.loopCfgSetIdleThreads.invokeExact(config, options.maxIdleThreads());
                return loop(handle, config, false);
            } finally {
                lib.loopCfgDestroy.invokeExact(config);
            }
        }
        MemorySegment config = arena.allocate(fuse_loop_config_v1.LAYOUT);
        fuse_loop_config_v1.set(config, false, options.maxIdleThreads());
        return loop(handle, config.address(), false);
    }

    /** A call into libfuse about this mount (a notification), given its handle and an arena for its arguments. */
    protected interface LiveCall {
        int call(long handle, Arena arguments) throws Throwable;
    }

    /**
     * Makes {@code call} while the mount lives, from outside its own requests (a notification
     * from inside one could wait for itself): under the read lock that teardown takes to write,
     * so the handle stays valid throughout.
     *
     * @param what what the call does, for the messages ("invalidating /a/b")
     * @return the call's result: 0 or a negative errno
     * @throws IllegalStateException from inside one of the mount's requests, or once it has ended
     */
    protected final int whileLive(String what, LiveCall call) {
        if (insideOwnRequest()) {
            throw new IllegalStateException(what + " from inside one of the filesystem operations of " + mountpoint
                    + " could wait for itself; call it from another thread");
        }
        live.readLock().lock();
        try (Arena arguments = Arena.ofConfined()) {
            long h = handle;
            if (h == 0 || !isMounted()) {
                throw new IllegalStateException("the mount at " + mountpoint + " has ended");
            }
            return call.call(h, arguments);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            live.readLock().unlock();
        }
    }

    /** Holds the session alive (for a poll notification): false, holding nothing, once it has ended. */
    @Override
    public final boolean enterLive() {
        live.readLock().lock();
        if (handle == 0) {
            live.readLock().unlock();
            return false;
        }
        return true;
    }

    @Override
    public final void exitLive() {
        live.readLock().unlock();
    }

    @Override
    public Path mountpoint() {
        return mountpoint;
    }

    @Override
    public boolean isMounted() {
        return terminated.getCount() > 0;
    }

    @Override
    public void close() throws MountException {
        end(false, options.closeTimeout());
    }

    @Override
    public void close(Duration timeout) throws MountException {
        end(false, timeout);
    }

    @Override
    public void unmountLazily() throws MountException {
        end(true, options.closeTimeout());
    }

    @Override
    public boolean forceClose(Duration timeout) throws MountException {
        if (insideOwnRequest()) {
            throw new IllegalStateException("force-closing the mount at " + mountpoint + " from inside one of its "
                    + "filesystem operations would wait for itself; do it from another thread");
        }
        closing.lock();
        try {
            if (terminated.getCount() > 0 || stillOurs()) {
                detach(true);
            }
            if (terminated.getCount() > 0) {
                abortConnection();
            }
            boolean ended = terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
            closed = true;
            return ended;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !isMounted();
        } finally {
            closing.unlock();
        }
    }

    private void end(boolean lazy, Duration timeout) throws MountException {
        if (closed) {
            return;
        }
        if (insideOwnRequest()) {
            throw new IllegalStateException("closing the mount at " + mountpoint + " from inside one of its "
                    + "filesystem operations would wait for itself; close it from another thread");
        }
        closing.lock();
        try {
            if (closed) {
                return;
            }
            // Also after the session ended by itself (connection aborted, process killed): a stale
            // kernel mount may remain, and it is ours to remove.
            boolean wasMounted = (terminated.getCount() > 0 || stillOurs()) && detach(lazy);
            if (lazy) {
                closed = true;
                return;
            }
            if (!terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                if (!wasMounted && abortConnection() && terminated.await(5, TimeUnit.SECONDS)) {
                    closed = true;
                    return;
                }
                throw new MountException(Reason.BUSY, mountpoint, wasMounted
                        ? "unmounted " + mountpoint + ", but filesystem calls still running have not returned after "
                                + timeout + "; its resources are released when they return"
                        : mountpoint + " was detached (lazily) but is still in use by open files; the session "
                                + "ends when they are closed");
            }
            closed = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MountException(Reason.UNMOUNT_FAILED, mountpoint, "interrupted while unmounting " + mountpoint, e);
        } finally {
            closing.unlock();
        }
    }

    /** Whether the kernel still has this session's mount (same connection) at the mountpoint. */
    private boolean stillOurs() {
        return connection != null && MountTable.read().find(mountpoint)
                .map(e -> e.device().endsWith(":" + connection)).orElse(false);
    }

    /**
     * Ends the FUSE connection through fusectl ({@link ConnectionAbort}, root only): every pending
     * and future request fails with ENOTCONN, and the loop returns. The last resort for a mount
     * that was detached but is held by processes that will not let go.
     */
    boolean abortConnection() {
        if (connection == null) {
            return false;
        }
        try {
            ConnectionAbort.abort(connection);
            LOG.warn("aborted the FUSE connection of {}", mountpoint);
            return true;
        } catch (IOException e) {
            LOG.warn("cannot abort the FUSE connection of {} through fusectl: {}", mountpoint, e.getMessage());
            return false;
        }
    }

    /**
     * Unmounts through the kernel: the connection ends and the loop returns.
     *
     * @return true if it was mounted, false if it had already been unmounted or detached
     */
    private boolean detach(boolean lazy) throws MountException {
        int rc = Unmount.unmount(mountpoint, lazy);
        if (rc == 0) {
            return true;
        }
        int errno = -rc;
        if (errno == Errno.EINVAL || errno == Errno.ENOENT) {
            return false; // not mounted any more: unmounted or detached from outside
        }
        if (errno == Errno.EBUSY) {
            throw new MountException(Reason.BUSY, mountpoint, "cannot unmount " + mountpoint
                    + ": it is busy (a process has a file open or its working directory there; see fuser -vm "
                    + mountpoint + "). Close those first, or unmount lazily.");
        }
        throw new MountException(Reason.UNMOUNT_FAILED, mountpoint,
                "cannot unmount " + mountpoint + ": " + Errno.name(errno));
    }

    @Override
    public boolean awaitUnmount(Duration timeout) throws InterruptedException {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void awaitUnmount() throws InterruptedException {
        terminated.await();
    }

    @Override
    public String describe() {
        return "fuse-panama mount at " + mountpoint + " (libfuse " + lib.packageVersion + ", "
                + operationCount() + " operations, " + features.describe() + ", "
                + (settingsGranted.isEmpty() ? "" : "kernel settings: " + settingsGranted + ", ")
                + (checksViews ? "views checked (" + ViewCheck.PROPERTY + "), " : "")
                + (options.requestTimeoutSeconds() > 0 ? "request timeout " + options.requestTimeoutSeconds() + " s, " : "")
                + (isMounted() ? "mounted" : "ended, loop result " + loopResult) + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
