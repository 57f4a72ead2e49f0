package dev.fusepanama.internal.codec;

import static dev.fusepanama.internal.bind.Native.getByte;
import static dev.fusepanama.internal.bind.Native.putByte;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 with "surrogateescape" (PEP 383): decoding never fails, a byte that is not part of a
 * valid UTF-8 sequence becomes the lone low surrogate U+DC00 + byte (U+DC80..U+DCFF), and
 * encoding turns such a lone surrogate back into its byte. Strict UTF-8 never yields a lone
 * surrogate, so every byte string round-trips, and valid UTF-8 decodes to the usual string.
 *
 * <p>The native variants read and write libfuse's memory directly with per-thread scratch
 * arrays, so decoding a path allocates only the resulting String.
 */
public final class NameCodec {
    private NameCodec() {}

    private static final char ESCAPE_BASE = 0xDC00;

    /** Per-thread arrays the decoder reuses; upcalls keep theirs in the request thread's state. */
    public static final class Scratch {
        byte[] bytes = new byte[256];
        char[] chars = new char[256];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** Whether {@code c} is in the escape range U+DC80..U+DCFF. */
    public static boolean isEscape(char c) {
        return c >= 0xDC80 && c <= 0xDCFF;
    }

    /** Decodes the NUL-terminated string at {@code address}; null for a NULL pointer. */
    public static String decode(long address) {
        return decode(address, SCRATCH.get());
    }

    /** As {@link #decode(long)}, reading at most {@code limit} bytes. */
    public static String decode(long address, long limit) {
        return decode(address, limit, SCRATCH.get());
    }

    /** As {@link #decode(long)}, with the caller's scratch arrays. */
    public static String decode(long address, Scratch s) {
        return decode(address, Long.MAX_VALUE, s);
    }

    /** Decodes the string at {@code address} up to its NUL or {@code limit} bytes, whichever comes first. */
    public static String decode(long address, long limit, Scratch s) {
        if (address == 0) {
            return null;
        }
        byte[] b = s.bytes;
        int n = 0;
        boolean ascii = true;
        for (byte x; n < limit && (x = getByte(address + n)) != 0; n++) {
            if (n == b.length) {
                b = s.bytes = Arrays.copyOf(b, b.length * 2);
            }
            b[n] = x;
            ascii &= x >= 0;
        }
        return ascii ? new String(b, 0, n, StandardCharsets.ISO_8859_1) : decodeSlow(b, 0, n, s);
    }

