package dev.fusepanama.examples.memory;

import java.util.concurrent.atomic.AtomicLong;

/** The capacity limit: pages of data and inodes in use, refused past the maximum (ENOSPC). */
final class Space {
    final long maxPages;
    final long maxInodes;
    private final AtomicLong pages = new AtomicLong();
    private final AtomicLong inodes = new AtomicLong();
    /** Pages allocated off the heap and not yet freed: {@link #pagesUsed} once every free is done. */
    private final AtomicLong allocated = new AtomicLong();

    Space(long maxBytes, long maxInodes) {
        this.maxPages = Math.max(1, maxBytes / MemoryFileSystem.PAGE);
        this.maxInodes = maxInodes;
    }

    /** Takes {@code n} pages if they fit, else none: a refused request never counts, even for a moment. */
    boolean allocatePages(long n) {
        long used;
        do {
            used = pages.get();
            if (used + n > maxPages) return false;
        } while (!pages.compareAndSet(used, used + n));
        return true;
    }

    void freePages(long n) {
        pages.addAndGet(-n);
    }

    boolean allocateInode() {
        long used;
        do {
            used = inodes.get();
            if (used + 1 > maxInodes) return false;
        } while (!inodes.compareAndSet(used, used + 1));
        return true;
    }

    void freeInode() {
        inodes.decrementAndGet();
    }

    /** Counts {@code n} pages allocated off the heap (negative: freed). */
    void allocated(long n) {
        allocated.addAndGet(n);
    }

    long pagesAllocated() {
        return allocated.get();
    }

    long pagesUsed() {
        return pages.get();
    }

    long inodesUsed() {
        return inodes.get();
    }
}
