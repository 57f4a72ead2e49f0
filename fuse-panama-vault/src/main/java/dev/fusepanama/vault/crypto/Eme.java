package dev.fusepanama.vault.crypto;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;

/**
 * EME, the wide-block "ECB-Mix-ECB" mode of Halevi and Rogaway ("A Parallelizable Enciphering
 * Mode", 2003), over AES-256: a length-preserving, deterministic, tweakable cipher on 16 to 2048
 * bytes in steps of 16. Every output byte depends on every input byte, so names that share a
 * prefix do not share an encrypted prefix. gocryptfs encrypts file names with it, the tweak
 * being the directory's IV.
 *
 * <p>Conventions are those of the rfjakob/eme Go package that gocryptfs uses (which follow the
 * EME-32 draft of IEEE P1619.2): multiplication by 2 in GF(2^128) treats byte 0 as the least
 * significant byte, reducing by {@code 0x87}; {@code L = AES-enc(K, 0^128)} is enciphered in
 * both directions, while every other block-cipher call deciphers when decrypting.
 *
 * <p>EME offers no integrity. Thread-safe: a call borrows JDK {@code Cipher}s from a small pool.
 */
final class Eme implements AutoCloseable {
    static final int KEY_SIZE = 32;
    static final int TWEAK_SIZE = 16;
    static final int BLOCK = 16;
    static final int MIN_LENGTH = BLOCK;
    /** 128 blocks: EME's limit for a 128-bit block cipher (m ≤ n). */
    static final int MAX_LENGTH = 128 * BLOCK;

    private final WipeableKey key;
    /** {@code L_j = 2^(j+1) · AES-enc(K, 0)} for block j, concatenated: key material. */
    private final byte[] masks = new byte[MAX_LENGTH];
    private final Pool<Ciphers> ciphers;

    /** AES in both directions and scratch blocks (which hold key-dependent values), borrowed for one call. */
    private static final class Ciphers {
        final Cipher encrypt;
        final Cipher decrypt;
        final byte[] mp = new byte[BLOCK];
        final byte[] mc = new byte[BLOCK];
        final byte[] m = new byte[BLOCK];

        Ciphers(WipeableKey key) {
            try {
                encrypt = Cipher.getInstance("AES/ECB/NoPadding");
                encrypt.init(Cipher.ENCRYPT_MODE, key);
                decrypt = Cipher.getInstance("AES/ECB/NoPadding");
                decrypt.init(Cipher.DECRYPT_MODE, key);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-256/ECB is part of every JDK", e);
            }
        }

        void wipe() {
            Arrays.fill(mp, (byte) 0);
            Arrays.fill(mc, (byte) 0);
            Arrays.fill(m, (byte) 0);
            WipeableKey.rekeyWithThrowaway(encrypt);
            WipeableKey.rekeyWithThrowaway(decrypt);
        }
    }

    /** An EME cipher under the 32-byte AES key {@code key} (copied; the caller wipes its array). */
    Eme(byte[] key) {
        if (key.length != KEY_SIZE) {
            throw new IllegalArgumentException("EME key must be " + KEY_SIZE + " bytes, not " + key.length);
        }
        this.key = new WipeableKey(key);
        ciphers = new Pool<>(() -> new Ciphers(this.key), Ciphers::wipe);
        byte[] l = new byte[BLOCK];
        Ciphers c = ciphers.borrow();
        try {
            aes(c.encrypt, l, 0, BLOCK, l);
        } finally {
            ciphers.release(c);
        }
        for (int j = 0; j < MAX_LENGTH / BLOCK; j++) {
            timesTwo(l);
            System.arraycopy(l, 0, masks, j * BLOCK, BLOCK);
        }
        Arrays.fill(l, (byte) 0);
    }

    /** Enciphers {@code data} (16..2048 bytes, a multiple of 16) under the 16-byte {@code tweak}. */
    byte[] encrypt(byte[] tweak, byte[] data) {
        return transform(tweak, data, true);
    }

