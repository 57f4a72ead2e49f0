package dev.fusepanama.examples.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The page map's all-or-nothing write, which the kernel's flushes need. */
class RegularFileTest {
    private static final int PAGE = MemoryFileSystem.PAGE;

    @Test
    void writeAllTakesEveryPageOrNone() {
        Space space = new Space(3L * PAGE, 10);
        RegularFile f = new RegularFile(space, 0100644, 0, 0, 0);
        assertTrue(f.writeAll(ByteBuffer.wrap(new byte[2 * PAGE]), 0, space));
        assertEquals(2, space.pagesUsed());
        assertEquals(2L * PAGE, f.size);

        assertFalse(f.writeAll(ByteBuffer.wrap(new byte[2 * PAGE]), PAGE + 1, space), "needs 2 new pages, 1 is left");
        assertEquals(2, space.pagesUsed(), "none taken");
        assertEquals(2L * PAGE, f.size, "nothing written");

        ByteBuffer over = ByteBuffer.wrap(new byte[] {7, 7});
        assertTrue(f.writeAll(over, PAGE - 1, space), "within pages it has");
        assertEquals(2, space.pagesUsed());
        ByteBuffer back = ByteBuffer.allocate(2);
        f.read(back, PAGE - 1);
        assertEquals(7, back.get(0));
        assertEquals(7, back.get(1));

        assertTrue(f.writeAll(ByteBuffer.wrap(new byte[10]), 2L * PAGE + 5, space), "the last page");
        assertEquals(3, space.pagesUsed());
        assertEquals(2L * PAGE + 15, f.size);
        assertTrue(f.writeAll(ByteBuffer.allocate(0), 100L * PAGE, space), "nothing to write");
        assertEquals(2L * PAGE + 15, f.size);
    }
}
