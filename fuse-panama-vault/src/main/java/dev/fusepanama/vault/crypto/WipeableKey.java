package dev.fusepanama.vault.crypto;

import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * An AES key whose only long-lived copy is an array this package owns and zeroes on
 * {@link #destroy()}.
 *
 * <p>Why not {@link javax.crypto.spec.SecretKeySpec}: it clones the key into a private array
 * that only JDK-internal code can clear; its {@code destroy()} is the {@code Destroyable}
 * default, which throws {@code DestroyFailedException}. A spec would therefore keep the key
 * after every wipe of ours. The JDK's AES and AES-GCM implementations read a key through
 * {@link #getEncoded()} (format {@code RAW}), so they accept this class, and the copies they
 * take are theirs to handle; {@link MasterKey} says which they keep.
 */
final class WipeableKey implements SecretKey {
    @Serial
    private static final long serialVersionUID = 1L;

    private final byte[] key;
    private volatile boolean destroyed;

    /** Copies {@code key}; the caller wipes its own array. */
    WipeableKey(byte[] key) {
        this.key = key.clone();
    }

    @Override
    public String getAlgorithm() {
        return "AES";
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public byte[] getEncoded() {
        if (destroyed) {
            throw new IllegalStateException("key has been destroyed");
        }
        return key.clone();
    }

    @Override
    public void destroy() {
        Arrays.fill(key, (byte) 0);
        destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    /**
     * Re-initialises {@code cipher} with an all-zero key so that the JDK drops what it derived
     * from the real one. In the JDK's AES ({@code com.sun.crypto.provider.AESCrypt}) a new key
     * zeroes the expanded round keys and the saved copy of the old key; AES-GCM in encrypt mode
     * additionally keeps the last key to refuse nonce reuse, and zeroes it only when a new key
     * arrives in encrypt mode, hence encrypt mode for every cipher.
     */
    static void rekeyWithThrowaway(Cipher cipher) {
        WipeableKey zero = new WipeableKey(new byte[32]);
        try {
            if (cipher.getAlgorithm().contains("GCM")) {
                cipher.init(Cipher.ENCRYPT_MODE, zero, new GCMParameterSpec(128, new byte[16]));
            } else {
                cipher.init(Cipher.ENCRYPT_MODE, zero);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("re-keying " + cipher.getAlgorithm() + " with a valid AES key failed", e);
        }
    }

    /** Keys are never written to a stream: serialisation would be one more copy nobody wipes. */
    @Serial
    private void writeObject(ObjectOutputStream out) throws NotSerializableException {
        throw new NotSerializableException(WipeableKey.class.getName());
    }
}
