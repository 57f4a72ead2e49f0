package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.passthrough.BackingFiles;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the replies of one session share: libfuse's reply functions, the release's
 * {@code fuse_file_info} bits, and the deferred replies still unanswered. A deferred reply is
 * sent under the session's read lock; the session's teardown takes the write lock, answers every
 * deferred reply still open with an error ({@link #dropAll}) and only then frees the session,
 * so no reply ever reaches freed memory.
 */
public final class Replies {
    private static final Logger LOG = LoggerFactory.getLogger(Replies.class);

    final LibFuseLowLevel ll;
    final fuse_file_info.Bits fileInfoBits;
    final long fileInfoSize;
    final long bufvecSize;
    final long bufSize;
    final Object session;
    /** The mount's passthrough registrations; null where files are not passed through. */
    volatile BackingFiles backing;
    private final ReentrantReadWriteLock live;
    /** Deferred replies not yet answered (each keeps the memory it is built in). */
    private final Set<NativeReply> deferred = ConcurrentHashMap.newKeySet();
    /** Retrievals of the kernel's cached data not yet answered, by the cookie sent with each. */
    private final ConcurrentHashMap<Long, CompletableFuture<byte[]>> retrievals = new ConcurrentHashMap<>();
    private final AtomicLong nextCookie = new AtomicLong(1);

    /** Files of this mount may be passed through, registered in {@code backing}. */
    public void passthrough(BackingFiles backing) {
        this.backing = backing;
    }

    /**
     * @param session the mount these replies belong to (to tell its requests from another mount's)
     * @param negativeTimeout seconds a lookup's ENOENT is cached, 0 for not at all
     * @param dirOpenFlags open flags added to every opendir answer
     * @param counter what counts the lookups of the entries sent, or null (the filesystem counts)
     */
    public Replies(LibFuse lib, ReentrantReadWriteLock live, Object session, double negativeTimeout, int dirOpenFlags,
            LookupCounter counter) {
        this.counter = counter;
        this.negativeTimeout = negativeTimeout;
        this.dirOpenFlags = dirOpenFlags;
        this.ll = lib.lowLevel;
        this.fileInfoBits = fuse_file_info.bits(lib.version);
        this.fileInfoSize = fuse_file_info.layout(lib.version).byteSize();
        this.bufvecSize = lib.layouts.bufvecSize();
        this.bufSize = lib.layouts.bufSize();
        this.live = live;
        this.session = session;
    }

    /**
     * Why {@link NativeReply#defer} is refused on this mount, or null: asked each time, because
     * the transport is only settled once libfuse has started (or failed to start) its queues.
     */
    private volatile Supplier<String> deferralRefused = () -> null;

    /** How the library answers OPENDIR for a filesystem of {@code KernelSettings.noOpendir}; decided once, in init. */
    public enum Opendir {
        /** The filesystem answers (or libfuse, if it has no opendir). */
        FILESYSTEM,
        /** ENOSYS: the kernel then opens directories by itself. */
        NOT_IMPLEMENTED,
        /** The kernel cannot open directories by itself: fh 0, the listing kept. */
        KEEP_LISTING
    }

    /** Decided in init ({@link #opendir(Opendir)}), before the first request that reads it. */
    private volatile Opendir opendir;
    /** Open flags added to every opendir answer ({@code OpenReply.CACHE_DIR | KEEP_CACHE}), or 0. */
    final int dirOpenFlags;
    /** Seconds a lookup's ENOENT is cached as a negative entry; 0 for not at all. */
    final double negativeTimeout;
    /** Counts the lookups of the entries sent (the filesystem's {@code lookups()}); null if the filesystem counts. */
    final LookupCounter counter;

    /**
     * Counts one lookup of {@code inode} for an entry about to be sent: true if there is nothing
     * to count or it was counted, false if the inode was dropped meanwhile (send no entry of it).
     */
    boolean count(Inode inode) {
        return counter == null || counter.count(inode);
    }

    /** Takes back one lookup counted for an entry the kernel did not take. */
    void uncount(long nodeId) {
        if (counter == null) return;
        try {
            counter.forget(nodeId, 1);
        } catch (RuntimeException e) {
            LOG.warn("taking back a lookup of node {} threw", nodeId, e);
        }
    }

    /** Decides, once, how OPENDIR is answered. */
    public void opendir(Opendir how) {
        if (opendir != null) throw new IllegalStateException("OPENDIR's answer is decided once, in init");
        opendir = how;
    }

    /** How OPENDIR is answered ({@link Opendir#FILESYSTEM} until init has decided). */
    Opendir opendir() {
        Opendir o = opendir;
        return o == null ? Opendir.FILESYSTEM : o;
    }

    /** Sets what says whether (and why) replies may not be deferred on this mount. */
    public void refuseDeferral(Supplier<String> why) {
        this.deferralRefused = why;
    }

    /** Why replies may not be deferred now, or null. */
    String deferralRefused() {
        return deferralRefused.get();
    }

    void deferred(NativeReply reply) {
        deferred.add(reply);
    }

    void answered(NativeReply reply) {
        deferred.remove(reply);
    }

    ReentrantReadWriteLock.ReadLock lock() {
        return live.readLock();
    }

    /** Whether the current thread is serving one of this session's requests. */
    public static boolean serving(Replies replies) {
        return InodeThread.serving(replies);
    }

    public long bufvecSize() {
        return bufvecSize;
    }

    /** A retrieval about to be asked for: its cookie. */
    public long retrieving(CompletableFuture<byte[]> result) {
        long cookie = nextCookie.getAndIncrement();
        retrievals.put(cookie, result);
        return cookie;
    }

    /** The retrieval of {@code cookie}, no longer pending (null if unknown). */
    public CompletableFuture<byte[]> retrieved(long cookie) {
        return retrievals.remove(cookie);
    }

    /**
     * Answers every deferred reply still open with EIO, so the session can be freed; later
     * answers to them are dropped. Fails the retrievals still waiting. Called with the session's
     * write lock held.
     */
    public void dropAll() {
        int dropped = 0;
        for (NativeReply r : deferred) {
            try {
                if (r.drop(Errno.EIO)) {
                    dropped++;
                }
            } catch (RuntimeException e) { // one reply's failure leaves the others to be answered, and the teardown to run
                LOG.warn("answering a deferred reply at the session's end threw", e);
            }
        }
        deferred.clear();
        if (dropped > 0) {
            LOG.warn("the session ended with {} deferred replies unanswered; answered them with EIO", dropped);
        }
        for (Long cookie : retrievals.keySet()) {
            CompletableFuture<byte[]> r = retrievals.remove(cookie);
            if (r != null) {
                r.completeExceptionally(new IllegalStateException("the mount ended before the kernel answered the retrieval"));
            }
        }
    }
}
