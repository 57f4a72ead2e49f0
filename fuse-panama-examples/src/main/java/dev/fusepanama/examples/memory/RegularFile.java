package dev.fusepanama.examples.memory;

import static dev.fusepanama.examples.memory.MemoryFileSystem.PAGE;

import dev.fusepanama.libc.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A regular file's data: a sparse map of 4 KiB pages, kept off the Java heap. A page that was
 * never written, or was punched out, costs nothing and reads as zeros. Guarded by the node's
 * monitor, under which every page is also freed: no access can outlive its page. What a file
 * still holds when it becomes garbage (its memfs dropped while it had names; a memfs that is
 * mounted again keeps its files) is freed by a {@link Cleaner}.
 *
 * <p>Off the heap because a heap page is copied by every young collection it survives (writing
 * 50 MiB in 10 KiB writes paused memfs 40-70 ms per collection, as long as the writes took
 * without it), and a full collection moves them all.
 */
final class RegularFile extends Node {
    /** Frees the pages a file still holds when the file itself is garbage: a memfs dropped while its files had names. */
    private static final Cleaner PAGES_LEFT = Cleaner.create();

    private final TreeMap<Long, MemorySegment> pages = new TreeMap<>();
    long size;

    RegularFile(Space space, int mode, int uid, int gid, long now) {
        super(space, mode, uid, gid, now);
        PAGES_LEFT.register(this, new FreeAll(pages, space));
    }

    /** The cleaning action: holds the page map, never the file (which would then never be garbage). */
    private record FreeAll(Map<Long, MemorySegment> pages, Space space) implements Runnable {
        @Override
        public void run() {
            drop(pages, space);
        }
    }

    /** A zeroed page off the heap, or null if the machine is out of memory. */
    private static MemorySegment calloc(Space space) {
        long address = NativeMemory.calloc(1, PAGE);
        if (address == 0) return null;
        space.allocated(1);
        return MemorySegment.ofAddress(address).reinterpret(PAGE);
    }

    private static void free(MemorySegment page, Space space) {
        NativeMemory.free(page.address());
        space.allocated(-1);
    }

    @Override
    protected void forgotten() {
        synchronized (this) {
            drop(pages, space);
        }
        super.forgotten();
    }

    @Override
    long size() {
        return size;
    }

    @Override
    long blocks() {
        return pages.size() * (PAGE / 512L);
    }

    /** Copies up to {@code buf.remaining()} bytes from {@code offset}; returns the count. */
    int read(ByteBuffer buf, long offset) {
        if (offset >= size) {
            return 0;
        }
        int n = (int) Math.min(buf.remaining(), size - offset);
        MemorySegment to = MemorySegment.ofBuffer(buf);
        int done = 0;
        while (done < n) {
            long pos = offset + done;
            long index = pos / PAGE;
            int within = (int) (pos % PAGE);
            int len = Math.min(n - done, PAGE - within);
            MemorySegment page = pages.get(index);
            if (page == null) {
                to.asSlice(done, len).fill((byte) 0);
            } else {
                MemorySegment.copy(page, within, to, done, len);
            }
            done += len;
        }
        buf.position(buf.position() + n);
        return n;
    }

    /**
     * Writes {@code buf} at {@code offset}, allocating pages through {@code space}. Stops early
     * when space runs out.
     *
     * @return bytes written, or -1 if nothing could be written for lack of space
     */
    int write(ByteBuffer buf, long offset, Space space) {
        int n = buf.remaining();
        MemorySegment from = MemorySegment.ofBuffer(buf);
        int done = 0;
        while (done < n) {
            long pos = offset + done;
            long index = pos / PAGE;
            int within = (int) (pos % PAGE);
            int len = Math.min(n - done, PAGE - within);
            MemorySegment page = pages.get(index);
            if (page == null) {
                page = newPage(index, space);
                if (page == null) break;
            }
            MemorySegment.copy(from, done, page, within, len);
            done += len;
        }
        buf.position(buf.position() + done);
        if (done > 0 && offset + done > size) {
            size = offset + done;
        }
        return done == 0 && n > 0 ? -1 : done;
    }

