package dev.fusepanama.vault.crypto;

import java.util.Arrays;
import java.util.Base64;

/**
 * gocryptfs's "Raw64": URL-safe base64 (RFC 4648 section 5) without {@code =} padding, the text
 * form of encrypted names, long-name hashes and symlink targets.
 *
 * <p>Decoding is stricter than Go's {@code RawURLEncoding}, which skips {@code \r} and
 * {@code \n} and ignores set bits left over in the last character. gocryptfs never writes
 * either, and accepting them would let two different names on disk decrypt to one plaintext
 * name, so they are refused.
 */
final class Raw64 {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private Raw64() {}

    /** The encoding of {@code data}, as ASCII bytes. */
    static byte[] encode(byte[] data) {
        return ENCODER.encode(data);
    }

    /** The bytes {@code text} encodes; {@link IllegalArgumentException} saying why if it is not canonical Raw64. */
    static byte[] decode(byte[] text) {
        for (byte b : text) {
            boolean ok = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-' || b == '_';
            if (!ok) {
                throw new IllegalArgumentException("not URL-safe unpadded base64: byte 0x"
                        + Integer.toHexString(b & 0xff) + " is outside A-Z a-z 0-9 - _");
            }
        }
        if (text.length % 4 == 1) {
            throw new IllegalArgumentException("not base64: " + text.length + " characters cannot encode whole bytes");
        }
        byte[] data = DECODER.decode(text);
        if (!Arrays.equals(ENCODER.encode(data), text)) {
            throw new IllegalArgumentException("not canonical base64: the last character carries set unused bits");
        }
        return data;
    }
}
