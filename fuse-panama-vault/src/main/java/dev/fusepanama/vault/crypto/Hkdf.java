package dev.fusepanama.vault.crypto;

import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * HKDF-SHA256 (RFC 5869) with no salt, as gocryptfs derives every working key from one input
 * key (the master key, or the scrypt hash when wrapping the master key). The info strings are
 * gocryptfs's, byte for byte: another string gives another key and a vault nobody can read.
 */
final class Hkdf {
    /** AES-256-GCM key for file contents, symlink targets, and the master key in gocryptfs.conf. */
    static final String CONTENT_INFO = "AES-GCM file content encryption";
    /** AES-256 key under EME for file names. */
    static final String NAMES_INFO = "EME filename encryption";

    private Hkdf() {}

    /**
     * {@code length} bytes of HKDF-SHA256 output. Bouncy Castle's HMAC keeps pads derived from
     * {@code ikm} in the generator, which is garbage once this returns and is not wiped: a
     * residual we accept, as gocryptfs does with Go's HKDF.
     */
    static byte[] sha256(byte[] ikm, String info, int length) {
        HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(new HKDFParameters(ikm, null, info.getBytes(StandardCharsets.US_ASCII)));
        byte[] out = new byte[length];
        hkdf.generateBytes(out, 0, length);
        return out;
    }
}