    /** Inverse of {@link #encrypt}. */
    byte[] decrypt(byte[] tweak, byte[] data) {
        return transform(tweak, data, false);
    }

    /**
     * Wipes the key, the masks and every pooled cipher state (a call still running has its state
     * wiped when it ends, but may compute garbage: close when no thread is inside
     * {@link #encrypt} or {@link #decrypt}). Later calls throw {@link IllegalStateException}.
     */
    @Override
    public void close() {
        ciphers.close();
        key.destroy();
        Arrays.fill(masks, (byte) 0);
    }

    private byte[] transform(byte[] tweak, byte[] in, boolean encrypting) {
        if (tweak.length != TWEAK_SIZE) {
            throw new IllegalArgumentException("EME tweak must be " + TWEAK_SIZE + " bytes, not " + tweak.length);
        }
        int len = in.length;
        if (len < MIN_LENGTH || len > MAX_LENGTH || len % BLOCK != 0) {
            throw new IllegalArgumentException("EME takes 16 to 2048 bytes in multiples of 16, not " + len);
        }
        Ciphers c = ciphers.borrow();
        try {
            return transform(c, tweak, in, encrypting);
        } finally {
            ciphers.release(c);
        }
    }

    private byte[] transform(Ciphers c, byte[] tweak, byte[] in, boolean encrypting) {
        int len = in.length;
        Cipher aes = encrypting ? c.encrypt : c.decrypt;
        byte[] out = new byte[len];

        // First ECB layer: PPP_j = AES(P_j xor L_j).
        for (int i = 0; i < len; i++) {
            out[i] = (byte) (in[i] ^ masks[i]);
        }
        aes(aes, out, 0, len, out);

        // Mix: MP = T xor (xor of all PPP_j); MC = AES(MP); M = MP xor MC.
        byte[] mp = c.mp;
        byte[] mc = c.mc;
        byte[] m = c.m;
        System.arraycopy(tweak, 0, mp, 0, BLOCK);
        for (int i = 0; i < len; i++) {
            mp[i % BLOCK] ^= out[i];
        }
        aes(aes, mp, 0, BLOCK, mc);
        for (int i = 0; i < BLOCK; i++) {
            m[i] = (byte) (mp[i] ^ mc[i]);
        }
        // CCC_j = PPP_j xor 2^(j-1)·M for every block after the first; the first becomes
        // MC xor T xor (xor of those CCC_j). mp is free again and collects that xor.
        System.arraycopy(mc, 0, mp, 0, BLOCK);
        for (int i = 0; i < BLOCK; i++) {
            mp[i] ^= tweak[i];
        }
        for (int at = BLOCK; at < len; at += BLOCK) {
            timesTwo(m);
            for (int i = 0; i < BLOCK; i++) {
                out[at + i] ^= m[i];
                mp[i] ^= out[at + i];
            }
        }
        System.arraycopy(mp, 0, out, 0, BLOCK);

        // Second ECB layer: C_j = AES(CCC_j) xor L_j.
        aes(aes, out, 0, len, out);
        for (int i = 0; i < len; i++) {
            out[i] ^= masks[i];
        }
        return out;
    }

    private static void aes(Cipher aes, byte[] in, int off, int len, byte[] out) {
        try {
            aes.doFinal(in, off, len, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/ECB/NoPadding on whole blocks cannot fail", e);
        }
    }

    /** Multiplies the 16-byte block by x in GF(2^128), byte 0 least significant, in place. */
    static void timesTwo(byte[] b) {
        int reduce = (b[BLOCK - 1] & 0x80) != 0 ? 0x87 : 0;
        for (int j = BLOCK - 1; j > 0; j--) {
            b[j] = (byte) ((b[j] << 1) | ((b[j - 1] & 0xff) >>> 7));
        }
        b[0] = (byte) ((b[0] << 1) ^ reduce);
    }
}
