package dev.fusepanama.internal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.FileNames;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** File names are bytes: every byte string survives decode→encode, and valid UTF-8 decodes as usual. */
class NameCodecTest {
    @Test
    void validUtf8DecodesToTheOrdinaryString() {
        for (String s : new String[] {"plain.txt", "héllo wörld", "日本語のファイル", "emoji 😀 pair", "", "\u007f"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            assertEquals(s, FileNames.fromBytes(b));
            assertArrayEquals(b, FileNames.toBytes(s));
            assertFalse(FileNames.hasEscapedBytes(s));
        }
    }

    @Test
    void invalidBytesBecomeEscapesAndComeBackExactly() {
        byte[] b = {(byte) 0xff, (byte) 0xfe, '.', 'b', 'i', 'n'};
        String s = FileNames.fromBytes(b);
        assertEquals("\udcff\udcfe.bin", s);
        assertTrue(FileNames.hasEscapedBytes(s));
        assertArrayEquals(b, FileNames.toBytes(s));
    }

    @Test
    void encodedSurrogatesOverlongsAndTruncatedSequencesAreEscapedBytewise() {
        byte[][] cases = {
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80},        // U+D800 encoded: not a character
            {(byte) 0xc0, (byte) 0xaf},                      // overlong '/'
            {(byte) 0xe2, (byte) 0x82},                      // truncated euro sign
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {'a', (byte) 0xc3, (byte) 0xa9, (byte) 0x80},    // valid é then a stray continuation
        };
        for (byte[] b : cases) {
            assertArrayEquals(b, FileNames.toBytes(FileNames.fromBytes(b)));
        }
    }

    @Test
    void randomByteStringsRoundTrip() {
        Random r = new Random(20211);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[r.nextInt(40)];
            r.nextBytes(b);
            assertArrayEquals(b, FileNames.toBytes(FileNames.fromBytes(b)), () -> java.util.HexFormat.of().formatHex(b));
        }
    }

    @Test
    void nativeEncodeTerminatesAndRefusesWhatDoesNotFit() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(8);
            assertEquals(3, NameCodec.encodeTo("abc", m.address(), 8));
            assertEquals(0, m.get(ValueLayout.JAVA_BYTE, 3));
            assertEquals("abc", NameCodec.decode(m.address()));
            assertEquals(-1, NameCodec.encodeTo("12345678", m.address(), 8), "needs 9 bytes with the NUL");
            assertEquals(5, NameCodec.encodeTo("\udcffé\udcfe.", m.address(), 8), "escape 1 + é 2 + escape 1 + . 1");
            assertEquals("\udcffé\udcfe.", NameCodec.decode(m.address()));
            assertEquals(null, NameCodec.decode(0L));
        }
    }

    @Test
    void longPathsGrowTheScratchBuffer() {
        String longName = "x".repeat(5000) + "é";
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocateFrom(longName);
            assertEquals(longName, NameCodec.decode(m.address()));
        }
    }
}
