package dev.fusepanama.examples.memory;

import dev.fusepanama.inode.InodeMount;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every read of a file under {@code strictatime} changes its access time, but the kernel answers
 * reads of data it has cached without asking memfs. So after memfs answered a read on such a
 * mount, this drops the file's cached data, and the next read comes to memfs again. The drop is
 * made off the request's thread (the kernel holds the pages of that very read until its answer
 * is in: from the request's own thread it would wait on itself), on one thread made at the first
 * strictatime read. So a read that comes within a few milliseconds of the one before may still
 * be answered from the cache, and leave the access time as it was. A mount without strictatime
 * never gets here and keeps its cache.
 */
final class StrictAtime {
    private static final Logger LOG = LoggerFactory.getLogger(StrictAtime.class);

    /** The files whose drop is queued: a burst of reads of one file queues one. */
    private final Set<Long> queued = ConcurrentHashMap.newKeySet();
    private ExecutorService dropper;
    private boolean closed;

    /** Has the kernel drop {@code ino}'s cached data soon, so that its next read reaches memfs. */
    void seeNextRead(InodeMount mount, long ino) {
        if (!queued.add(ino)) return;
        ExecutorService d = dropper();
        if (d == null) return;
        d.execute(() -> {
            queued.remove(ino);
            try {
                mount.invalidateInode(ino, 0, 0);
            } catch (IOException | IllegalStateException e) {
                LOG.debug("could not drop the cached data of inode {} (the mount ended?)", ino, e);
            }
        });
    }

    private synchronized ExecutorService dropper() {
        if (dropper == null && !closed) {
            dropper = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "memfs strictatime");
                t.setDaemon(true);
                return t;
            });
        }
        return dropper;
    }

    /** The filesystem ends: drops queued are moot. */
    synchronized void close() {
        closed = true;
        if (dropper != null) dropper.shutdownNow();
    }
}
