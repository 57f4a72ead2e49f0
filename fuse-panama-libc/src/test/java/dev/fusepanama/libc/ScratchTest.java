package dev.fusepanama.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A thread's native memory for its calls. No mount. */
class ScratchTest {
    @Test
    void oneScratchPerThreadReused() throws Exception {
        Scratch mine = Scratch.get();
        assertSame(mine, Scratch.get());
        assertSame(mine.dents(), mine.dents());
        assertSame(mine.dirents(), mine.dirents());
        Scratch other = CompletableFuture.supplyAsync(Scratch::get, r -> new Thread(r).start()).get(30, TimeUnit.SECONDS);
        assertNotSame(mine, other);
        assertEquals(Scratch.PATH_MAX, mine.path.byteSize());
        assertEquals(Arch.constants().statSize, mine.stat().byteSize());
        assertEquals(0, mine.small.address() % 8);
    }

    @Test
    void cStringsAreNulTerminatedAndNeverOverflow() {
        MemorySegment into = Scratch.get().path;
        into.fill((byte) 'z');
        Scratch.cString(into, new byte[] {'a', (byte) 0xff});
        assertEquals('a', into.get(ValueLayout.JAVA_BYTE, 0));
        assertEquals((byte) 0xff, into.get(ValueLayout.JAVA_BYTE, 1));
        assertEquals(0, into.get(ValueLayout.JAVA_BYTE, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> Scratch.cString(into, new byte[Scratch.PATH_MAX]),
                "no room for the NUL");
    }

    @Test
    void procPathNamesTheDescriptor() {
        Scratch s = Scratch.get();
        for (int fd : new int[] {0, 7, 10, 12345, Integer.MAX_VALUE}) {
            assertEquals("/proc/self/fd/" + fd, s.procPath(fd).getString(0));
        }
    }

    @Test
    void theBufferGrowsAndItsViewIsTheSameMemory() {
        Scratch s = Scratch.get();
        MemorySegment small = s.buffer(10);
        assertTrue(small.byteSize() >= 128 * 1024);
        assertSame(small, s.buffer(100));
        MemorySegment big = s.buffer(1 << 20);
        assertEquals(1 << 20, big.byteSize());
        big.set(ValueLayout.JAVA_BYTE, 5, (byte) 42);
        java.nio.ByteBuffer view = s.bufferView();
        assertEquals(0, view.position());
        assertEquals(1 << 20, view.limit());
        assertEquals(42, view.get(5));
        assertSame(view, s.bufferView().limit(3));
    }

    /** worker() gives its thread a umask of 0 of its own, once; get() leaves the umask alone. */
    @Test
    void aWorkersUmaskIsZeroAndItsOwn() throws Exception {
        int before = ThreadContext.umask(027);
        try {
            int[] got = CompletableFuture.supplyAsync(() -> {
                Scratch.get();
                int afterGet = ThreadContext.umask(027);
                Scratch.worker();
                int afterWorker = ThreadContext.umask(0);
                return new int[] {afterGet, afterWorker};
            }, r -> new Thread(r).start()).get(30, TimeUnit.SECONDS);
            assertEquals(027, got[0], "get() keeps the process's umask");
            assertEquals(0, got[1], "worker() gives the thread 0");
            assertEquals(027, ThreadContext.umask(027), "this thread's is untouched");
        } finally {
            ThreadContext.umask(before);
        }
    }
}
