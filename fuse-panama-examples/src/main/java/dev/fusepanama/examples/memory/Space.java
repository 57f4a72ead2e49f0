package dev.fusepanama.examples.memory;

import java.util.concurrent.atomic.AtomicLong;

/** The capacity limit: pages of data and inodes in use, refused past the maximum (ENOSPC). */
final class Space {
    final long maxPages;
    final long maxInodes;
    private final AtomicLong pages = new AtomicLong();
    private final AtomicLong inodes = new AtomicLong();

    Space(long maxBytes, long maxInodes) {
        this.maxPages = Math.max(1, maxBytes / MemoryFileSystem.PAGE);
        this.maxInodes = maxInodes;
    }

    boolean allocatePages(long n) {
        if (pages.addAndGet(n) > maxPages) {
            pages.addAndGet(-n);
            return false;
        }
        return true;
    }

    void freePages(long n) {
        pages.addAndGet(-n);
    }

    boolean allocateInode() {
        if (inodes.incrementAndGet() > maxInodes) {
            inodes.decrementAndGet();
            return false;
        }
        return true;
    }

    void freeInode() {
        inodes.decrementAndGet();
    }

    long pagesUsed() {
        return pages.get();
    }

    long inodesUsed() {
        return inodes.get();
    }
}
