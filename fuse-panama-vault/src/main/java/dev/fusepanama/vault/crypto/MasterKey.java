package dev.fusepanama.vault.crypto;

import java.util.Arrays;

/**
 * A vault's 32-byte master key and the two ciphers derived from it with HKDF-SHA256 as
 * gocryptfs derives them (feature flag {@code HKDF}): the AES-256-GCM key for contents and
 * symlinks (info "AES-GCM file content encryption") and the AES-256 key under EME for names
 * (info "EME filename encryption"). The master key itself encrypts nothing.
 *
 * <p>What {@link #close()} wipes, and what it cannot: it zeroes this object's copy of the master
 * key, the two derived keys (held as {@link WipeableKey}, not {@code SecretKeySpec}, whose
 * private copy cannot be cleared from outside the JDK), EME's key-derived mask table and scratch
 * blocks, and re-keys every JDK {@code Cipher} it made with a throwaway key, which in the JDK's
 * AES zeroes the expanded round keys and its saved key copy, and in AES-GCM zeroes the key copy
 * it keeps against nonce reuse. Residuals, none reachable from here: each block operation's
 * GCM engine, discarded by the JDK without wiping, which holds the GHASH subkey
 * {@code H = AES(K, 0)} (an authentication key, not the encryption key); the HMAC pads Bouncy
 * Castle derived while running HKDF and scrypt; and any copy the garbage collector made when it
 * moved an array before it was zeroed. gocryptfs (Go) has the same limits.
 *
 * <p>Close only when no thread is still using the ciphers; afterwards they throw
 * {@link IllegalStateException}.
 */
public final class MasterKey implements AutoCloseable {
    /** The length of a master key, in bytes. */
    public static final int SIZE = 32;

    private final byte[] key;
    private final Eme eme;
    private final ContentCipher contentCipher;
    private final NameCipher nameCipher;
    private volatile boolean closed;

    private MasterKey(byte[] key, int longNameMax) {
        this.key = key.clone();
        byte[] contentKey = Hkdf.sha256(key, Hkdf.CONTENT_INFO, SIZE);
        byte[] nameKey = Hkdf.sha256(key, Hkdf.NAMES_INFO, SIZE);
        try {
            contentCipher = new ContentCipher(contentKey);
            eme = new Eme(nameKey);
            nameCipher = new NameCipher(eme, longNameMax);
        } finally {
            Arrays.fill(contentKey, (byte) 0);
            Arrays.fill(nameKey, (byte) 0);
        }
    }

    /**
     * A master key and the ciphers derived from it.
     *
     * @param key the 32 bytes of the key, copied: the caller wipes its array
     * @param longNameMax what the vault's gocryptfs.conf sets as {@code LongNameMax}, 62..255 (255 when it sets none)
     * @return the key, to close when done
     * @throws IllegalArgumentException if {@code key} is not 32 bytes or {@code longNameMax} outside the range
     */
    public static MasterKey of(byte[] key, int longNameMax) {
        if (key.length != SIZE) {
            throw new IllegalArgumentException("master key must be " + SIZE + " bytes, not " + key.length);
        }
        return new MasterKey(key, longNameMax);
    }

    /** A new random master key, for a new vault. */
    static MasterKey random(int longNameMax) {
        byte[] key = SecureBytes.bytes(SIZE);
        try {
            return new MasterKey(key, longNameMax);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * {@return the cipher of file contents, symlink targets and extended attribute values}
     *
     * @throws IllegalStateException if the key is closed
     */
    public ContentCipher content() {
        requireOpen();
        return contentCipher;
    }

    /**
     * {@return the cipher of file and extended attribute names}
     *
     * @throws IllegalStateException if the key is closed
     */
    public NameCipher names() {
        requireOpen();
        return nameCipher;
    }

    /** A copy of the key for wrapping it in gocryptfs.conf; the caller wipes it. */
    byte[] copy() {
        requireOpen();
        return key.clone();
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /** Wipes the key material (see the class comment for what remains); idempotent. */
    @Override
    public void close() {
        closed = true;
        Arrays.fill(key, (byte) 0);
        contentCipher.close();
        eme.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("master key has been closed");
        }
    }
}
