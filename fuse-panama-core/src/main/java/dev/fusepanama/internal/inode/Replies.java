package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_file_info;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
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
    private final ReentrantReadWriteLock live;
    private final Set<NativeReply> deferred = ConcurrentHashMap.newKeySet();

    /** @param session the mount these replies belong to (to tell its requests from another mount's) */
    public Replies(LibFuse lib, ReentrantReadWriteLock live, Object session) {
        this.ll = lib.lowLevel;
        this.fileInfoBits = fuse_file_info.bits(lib.version);
        this.fileInfoSize = fuse_file_info.layout(lib.version).byteSize();
        this.bufvecSize = lib.layouts.bufvecSize();
        this.bufSize = lib.layouts.bufSize();
        this.live = live;
        this.session = session;
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

    /** Deferred replies not yet sent. */
    public int outstanding() {
        return deferred.size();
    }

    /**
     * Answers every deferred reply still open with EIO, so the session can be freed; later
     * answers to them are dropped. Called with the session's write lock held.
     */
    public void dropAll() {
        int dropped = 0;
        for (NativeReply r : deferred) {
            if (r.drop(Errno.EIO)) {
                dropped++;
            }
        }
        deferred.clear();
        if (dropped > 0) {
            LOG.warn("the session ended with {} deferred replies unanswered; answered them with EIO", dropped);
        }
    }
}