    public static String decode(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] < 0) {
                return decodeSlow(bytes, offset, length, SCRATCH.get());
            }
        }
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    private static String decodeSlow(byte[] b, int off, int len, Scratch s) {
        char[] out = s.chars;
        if (out.length < len) {
            out = s.chars = new char[Math.max(len, out.length * 2)];
        }
        int end = off + len;
        int n = 0;
        int i = off;
        while (i < end) {
            int b0 = b[i] & 0xFF;
            if (b0 < 0x80) {
                out[n++] = (char) b0;
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (b0 >= 0xC2 && b0 <= 0xDF) {
                need = 1;
            } else if (b0 >= 0xE0 && b0 <= 0xEF) {
                need = 2;
                if (b0 == 0xE0) lo = 0xA0;
                if (b0 == 0xED) hi = 0x9F; // U+D800..U+DFFF are not characters
            } else if (b0 >= 0xF0 && b0 <= 0xF4) {
                need = 3;
                if (b0 == 0xF0) lo = 0x90;
                if (b0 == 0xF4) hi = 0x8F; // above U+10FFFF
            } else {
                out[n++] = (char) (ESCAPE_BASE | b0);
                i++;
                continue;
            }
            boolean valid = i + need < end;
            if (valid) {
                int b1 = b[i + 1] & 0xFF;
                valid = b1 >= lo && b1 <= hi;
                for (int k = 2; valid && k <= need; k++) {
                    int bk = b[i + k] & 0xFF;
                    valid = bk >= 0x80 && bk <= 0xBF;
                }
            }
            if (!valid) {
                out[n++] = (char) (ESCAPE_BASE | b0);
                i++;
                continue;
            }
            int cp = switch (need) {
                case 1 -> ((b0 & 0x1F) << 6) | (b[i + 1] & 0x3F);
                case 2 -> ((b0 & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
                default -> ((b0 & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
            };
            if (cp >= 0x10000) {
                out[n++] = Character.highSurrogate(cp);
                out[n++] = Character.lowSurrogate(cp);
            } else {
                out[n++] = (char) cp;
            }
            i += need + 1;
        }
        return new String(out, 0, n);
    }

    /** The kernel-side bytes of {@code s}. */
    public static byte[] encode(String s) {
        byte[] out = new byte[encodedLength(s)];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[n++] = (byte) c;
            } else {
                int cp = codePointAt(s, i);
                n = putMultiByte(out, n, c, cp);
                if (cp >= 0x10000) i++;
            }
        }
        return out;
    }

    /** Bytes {@link #encode} would produce, without allocating. */
    public static int encodedLength(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else {
                int cp = codePointAt(s, i);
                n += width(c, cp);
                if (cp >= 0x10000) i++;
            }
        }
        return n;
    }

    /**
     * Writes the bytes of {@code s} and a terminating NUL at {@code address}, if they fit in
     * {@code capacity} bytes (NUL included).
     *
     * @return the number of bytes before the NUL, or -1 if it does not fit (nothing terminated)
     */
    public static int encodeTo(String s, long address, long capacity) {
        int n = 0;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (n + 1 >= capacity) return -1;
                putByte(address + n++, (byte) c);
            } else {
                int cp = codePointAt(s, i);
                int w = width(c, cp);
                if (n + w >= capacity) return -1;
                putMultiByte(address + n, c, cp);
                n += w;
                if (cp >= 0x10000) i++;
            }
        }
        putByte(address + n, (byte) 0);
        return n;
    }

    /** The code point at {@code i}, or -1 for a lone surrogate. */
    private static int codePointAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            return Character.toCodePoint(c, s.charAt(i + 1));
        }
        return Character.isSurrogate(c) ? -1 : c;
    }

    private static int width(char c, int cp) {
        if (cp < 0) return 1; // an escaped byte, or '?' for a surrogate we cannot express
        if (cp < 0x800) return 2;
        if (cp < 0x10000) return 3;
        return 4;
    }

    private static void putMultiByte(long address, char c, int cp) {
        if (cp < 0) {
            putByte(address, isEscape(c) ? (byte) (c & 0xFF) : (byte) '?');
        } else if (cp < 0x800) {
            putByte(address, (byte) (0xC0 | (cp >> 6)));
            putByte(address + 1, (byte) (0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            putByte(address, (byte) (0xE0 | (cp >> 12)));
            putByte(address + 1, (byte) (0x80 | ((cp >> 6) & 0x3F)));
            putByte(address + 2, (byte) (0x80 | (cp & 0x3F)));
        } else {
            putByte(address, (byte) (0xF0 | (cp >> 18)));
            putByte(address + 1, (byte) (0x80 | ((cp >> 12) & 0x3F)));
            putByte(address + 2, (byte) (0x80 | ((cp >> 6) & 0x3F)));
            putByte(address + 3, (byte) (0x80 | (cp & 0x3F)));
        }
    }

    private static int putMultiByte(byte[] out, int n, char c, int cp) {
        if (cp < 0) {
            out[n++] = isEscape(c) ? (byte) (c & 0xFF) : (byte) '?';
        } else if (cp < 0x800) {
            out[n++] = (byte) (0xC0 | (cp >> 6));
            out[n++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[n++] = (byte) (0xE0 | (cp >> 12));
            out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            out[n++] = (byte) (0xF0 | (cp >> 18));
            out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (byte) (0x80 | (cp & 0x3F));
        }
        return n;
    }
}
