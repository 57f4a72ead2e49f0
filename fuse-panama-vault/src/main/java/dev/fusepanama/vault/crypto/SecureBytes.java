package dev.fusepanama.vault.crypto;

import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Random bytes for nonces, file IDs, directory IVs, salts and master keys: one NIST SP 800-90A
 * DRBG per thread at 256-bit strength, seeded by the JDK from the operating system. Per thread
 * because every block written needs a fresh nonce and the default {@code NativePRNG} serialises
 * all threads on one lock.
 */
final class SecureBytes {
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(() -> {
        try {
            return SecureRandom.getInstance("DRBG",
                    DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK's DRBG at 256-bit strength is missing", e);
        }
    });

    private SecureBytes() {}

    /** Fills {@code out} with random bytes, never all zero (gocryptfs treats an all-zero nonce, IV or ID as corruption). */
    static void fill(byte[] out) {
        SecureRandom random = RANDOM.get();
        do {
            random.nextBytes(out);
        } while (isZero(out));
    }

    static byte[] bytes(int n) {
        byte[] b = new byte[n];
        fill(b);
        return b;
    }

    static boolean isZero(byte[] b) {
        int acc = 0;
        for (byte x : b) {
            acc |= x;
        }
        return acc == 0;
    }
}
