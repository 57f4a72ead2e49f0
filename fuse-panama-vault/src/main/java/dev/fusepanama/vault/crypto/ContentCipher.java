package dev.fusepanama.vault.crypto;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * File contents and symlink targets in gocryptfs's format: AES-256-GCM with 128-bit nonces.
 *
 * <p>An encrypted file is empty, or an 18-byte header (format version 2 as a big-endian
 * {@code uint16}, then a random 16-byte file ID) followed by blocks. Plaintext block {@code n}
 * (4096 bytes, the last one shorter) is stored at {@code 18 + n * 4128} as a random 16-byte
 * nonce, the GCM ciphertext, and the 16-byte tag. The associated data is {@code n} as a
 * big-endian {@code uint64} followed by the file ID, so a block copied to another position or
 * another file fails authentication.
 *
 * <p>Holes: a stored block of exactly {@link #CIPHER_BLOCK} zero bytes decrypts to
 * {@link #PLAIN_BLOCK} zero bytes, so a sparse ciphertext file reads as a sparse plaintext
 * file. Only a full-size block qualifies; any other block whose nonce is all zero is corrupt,
 * as in gocryptfs.
 *
 * <p>The block methods are the read and write hot path: a call borrows a JDK {@code Cipher}
 * and buffers from a small pool, so a block costs only what the JDK allocates in
 * {@code Cipher.init} (a copy of the key, the parameter spec, the GCM engine). Thread-safe.
 * Obtained from {@link MasterKey#content()}; unusable ({@link IllegalStateException})
 * once the master key is closed.
 */
public final class ContentCipher {
    /** On-disk format version in the file header (and in gocryptfs.conf). */
    public static final int VERSION = 2;
    /** The length of a file ID, in bytes: random, in the header, bound to every block of the file. */
    public static final int FILE_ID_SIZE = 16;
    /** {@code uint16} version + file ID. */
    public static final int HEADER_SIZE = 2 + FILE_ID_SIZE;
    /** The plaintext bytes of a full block. */
    public static final int PLAIN_BLOCK = 4096;
    /** The length of a block's random nonce, in bytes (gocryptfs's 128-bit GCM nonces). */
    public static final int NONCE_SIZE = 16;
    /** The length of a block's GCM authentication tag, in bytes. */
    public static final int TAG_SIZE = 16;
    /** What a stored block adds to its plaintext: nonce and tag, 32 bytes. */
    public static final int BLOCK_OVERHEAD = NONCE_SIZE + TAG_SIZE;
    /** The stored bytes of a full block: 4128. */
    public static final int CIPHER_BLOCK = PLAIN_BLOCK + BLOCK_OVERHEAD;

    private static final int TAG_BITS = TAG_SIZE * 8;
    private static final byte[] ZEROS = new byte[CIPHER_BLOCK];
    private static final VarHandle BIG_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BIG_ENDIAN_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    private final WipeableKey key;
    private final Pool<State> states;

    /** A cipher and the buffers one call needs, borrowed from {@link #states} for the call. */
    private static final class State {
        /** Nonces drawn 256 at a time: one DRBG call per 256 blocks instead of one per block (each allocates). */
        private static final int NONCE_POOL = 256 * NONCE_SIZE;

        final Cipher gcm;
        final byte[] nonce = new byte[NONCE_SIZE];
        /** Block number, then the file ID (absent for symlink targets and the wrapped master key). */
        final byte[] ad = new byte[Long.BYTES + FILE_ID_SIZE];
        /** Direct buffers are staged through these: the JDK's GCM allocates a copy per call for them. */
        final byte[] stageIn = new byte[CIPHER_BLOCK];
        final byte[] stageOut = new byte[CIPHER_BLOCK];
        private final byte[] nonces = new byte[NONCE_POOL];
        private int noncesUsed = NONCE_POOL;

        State() {
            try {
                gcm = Cipher.getInstance("AES/GCM/NoPadding");
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES/GCM/NoPadding is part of every JDK", e);
            }
        }

        /** Puts a fresh random nonce, never all zero, in {@link #nonce}. */
        void nextNonce() {
            do {
                if (noncesUsed == NONCE_POOL) {
                    SecureBytes.fill(nonces);
                    noncesUsed = 0;
                }
                System.arraycopy(nonces, noncesUsed, nonce, 0, NONCE_SIZE);
                Arrays.fill(nonces, noncesUsed, noncesUsed + NONCE_SIZE, (byte) 0);
                noncesUsed += NONCE_SIZE;
            } while (SecureBytes.isZero(nonce));
        }

        int associatedData(long blockNo, byte[] fileId) {
            BIG_ENDIAN_LONG.set(ad, 0, blockNo);
            if (fileId == null) {
                return Long.BYTES;
            }
            System.arraycopy(fileId, 0, ad, Long.BYTES, FILE_ID_SIZE);
            return ad.length;
        }

        void wipe() {
            Arrays.fill(nonce, (byte) 0);
            Arrays.fill(ad, (byte) 0);
            Arrays.fill(stageIn, (byte) 0);
            Arrays.fill(stageOut, (byte) 0);
            Arrays.fill(nonces, (byte) 0);
            WipeableKey.rekeyWithThrowaway(gcm);
        }
    }

    /** A cipher under the 32-byte AES-GCM key {@code key} (copied; the caller wipes its array). */
    ContentCipher(byte[] key) {
        if (key.length != MasterKey.SIZE) {
            throw new IllegalArgumentException("AES-256-GCM key must be 32 bytes, not " + key.length);
        }
        this.key = new WipeableKey(key);
        states = new Pool<>(State::new, State::wipe);
    }

    // ---- header -------------------------------------------------------------------------------

    /** {@return a new random file ID (never all zero)}: a file gets one when its first byte is written. */
    public static byte[] newFileId() {
        return SecureBytes.bytes(FILE_ID_SIZE);
    }

    /**
     * {@return the 18-byte header for {@code fileId}}: version 2 as a big-endian {@code uint16}, then the ID.
     *
     * @param fileId the file's ID, {@link #FILE_ID_SIZE} bytes
     * @throws IllegalArgumentException if {@code fileId} is not 16 bytes
     */
    public static byte[] header(byte[] fileId) {
        requireFileId(fileId);
        byte[] header = new byte[HEADER_SIZE];
        BIG_ENDIAN_SHORT.set(header, 0, (short) VERSION);
        System.arraycopy(fileId, 0, header, 2, FILE_ID_SIZE);
        return header;
    }

    /**
     * The file ID in the header that starts {@code buf}. Refused as gocryptfs refuses them:
     * fewer than 18 bytes, a version other than 2, an all-zero file ID. (gocryptfs treats a
     * file shorter than 19 bytes as empty without parsing it; see {@link #plainSize}.)
     *
     * @param buf the file's first bytes; those after the header are ignored
     * @return a copy of the file ID
     * @throws CorruptDataException if the header is refused
     */
    public static byte[] parseHeader(byte[] buf) throws CorruptDataException {
        if (buf.length < HEADER_SIZE) {
            throw new CorruptDataException("file header: " + buf.length + " bytes, needs " + HEADER_SIZE);
        }
        int version = Short.toUnsignedInt((short) BIG_ENDIAN_SHORT.get(buf, 0));
        if (version != VERSION) {
            throw new CorruptDataException("file header: format version " + version + ", expected " + VERSION);
        }
        byte[] id = Arrays.copyOfRange(buf, 2, HEADER_SIZE);
        if (SecureBytes.isZero(id)) {
            throw new CorruptDataException("file header: file ID is all zero");
        }
        return id;
    }

    /**
     * As {@link #parseHeader(byte[])}, from the bytes at {@code header}'s position (which does not move).
     *
     * @param header the file's first bytes, from its position
     * @return a copy of the file ID
     * @throws CorruptDataException if the header is refused
     */
    public static byte[] parseHeader(ByteBuffer header) throws CorruptDataException {
        byte[] copy = new byte[Math.min(HEADER_SIZE, header.remaining())];
        header.get(header.position(), copy);
        return parseHeader(copy);
    }

    // ---- one block, arrays --------------------------------------------------------------------

    /**
     * Encrypts plaintext as one block of a file, with a fresh random nonce. An empty block encrypts
     * to nothing, as in gocryptfs.
     *
     * @param src the plaintext
     * @param srcOff where it starts in {@code src}
     * @param length its length, 0 to 4096
     * @param blockNo the block's number in the file
     * @param fileId the file's ID, {@link #FILE_ID_SIZE} bytes
     * @param dst where nonce, ciphertext and tag go ({@code length + 32} bytes); must not overlap {@code src}
     * @param dstOff where they start in {@code dst}
     * @return the bytes written: {@code length + 32}, or 0 for an empty block
     * @throws IllegalArgumentException for a file ID of another length or more than 4096 bytes
     */
    public int encryptBlock(byte[] src, int srcOff, int length, long blockNo, byte[] fileId, byte[] dst, int dstOff) {
        requireFileId(fileId);
        requirePlainBlock(length);
        State s = states.borrow();
        try {
            return seal(s, blockNo, fileId, src, srcOff, length, dst, dstOff);
        } finally {
            states.release(s);
        }
    }

    /**
     * Decrypts one stored block of a file. May run in place ({@code dst == src},
     * {@code dstOff == srcOff}).
     *
     * @param src the stored block
     * @param srcOff where it starts in {@code src}
     * @param length its length, at most 4128
     * @param blockNo the block's number in the file
     * @param fileId the file's ID, {@link #FILE_ID_SIZE} bytes
     * @param dst where the plaintext goes
     * @param dstOff where it starts in {@code dst}
     * @return the plaintext length: {@code length - 32}, 4096 for a hole, 0 for an empty block
     * @throws CorruptDataException if authentication fails or the block cannot be one gocryptfs
     *     wrote (1..31 bytes, or an all-zero nonce outside a full-size hole)
     */
    public int decryptBlock(byte[] src, int srcOff, int length, long blockNo, byte[] fileId, byte[] dst, int dstOff)
            throws CorruptDataException {
        requireFileId(fileId);
        requireCipherBlock(length);
        State s = states.borrow();
        try {
            return open(s, blockNo, fileId, src, srcOff, length, dst, dstOff, true);
        } finally {
            states.release(s);
        }
    }

    /**
     * {@link #encryptBlock(byte[], int, int, long, byte[], byte[], int)} into a new array.
     *
     * @param plain the block's plaintext, at most 4096 bytes
     * @param blockNo the block's number in the file
     * @param fileId the file's ID
     * @return the stored block: nonce, ciphertext and tag
     */
    public byte[] encryptBlock(byte[] plain, long blockNo, byte[] fileId) {
        byte[] out = new byte[encryptedLength(plain.length)];
        encryptBlock(plain, 0, plain.length, blockNo, fileId, out, 0);
        return out;
    }

    /**
     * {@link #decryptBlock(byte[], int, int, long, byte[], byte[], int)} into a new array.
     *
     * @param stored the stored block, at most 4128 bytes
     * @param blockNo the block's number in the file
     * @param fileId the file's ID
     * @return the plaintext
     * @throws CorruptDataException as {@link #decryptBlock(byte[], int, int, long, byte[], byte[], int)}
     */
    public byte[] decryptBlock(byte[] stored, long blockNo, byte[] fileId) throws CorruptDataException {
        requireCipherBlock(stored.length);
        byte[] out = new byte[decryptedLength(stored.length)];
        int n = decryptBlock(stored, 0, stored.length, blockNo, fileId, out, 0);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    // ---- one block, buffers -------------------------------------------------------------------

    /**
     * Encrypts {@code src}'s remaining bytes as one block, writing nonce, ciphertext and tag at
     * {@code dst}'s position. Both positions advance. Direct and heap buffers alike.
     *
     * @param src the plaintext, at most 4096 bytes remaining
     * @param blockNo the block's number in the file
     * @param fileId the file's ID
     * @param dst where the stored block goes; must not overlap {@code src}
     * @return the bytes written, as the array form
     * @throws IllegalArgumentException if {@code dst} has no room for the block
     */
    public int encryptBlock(ByteBuffer src, long blockNo, byte[] fileId, ByteBuffer dst) {
        requireFileId(fileId);
        requirePlainBlock(src.remaining());
        State s = states.borrow();
        try {
            return seal(s, blockNo, fileId, src, dst);
        } finally {
            states.release(s);
        }
    }

    /**
     * Decrypts {@code src}'s remaining bytes as one stored block into {@code dst}'s position. Both
     * positions advance on success (on failure neither moves).
     *
     * @param src the stored block, at most 4128 bytes remaining
     * @param blockNo the block's number in the file
     * @param fileId the file's ID
     * @param dst where the plaintext goes
     * @return the plaintext length, as the array form
     * @throws CorruptDataException as {@link #decryptBlock(byte[], int, int, long, byte[], byte[], int)}
     */
    public int decryptBlock(ByteBuffer src, long blockNo, byte[] fileId, ByteBuffer dst) throws CorruptDataException {
        requireFileId(fileId);
        requireCipherBlock(src.remaining());
        State s = states.borrow();
        try {
            return open(s, blockNo, fileId, src, dst);
        } finally {
            states.release(s);
        }
    }

    // ---- consecutive blocks -------------------------------------------------------------------

    /**
     * Encrypts plaintext as consecutive blocks (all full but the last). The plaintext must start on
     * a block boundary; read-modify-write of partial blocks is the caller's.
     *
     * @param src the plaintext
     * @param srcOff where it starts in {@code src}
     * @param length its length
     * @param firstBlockNo the number of its first block in the file
     * @param fileId the file's ID
     * @param dst where the stored blocks go, {@link #encryptedLength(int)} bytes; must not overlap {@code src}
     * @param dstOff where they start in {@code dst}
     * @return the bytes written, {@link #encryptedLength(int) encryptedLength(length)}
     */
    public int encryptBlocks(byte[] src, int srcOff, int length, long firstBlockNo, byte[] fileId, byte[] dst, int dstOff) {
        requireFileId(fileId);
        Objects.checkFromIndexSize(srcOff, length, src.length);
        Objects.checkFromIndexSize(dstOff, encryptedLength(length), dst.length);
        int written = 0;
        long blockNo = firstBlockNo;
        State s = states.borrow();
        try {
            for (int done = 0; done < length; done += PLAIN_BLOCK) {
                written += seal(s, blockNo++, fileId, src, srcOff + done, Math.min(PLAIN_BLOCK, length - done), dst, dstOff + written);
            }
        } finally {
            states.release(s);
        }
        return written;
    }

    /**
     * Decrypts stored bytes holding consecutive blocks (all 4128 bytes but the last). May run in
     * place ({@code dst == src}, {@code dstOff == srcOff}).
     *
     * @param src the stored blocks
     * @param srcOff where they start in {@code src}
     * @param length their length
     * @param firstBlockNo the number of the first block in the file
     * @param fileId the file's ID
     * @param dst where the plaintext goes, room for {@link #decryptedLength(int)} bytes
     * @param dstOff where it starts in {@code dst}
     * @return the plaintext length, at most {@link #decryptedLength(int) decryptedLength(length)}
     * @throws CorruptDataException naming the first block that fails; blocks before it are
     *     already in {@code dst}
     */
    public int decryptBlocks(byte[] src, int srcOff, int length, long firstBlockNo, byte[] fileId, byte[] dst, int dstOff)
            throws CorruptDataException {
        requireFileId(fileId);
        Objects.checkFromIndexSize(srcOff, length, src.length);
        int written = 0;
        long blockNo = firstBlockNo;
        State s = states.borrow();
        try {
            for (int done = 0; done < length; done += CIPHER_BLOCK) {
                written += open(s, blockNo++, fileId, src, srcOff + done, Math.min(CIPHER_BLOCK, length - done), dst, dstOff + written, true);
            }
        } finally {
            states.release(s);
        }
        return written;
    }

    /**
     * {@link #encryptBlocks(byte[], int, int, long, byte[], byte[], int)} from {@code src}'s
     * remaining bytes to {@code dst}'s position; both positions advance.
     *
     * @param src the plaintext, from a block boundary
     * @param firstBlockNo the number of its first block in the file
     * @param fileId the file's ID
     * @param dst where the stored blocks go; must not overlap {@code src}
     * @return the bytes written
     * @throws IllegalArgumentException if {@code dst} runs out of room (the blocks before are written)
     */
    public int encryptBlocks(ByteBuffer src, long firstBlockNo, byte[] fileId, ByteBuffer dst) {
        requireFileId(fileId);
        int limit = src.limit();
        int written = 0;
        long blockNo = firstBlockNo;
        State s = states.borrow();
        try {
            while (src.position() < limit) {
                src.limit(Math.min(limit, src.position() + PLAIN_BLOCK));
                written += seal(s, blockNo++, fileId, src, dst);
                src.limit(limit);
            }
        } finally {
            src.limit(limit);
            states.release(s);
        }
        return written;
    }

    /**
     * {@link #decryptBlocks(byte[], int, int, long, byte[], byte[], int)} from {@code src}'s
     * remaining bytes to {@code dst}'s position; both positions advance past each block decrypted.
     *
     * @param src the stored blocks
     * @param firstBlockNo the number of the first block in the file
     * @param fileId the file's ID
     * @param dst where the plaintext goes
     * @return the plaintext length
     * @throws CorruptDataException naming the first block that fails; both buffers stand before it
     */
    public int decryptBlocks(ByteBuffer src, long firstBlockNo, byte[] fileId, ByteBuffer dst) throws CorruptDataException {
        requireFileId(fileId);
        int limit = src.limit();
        int written = 0;
        long blockNo = firstBlockNo;
        State s = states.borrow();
        try {
            while (src.position() < limit) {
                src.limit(Math.min(limit, src.position() + CIPHER_BLOCK));
                written += open(s, blockNo++, fileId, src, dst);
                src.limit(limit);
            }
        } finally {
            src.limit(limit);
            states.release(s);
        }
        return written;
    }

    // ---- symlinks -----------------------------------------------------------------------------

    /**
     * The stored form of a symlink target: the target encrypted like a content block with block
     * number 0 and no file ID (associated data is 8 zero bytes), as Raw64 text. Empty stays empty.
     *
     * @param target the link's text, at most 4096 bytes
     * @return the stored form, ASCII
     */
    public byte[] encryptSymlink(byte[] target) {
        if (target.length == 0) {
            return new byte[0];
        }
        requirePlainBlock(target.length);
        return Raw64.encode(sealUnbound(target));
    }

    /**
     * Inverse of {@link #encryptSymlink}. Unlike gocryptfs, which runs the content-block
     * decryption including its hole rule, 4128 encoded zero bytes are corrupt here, not a target
     * of 4096 NUL bytes.
     *
     * @param stored the stored form, as the ciphertext link holds it
     * @return the link's text
     * @throws CorruptDataException if it is not base64, longer than one block, or fails authentication
     */
    public byte[] decryptSymlink(byte[] stored) throws CorruptDataException {
        if (stored.length == 0) {
            return new byte[0];
        }
        byte[] sealed;
        try {
            sealed = Raw64.decode(stored);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException("symlink target: " + e.getMessage(), e);
        }
        if (sealed.length > CIPHER_BLOCK) {
            throw new CorruptDataException("symlink target: " + sealed.length + " encrypted bytes, more than one block");
        }
        return openUnbound(sealed);
    }

    /**
     * The stored form of an extended attribute's value: encrypted as a symlink target is, but
     * kept as raw bytes (gocryptfs's {@code encryptXattrValue}). Empty stays empty.
     *
     * @param value the plaintext value
     * @return the stored value, 32 bytes longer
     */
    public byte[] encryptXattrValue(byte[] value) {
        return value.length == 0 ? value : sealUnbound(value);
    }

    /**
     * Inverse of {@link #encryptXattrValue}; a value that does not open is tried once more as
     * base64 text, the form gocryptfs before 1.8 stored.
     *
     * @param stored the stored value
     * @return the plaintext value
     * @throws CorruptDataException if it opens in neither form
     */
    public byte[] decryptXattrValue(byte[] stored) throws CorruptDataException {
        if (stored.length == 0) {
            return stored;
        }
        try {
            return openUnbound(stored);
        } catch (CorruptDataException e) {
            byte[] decoded;
            try {
                decoded = Raw64.decode(stored);
            } catch (IllegalArgumentException notText) {
                throw e;
            }
            return openUnbound(decoded);
        }
    }

    /** Block 0, no file ID: symlink targets, and the master key in gocryptfs.conf under the password's key. */
    byte[] sealUnbound(byte[] plain) {
        byte[] out = new byte[plain.length + BLOCK_OVERHEAD];
        State s = states.borrow();
        try {
            seal(s, 0, null, plain, 0, plain.length, out, 0);
        } finally {
            states.release(s);
        }
        return out;
    }

    byte[] openUnbound(byte[] sealed) throws CorruptDataException {
        byte[] out = new byte[Math.max(0, sealed.length - BLOCK_OVERHEAD)];
        State s = states.borrow();
        try {
            open(s, 0, null, sealed, 0, sealed.length, out, 0, false);
        } finally {
            states.release(s);
        }
        return out;
    }

    // ---- sizes --------------------------------------------------------------------------------

    /**
     * The plaintext size gocryptfs reports for a ciphertext file, including its best guesses for
     * sizes it cannot have written (see {@link #isValidCipherSize}): 1..17 bytes (a torn header)
     * count as 0, and a last block of 1..32 bytes (no room for a plaintext byte) counts as one
     * plaintext byte.
     *
     * @param cipherSize the ciphertext file's size in bytes
     * @return the plaintext size in bytes
     * @throws IllegalArgumentException if {@code cipherSize} is negative
     */
    public static long plainSize(long cipherSize) {
        requireSize(cipherSize);
        if (cipherSize <= HEADER_SIZE) {
            return 0;
        }
        long last = (cipherSize - HEADER_SIZE) % CIPHER_BLOCK;
        if (last > 0 && last <= BLOCK_OVERHEAD) {
            cipherSize += BLOCK_OVERHEAD + 1 - last;
        }
        long blocks = (cipherSize - HEADER_SIZE - 1) / CIPHER_BLOCK + 1;
        return cipherSize - HEADER_SIZE - blocks * BLOCK_OVERHEAD;
    }

    /**
     * The ciphertext file size for a plaintext size: 0, or header plus blocks.
     *
     * @param plainSize the plaintext size in bytes
     * @return the ciphertext file's size in bytes
     * @throws IllegalArgumentException if {@code plainSize} is negative
     * @throws ArithmeticException if it does not fit a long
     */
    public static long cipherSize(long plainSize) {
        requireSize(plainSize);
        if (plainSize == 0) {
            return 0;
        }
        long fullBlocks = plainSize / PLAIN_BLOCK;
        long rest = plainSize % PLAIN_BLOCK;
        return Math.addExact(HEADER_SIZE + (rest == 0 ? 0 : rest + BLOCK_OVERHEAD), Math.multiplyExact(fullBlocks, CIPHER_BLOCK));
    }

    /**
     * Whether gocryptfs can have left a ciphertext file of this size: 0, a bare header (18, as
     * between creating a file and its first write; it reads as empty), or a header and blocks
     * whose last one holds at least one plaintext byte (more than 32 bytes).
     *
     * @param cipherSize the ciphertext file's size in bytes
     * @return whether the size is one gocryptfs writes
     * @throws IllegalArgumentException if {@code cipherSize} is negative
     */
    public static boolean isValidCipherSize(long cipherSize) {
        requireSize(cipherSize);
        if (cipherSize == 0 || cipherSize == HEADER_SIZE) {
            return true;
        }
        if (cipherSize < HEADER_SIZE) {
            return false;
        }
        long last = (cipherSize - HEADER_SIZE) % CIPHER_BLOCK;
        return last == 0 || last > BLOCK_OVERHEAD;
    }

    /**
     * {@return the number of the block holding a plaintext offset}
     *
     * @param plainOffset the offset in the plaintext, in bytes
     * @throws IllegalArgumentException if {@code plainOffset} is negative
     */
    public static long blockNo(long plainOffset) {
        requireSize(plainOffset);
        return plainOffset / PLAIN_BLOCK;
    }

    /**
     * {@return where block {@code blockNo} starts in the ciphertext file}, after the header
     *
     * @param blockNo the block's number
     * @throws IllegalArgumentException if {@code blockNo} is negative
     */
    public static long cipherOffset(long blockNo) {
        requireSize(blockNo);
        return Math.addExact(HEADER_SIZE, Math.multiplyExact(blockNo, CIPHER_BLOCK));
    }

    /**
     * {@return the bytes that plaintext from a block boundary occupies as stored blocks}
     *
     * @param plainLength the plaintext's length in bytes
     * @throws IllegalArgumentException if {@code plainLength} is negative
     */
    public static int encryptedLength(int plainLength) {
        if (plainLength < 0) {
            throw new IllegalArgumentException("negative length " + plainLength);
        }
        int rest = plainLength % PLAIN_BLOCK;
        return Math.addExact(Math.multiplyExact(plainLength / PLAIN_BLOCK, CIPHER_BLOCK), rest == 0 ? 0 : rest + BLOCK_OVERHEAD);
    }

    /**
     * {@return the most plaintext that stored blocks decrypt to} (holes included)
     *
     * @param cipherLength the stored blocks' length in bytes, from a block boundary
     * @throws IllegalArgumentException if {@code cipherLength} is negative
     */
    public static int decryptedLength(int cipherLength) {
        if (cipherLength < 0) {
            throw new IllegalArgumentException("negative length " + cipherLength);
        }
        return cipherLength / CIPHER_BLOCK * PLAIN_BLOCK + Math.max(0, cipherLength % CIPHER_BLOCK - BLOCK_OVERHEAD);
    }

    // ---- the two primitives -------------------------------------------------------------------

    private int seal(State s, long blockNo, byte[] fileId, byte[] src, int srcOff, int length, byte[] dst, int dstOff) {
        requireSize(blockNo);
        Objects.checkFromIndexSize(srcOff, length, src.length);
        if (length == 0) {
            return 0;
        }
        Objects.checkFromIndexSize(dstOff, length + BLOCK_OVERHEAD, dst.length);
        s.nextNonce();
        try {
            s.gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, s.nonce));
            s.gcm.updateAAD(s.ad, 0, s.associatedData(blockNo, fileId));
            s.gcm.doFinal(src, srcOff, length, dst, dstOff + NONCE_SIZE);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption with a valid key and buffer failed", e);
        }
        System.arraycopy(s.nonce, 0, dst, dstOff, NONCE_SIZE);
        return length + BLOCK_OVERHEAD;
    }

    /**
     * Buffers reach the array form: heap buffers directly on their arrays, direct buffers through
     * the thread's staging arrays (two 4 KiB copies cost less than the JDK's per-call allocation
     * for them).
     */
    private int seal(State s, long blockNo, byte[] fileId, ByteBuffer src, ByteBuffer dst) {
        int length = src.remaining();
        if (dst.remaining() < length + (length == 0 ? 0 : BLOCK_OVERHEAD)) {
            throw new IllegalArgumentException("destination has " + dst.remaining() + " bytes left, block needs " + (length + BLOCK_OVERHEAD));
        }
        int n;
        if (src.hasArray() && dst.hasArray() && !dst.isReadOnly()) {
            n = seal(s, blockNo, fileId, src.array(), src.arrayOffset() + src.position(), length,
                    dst.array(), dst.arrayOffset() + dst.position());
        } else {
            src.get(src.position(), s.stageIn, 0, length);
            n = seal(s, blockNo, fileId, s.stageIn, 0, length, s.stageOut, 0);
            dst.put(dst.position(), s.stageOut, 0, n);
        }
        src.position(src.position() + length);
        dst.position(dst.position() + n);
        return n;
    }

    private int open(State s, long blockNo, byte[] fileId, byte[] src, int srcOff, int length, byte[] dst, int dstOff, boolean holes)
            throws CorruptDataException {
        requireSize(blockNo);
        Objects.checkFromIndexSize(srcOff, length, src.length);
        if (length == 0) {
            return 0;
        }
        if (length < NONCE_SIZE) {
            throw corrupt(blockNo, length + " bytes, shorter than the nonce");
        }
        if (Arrays.equals(src, srcOff, srcOff + NONCE_SIZE, ZEROS, 0, NONCE_SIZE)) {
            if (holes && length == CIPHER_BLOCK && Arrays.equals(src, srcOff, srcOff + length, ZEROS, 0, length)) {
                Objects.checkFromIndexSize(dstOff, PLAIN_BLOCK, dst.length);
                Arrays.fill(dst, dstOff, dstOff + PLAIN_BLOCK, (byte) 0);
                return PLAIN_BLOCK;
            }
            throw corrupt(blockNo, "all-zero nonce");
        }
        if (length < BLOCK_OVERHEAD) {
            throw corrupt(blockNo, length + " bytes, too short for nonce and tag");
        }
        Objects.checkFromIndexSize(dstOff, length - BLOCK_OVERHEAD, dst.length);
        try {
            s.gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, src, srcOff, NONCE_SIZE));
            s.gcm.updateAAD(s.ad, 0, s.associatedData(blockNo, fileId));
            return s.gcm.doFinal(src, srcOff + NONCE_SIZE, length - NONCE_SIZE, dst, dstOff);
        } catch (AEADBadTagException e) {
            throw authenticationFailed(blockNo, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM decryption with a valid key and buffer failed", e);
        }
    }

    private int open(State s, long blockNo, byte[] fileId, ByteBuffer src, ByteBuffer dst) throws CorruptDataException {
        int length = src.remaining();
        int most = length == CIPHER_BLOCK ? PLAIN_BLOCK : Math.max(0, length - BLOCK_OVERHEAD);
        if (dst.remaining() < most) {
            throw new IllegalArgumentException("destination has " + dst.remaining() + " bytes left, block needs " + most);
        }
        int n;
        if (src.hasArray() && dst.hasArray() && !dst.isReadOnly()) {
            n = open(s, blockNo, fileId, src.array(), src.arrayOffset() + src.position(), length,
                    dst.array(), dst.arrayOffset() + dst.position(), true);
        } else {
            src.get(src.position(), s.stageIn, 0, length);
            n = open(s, blockNo, fileId, s.stageIn, 0, length, s.stageIn, 0, true);
            dst.put(dst.position(), s.stageIn, 0, n);
        }
        src.position(src.position() + length);
        dst.position(dst.position() + n);
        return n;
    }

    /**
     * Wipes every pooled cipher state, then the key; later calls throw
     * {@link IllegalStateException}. A call still running gets its state wiped when it ends.
     */
    void close() {
        states.close();
        key.destroy();
    }

    private static CorruptDataException corrupt(long blockNo, String why) {
        return new CorruptDataException("block " + blockNo + ": " + why);
    }

    private static CorruptDataException authenticationFailed(long blockNo, AEADBadTagException e) {
        return new CorruptDataException("block " + blockNo
                + ": authentication failed (changed, truncated, or written for another block, file or key)", e);
    }

    private static void requireFileId(byte[] fileId) {
        if (Objects.requireNonNull(fileId, "fileId").length != FILE_ID_SIZE) {
            throw new IllegalArgumentException("file ID must be " + FILE_ID_SIZE + " bytes, not " + fileId.length);
        }
    }

    private static void requirePlainBlock(int length) {
        if (length > PLAIN_BLOCK) {
            throw new IllegalArgumentException(length + " plaintext bytes do not fit one " + PLAIN_BLOCK + "-byte block");
        }
    }

    private static void requireCipherBlock(int length) {
        if (length > CIPHER_BLOCK) {
            throw new IllegalArgumentException(length + " bytes are more than one " + CIPHER_BLOCK + "-byte stored block");
        }
    }

    private static void requireSize(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative size, offset or block number: " + n);
        }
    }
}
