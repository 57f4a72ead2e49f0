package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Names in native memory, as a pass-through filesystem hands them to libc and reads them back. */
class FileNamesTest {
    @Test
    void aNameThatIsNotUtf8GoesToNativeMemoryAndBackWithItsBytes() {
        byte[] bytes = {'a', (byte) 0xff, (byte) 0xfe, 'b', (byte) 0x80, (byte) 0xc3, (byte) 0xa9};
        String name = FileNames.fromBytes(bytes);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment native_ = arena.allocate(64);
            native_.fill((byte) 'z');
            assertEquals(bytes.length, FileNames.toNative(name, native_));
            assertArrayEquals(bytes, native_.asSlice(0, bytes.length).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, native_.get(ValueLayout.JAVA_BYTE, bytes.length), "NUL-terminated");
            assertEquals(name, FileNames.fromNative(native_));
        }
    }

    @Test
    void aNameThatDoesNotFitWithItsNulIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(3, FileNames.toNative("abc", arena.allocate(4)));
            assertEquals(-1, FileNames.toNative("abcd", arena.allocate(4)));
            assertEquals(-1, FileNames.toNative("é", arena.allocate(2)), "two bytes and the NUL need three");
        }
    }

    @Test
    void readingStopsAtTheEndOfTheSegmentWithoutANul() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(8);
            m.fill((byte) 'q');
            assertEquals("qqq", FileNames.fromNative(m.asSlice(0, 3)));
        }
    }

    @Test
    void heapMemoryIsRefusedRatherThanMisread() {
        MemorySegment heap = MemorySegment.ofArray(new byte[16]);
        assertThrows(IllegalArgumentException.class, () -> FileNames.toNative("x", heap));
        assertThrows(IllegalArgumentException.class, () -> FileNames.fromNative(heap));
    }
}
