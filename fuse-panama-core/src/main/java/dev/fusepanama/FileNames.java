package dev.fusepanama;

import dev.fusepanama.internal.codec.NameCodec;
import java.lang.foreign.MemorySegment;

/**
 * File names on Linux are bytes. fuse-panama hands them to Java as strings decoded from UTF-8,
 * and encodes strings back the same way; a byte that is not part of valid UTF-8 becomes the lone
 * surrogate U+DC80 + byte ("surrogateescape", as Python does), which no valid UTF-8 can produce.
 * Every byte sequence thus round-trips exactly, and valid UTF-8 names are ordinary strings.
 * A filesystem that stores names as strings needs nothing of this; these methods are for one
 * that needs the bytes (to store them elsewhere, or to call libc).
 */
public final class FileNames {
    private FileNames() {}

    /**
     * The bytes of {@code name} as the kernel sees them.
     *
     * @param name a name as fuse-panama hands it to Java
     * @return its UTF-8 bytes, escaped bytes restored, in a new array
     */
    public static byte[] toBytes(String name) {
        return NameCodec.encode(name);
    }

    /**
     * The string fuse-panama uses for the name {@code bytes}.
     *
     * @param bytes a name's bytes, without a NUL
     * @return the decoded name, bytes that are not UTF-8 escaped
     */
    public static String fromBytes(byte[] bytes) {
        return NameCodec.decode(bytes, 0, bytes.length);
    }

    /**
     * The string for the NUL-terminated name at the start of {@code cString} (a {@code d_name} from
     * {@code getdents64(2)}, a path from libc), decoded without an intermediate {@code byte[]}.
     * Reading stops at the NUL or at the segment's end, whichever comes first.
     *
     * @param cString native memory that starts with the name
     * @return the decoded name
     * @throws IllegalArgumentException if {@code cString} is not native memory
     */
    public static String fromNative(MemorySegment cString) {
        return NameCodec.decode(requireNative(cString).address(), cString.byteSize());
    }

    /**
     * Writes the bytes of {@code name} and a terminating NUL at the start of {@code destination}.
     *
     * @param name the name to encode
     * @param destination native memory to write to
     * @return the number of bytes before the NUL, or -1 if they and the NUL do not fit (then the
     *     contents of {@code destination} are unspecified)
     * @throws IllegalArgumentException if {@code destination} is not native memory
     */
    public static int toNative(String name, MemorySegment destination) {
        return NameCodec.encodeTo(name, requireNative(destination).address(), destination.byteSize());
    }

    private static MemorySegment requireNative(MemorySegment s) {
        if (!s.isNative()) {
            throw new IllegalArgumentException("a native segment is needed, not " + s);
        }
        return s;
    }

    /**
     * Whether {@code name} holds bytes that are not valid UTF-8 (escaped).
     *
     * @param name a name as fuse-panama hands it to Java
     * @return true if it has a lone escape surrogate, which {@link #toBytes} turns back into a raw byte
     */
    public static boolean hasEscapedBytes(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (NameCodec.isEscape(c) && !(i > 0 && Character.isHighSurrogate(name.charAt(i - 1)))) {
                return true;
            }
        }
        return false;
    }
}