    /**
     * Writes all of {@code buf} at {@code offset}, or nothing: false if the pages it needs do not
     * fit. For the kernel's write-back of a shared mapping's pages, whose writer was told nothing
     * and which a short count would lose without a word.
     */
    boolean writeWhole(ByteBuffer buf, long offset, Space space) {
        if (!buf.hasRemaining()) return true;
        long first = offset / PAGE;
        long last = (offset + buf.remaining() - 1) / PAGE;
        long missing = 0;
        for (long index = first; index <= last; index++) {
            if (!pages.containsKey(index)) missing++;
        }
        if (missing > 0 && !space.allocatePages(missing)) {
            return false;
        }
        List<Long> made = new ArrayList<>();
        for (long index = first; index <= last; index++) {
            if (pages.containsKey(index)) continue;
            MemorySegment page = calloc(space);
            if (page == null) { // the machine is out of memory: take back what this write made
                for (long i : made) free(pages.remove(i), space);
                space.freePages(missing);
                return false;
            }
            pages.put(index, page);
            made.add(index);
        }
        write(buf, offset, space); // every page is there: allocates nothing, writes all
        return true;
    }

    /** A zeroed page at {@code index}, counted in {@code space}; null if space or memory ran out. */
    private MemorySegment newPage(long index, Space space) {
        if (!space.allocatePages(1)) {
            return null;
        }
        MemorySegment page = calloc(space);
        if (page == null) {
            space.freePages(1);
            return null;
        }
        pages.put(index, page);
        return page;
    }

    /** Frees the pages of {@code gone} (a view of the page map) and removes them from it. */
    private static void drop(Map<Long, MemorySegment> gone, Space space) {
        space.freePages(gone.size());
        for (MemorySegment page : gone.values()) {
            free(page, space);
        }
        gone.clear();
    }

    /** Sets the size, dropping pages past it and zeroing the tail of the last one. */
    void truncate(long newSize, Space space) {
        if (newSize < size) {
            long firstGone = (newSize + PAGE - 1) / PAGE;
            drop(pages.tailMap(firstGone, true), space);
            zero(newSize, Math.min(size, (newSize / PAGE + 1) * PAGE));
        }
        size = newSize;
    }

    /** Allocates zeroed pages for [offset, offset+length); false if space runs out. */
    boolean allocate(long offset, long length, Space space) {
        for (long index = offset / PAGE; index * PAGE < offset + length; index++) {
            if (!pages.containsKey(index) && newPage(index, space) == null) {
                return false;
            }
        }
        return true;
    }

    /** Deallocates [offset, offset+length): whole pages are dropped, partial ones zeroed. */
    void punchHole(long offset, long length, Space space) {
        long end = Math.min(offset + length, Math.max(size, offset));
        long firstWhole = (offset + PAGE - 1) / PAGE;
        long endWhole = end / PAGE;
        if (firstWhole < endWhole) {
            drop(pages.subMap(firstWhole, true, endWhole, false), space);
        }
        zero(offset, Math.min(end, firstWhole * PAGE));
        zero(Math.max(offset, endWhole * PAGE), end);
    }

    private void zero(long from, long to) {
        for (long pos = from; pos < to; ) {
            long index = pos / PAGE;
            int within = (int) (pos % PAGE);
            int len = (int) Math.min(to - pos, PAGE - within);
            MemorySegment page = pages.get(index);
            if (page != null) {
                page.asSlice(within, len).fill((byte) 0);
            }
            pos += len;
        }
    }

    /** SEEK_DATA: the first offset >= {@code offset} inside an allocated page, or -1. */
    long nextData(long offset) {
        if (offset >= size) return -1;
        Long index = pages.ceilingKey(offset / PAGE);
        if (index == null || index * PAGE >= size) return -1;
        return Math.max(offset, index * PAGE);
    }

    /** SEEK_HOLE: the first offset >= {@code offset} not inside an allocated page (at most size), or -1. */
    long nextHole(long offset) {
        if (offset >= size) return -1;
        long index = offset / PAGE;
        while (pages.containsKey(index)) index++;
        return Math.min(size, Math.max(offset, index * PAGE));
    }
}
