package dev.fusepanama.examples.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The page map: writes that meet the capacity limit, and its pages' life off the heap. */
class RegularFileTest {
    private static final int PAGE = MemoryFileSystem.PAGE;

    @Test
    void aWriteThatDoesNotFitWritesWhatFitsAndNoneWhenNoPageIsLeft() {
        Space space = new Space(3L * PAGE, 10);
        RegularFile f = new RegularFile(space, 0100644, 0, 0, 0);
        assertEquals(2 * PAGE, f.write(ByteBuffer.wrap(new byte[2 * PAGE]), 0, space));
        assertEquals(2, space.pagesUsed());

        ByteBuffer big = ByteBuffer.wrap(new byte[3 * PAGE]);
        assertEquals(2 * PAGE - 1, f.write(big, PAGE + 1, space), "the rest of page 1 and the one page left: a short write");
        assertEquals(3, space.pagesUsed());
        assertEquals(3L * PAGE, f.size, "the size counts only what was written");
        assertEquals(PAGE + 1, big.remaining(), "what was not written is left in the buffer");

        assertEquals(-1, f.write(ByteBuffer.wrap(new byte[10]), 3L * PAGE, space), "no page left: nothing written");
        assertEquals(3L * PAGE, f.size);
        assertEquals(5, f.write(ByteBuffer.wrap(new byte[] {7, 7, 7, 7, 7}), PAGE - 2, space), "within pages it has");
        assertEquals(3, space.pagesUsed());
    }

    /** The kernel's write-back of a mapping's pages: every page or none, never a short count. */
    @Test
    void aWholeWriteTakesEveryPageOrNone() {
        Space space = new Space(3L * PAGE, 10);
        RegularFile f = new RegularFile(space, 0100644, 0, 0, 0);
        assertTrue(f.writeWhole(ByteBuffer.wrap(new byte[2 * PAGE]), 0, space));
        assertFalse(f.writeWhole(ByteBuffer.wrap(new byte[2 * PAGE]), PAGE + 1, space), "needs 2 new pages, 1 is left");
        assertEquals(2, space.pagesUsed(), "none taken");
        assertEquals(2L * PAGE, f.size, "nothing written");
        assertTrue(f.writeWhole(ByteBuffer.wrap(new byte[] {7, 7}), PAGE - 1, space), "within pages it has");
        assertTrue(f.writeWhole(ByteBuffer.wrap(new byte[10]), 2L * PAGE + 5, space), "the last page");
        assertEquals(3, space.pagesUsed());
    }

    @Test
    void pagesHoldWhatWasWrittenHolesReadAsZerosAndEveryDroppedPageIsGivenBack() {
        Space space = new Space(100L * PAGE, 10);
        RegularFile f = new RegularFile(space, 0100644, 0, 0, 0);
        byte[] data = new byte[3 * PAGE];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 31 + 7);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
        assertEquals(data.length, f.write(direct, 10L * PAGE + 100, space));
        assertEquals(0, direct.remaining(), "the buffer's position moved past what was written");
        assertEquals(4, space.pagesUsed(), "3 pages of data starting 100 bytes into a page touch 4");

        ByteBuffer back = ByteBuffer.allocateDirect(13 * PAGE + 100);
        assertEquals(13 * PAGE + 100, f.read(back, 0));
        assertEquals(back.capacity(), back.position());
        for (int i = 0; i < 10 * PAGE + 100; i++) {
            if (back.get(i) != 0) throw new AssertionError("the hole before the data reads " + back.get(i) + " at " + i);
        }
        for (int i = 0; i < data.length; i++) {
            assertEquals(data[i], back.get(10 * PAGE + 100 + i), "byte " + i);
        }

        f.punchHole(11L * PAGE, 2L * PAGE, space);
        assertEquals(2, space.pagesUsed(), "the two whole pages punched out are given back");
        ByteBuffer heap = ByteBuffer.allocate(PAGE);
        f.read(heap, 11L * PAGE);
        for (int i = 0; i < PAGE; i++) assertEquals(0, heap.get(i));

        f.truncate(10L * PAGE + 50, space);
        assertEquals(1, space.pagesUsed(), "pages past the new size are given back");
        assertTrue(f.allocate(20L * PAGE, 2L * PAGE, space));
        assertEquals(3, space.pagesUsed());
        f.forgotten();
        assertEquals(0, space.pagesUsed(), "a forgotten file gives back every page");
        assertEquals(0, space.pagesAllocated(), "and frees every one");
    }

    @Test
    void theNativePagesOfAFileDroppedWithItsDataAreFreedWhenItIsGarbage() throws InterruptedException {
        Space space = new Space(100L * PAGE, 10);
        RegularFile kept = new RegularFile(space, 0100644, 0, 0, 0);
        assertEquals(2 * PAGE, kept.write(ByteBuffer.allocateDirect(2 * PAGE), 0, space));
        writeAndDrop(space, 5);
        assertEquals(7, space.pagesAllocated());
        // The cleaner's one thread also frees what the memfs of earlier tests in this JVM left, and
        // under qemu (the arm64 runs) that took more than 10 s.
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (space.pagesAllocated() > 2 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(2, space.pagesAllocated(), "a file that became garbage gave its pages back; the kept one holds its 2");
        assertEquals(2, space.pagesUsed());
        kept.forgotten();
        assertEquals(0, space.pagesAllocated());
        assertEquals(0, space.pagesUsed());
    }

    /** A file of {@code pages} pages that nothing refers to once this returns (a memfs thrown away with it). */
    private static void writeAndDrop(Space space, int pages) {
        RegularFile f = new RegularFile(space, 0100644, 0, 0, 0);
        assertEquals(pages * PAGE, f.write(ByteBuffer.allocateDirect(pages * PAGE), 0, space));
    }
}
