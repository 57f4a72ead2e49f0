package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** File contents: the block format, what authentication refuses, holes, and the size arithmetic gocryptfs uses. */
class ContentCipherTest {
    private static final byte[] KEY = new byte[32];

    static {
        new Random(6).nextBytes(KEY);
    }

    private final MasterKey key = MasterKey.of(KEY, 255);
    private final ContentCipher content = key.content();
    private final byte[] fileId = ContentCipher.newFileId();
    private final Random random = new Random(7);

    @AfterEach
    void close() {
        key.close();
    }

    // ---- header

    @Test
    void aHeaderIsVersionTwoBigEndianThenTheFileId() throws Exception {
        byte[] header = ContentCipher.header(fileId);
        assertEquals(18, header.length);
        assertEquals(0, header[0]);
        assertEquals(2, header[1]);
        assertArrayEquals(fileId, Arrays.copyOfRange(header, 2, 18));
        assertArrayEquals(fileId, ContentCipher.parseHeader(header));
        assertArrayEquals(fileId, ContentCipher.parseHeader(ByteBuffer.wrap(header)));
        assertFalse(Arrays.equals(fileId, ContentCipher.newFileId()), "file IDs are random");
    }

    @Test
    void headersGocryptfsRefusesAreCorrupt() {
        byte[] header = ContentCipher.header(fileId);
        byte[] version3 = header.clone();
        version3[1] = 3;
        byte[] zeroId = new byte[18];
        zeroId[1] = 2;
        assertTrue(assertThrows(CorruptDataException.class, () -> ContentCipher.parseHeader(version3)).getMessage().contains("version 3"));
        assertTrue(assertThrows(CorruptDataException.class, () -> ContentCipher.parseHeader(zeroId)).getMessage().contains("all zero"));
        assertThrows(CorruptDataException.class, () -> ContentCipher.parseHeader(new byte[18]));
        assertThrows(CorruptDataException.class, () -> ContentCipher.parseHeader(Arrays.copyOf(header, 17)));
    }

    // ---- blocks

    @ParameterizedTest
    @ValueSource(ints = {1, 15, 16, 17, 4095, 4096})
    void aBlockDecryptsToWhatWasEncryptedAndIs32BytesLonger(int length) throws Exception {
        byte[] plain = randomBytes(length);
        byte[] stored = content.encryptBlock(plain, 5, fileId);
        assertEquals(length + 32, stored.length);
        assertArrayEquals(plain, content.decryptBlock(stored, 5, fileId));
    }

    @Test
    void anEmptyBlockEncryptsToNothing() throws Exception {
        assertEquals(0, content.encryptBlock(new byte[0], 0, fileId).length);
        assertEquals(0, content.decryptBlock(new byte[0], 0, fileId).length);
    }

    @Test
    void everyEncryptionHasAFreshNonce() {
        byte[] plain = randomBytes(100);
        byte[] a = content.encryptBlock(plain, 0, fileId);
        byte[] b = content.encryptBlock(plain, 0, fileId);
        assertFalse(Arrays.equals(a, 0, 16, b, 0, 16));
    }

    /**
     * The layout checked with the JDK's GCM directly: nonce, then ciphertext and tag, with the
     * block number (big-endian) and file ID as associated data. Symlink targets use block 0
     * and no file ID.
     */
    @Test
    void theBlockLayoutIsNonceCiphertextTagWithBlockNumberAndFileIdAsAssociatedData() throws Exception {
        byte[] plain = randomBytes(300);
        long blockNo = 0x0102030405060708L;
        byte[] stored = content.encryptBlock(plain, blockNo, fileId);
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] contentKey = Hkdf.sha256(KEY, Hkdf.CONTENT_INFO, 32);
        gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(contentKey, "AES"), new GCMParameterSpec(128, stored, 0, 16));
        gcm.updateAAD(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        gcm.updateAAD(fileId);
        assertArrayEquals(plain, gcm.doFinal(stored, 16, stored.length - 16));

        byte[] target = "../somewhere/else".getBytes(StandardCharsets.US_ASCII);
        byte[] link = Raw64.decode(content.encryptSymlink(target));
        gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(contentKey, "AES"), new GCMParameterSpec(128, link, 0, 16));
        gcm.updateAAD(new byte[8]);
        assertArrayEquals(target, gcm.doFinal(link, 16, link.length - 16));
    }

    @Test
    void arrayBufferAndDirectBufferFormsAgree() throws Exception {
        byte[] plain = randomBytes(3 * 4096 + 100);
        byte[] stored = new byte[ContentCipher.encryptedLength(plain.length)];
        assertEquals(3 * 4128 + 132, stored.length);
        assertEquals(stored.length, content.encryptBlocks(plain, 0, plain.length, 7, fileId, stored, 0));

        ByteBuffer direct = ByteBuffer.allocateDirect(plain.length);
        assertEquals(plain.length, content.decryptBlocks(ByteBuffer.wrap(stored), 7, fileId, direct));
        direct.flip();
        byte[] back = new byte[plain.length];
        direct.get(back);
        assertArrayEquals(plain, back);

        ByteBuffer storedDirect = ByteBuffer.allocateDirect(stored.length);
        ByteBuffer src = ByteBuffer.allocateDirect(plain.length).put(plain).flip();
        assertEquals(stored.length, content.encryptBlocks(src, 7, fileId, storedDirect));
        assertEquals(plain.length, src.position());
        storedDirect.flip();
        byte[] storedAgain = new byte[stored.length];
        storedDirect.get(storedAgain);
        byte[] plainAgain = new byte[plain.length];
        assertEquals(plain.length, content.decryptBlocks(storedAgain, 0, storedAgain.length, 7, fileId, plainAgain, 0));
        assertArrayEquals(plain, plainAgain);

        ByteBuffer one = ByteBuffer.allocate(4096);
        assertEquals(4096, content.decryptBlock(ByteBuffer.wrap(stored, 4128, 4128), 8, fileId, one));
        assertArrayEquals(Arrays.copyOfRange(plain, 4096, 8192), one.array());
    }

    @Test
    void decryptionMayRunInPlace() throws Exception {
        byte[] plain = randomBytes(2 * 4096 + 7);
        byte[] buf = new byte[ContentCipher.encryptedLength(plain.length)];
        content.encryptBlocks(plain, 0, plain.length, 0, fileId, buf, 0);
        int n = content.decryptBlocks(buf, 0, buf.length, 0, fileId, buf, 0);
        assertEquals(plain.length, n);
        assertArrayEquals(plain, Arrays.copyOf(buf, n));
    }

    // ---- authentication

    @Test
    void aFlippedBitAnywhereInABlockFailsAuthentication() {
        byte[] stored = content.encryptBlock(randomBytes(4096), 3, fileId);
        for (int at : new int[] {0, 15, 16, 2000, 4111, 4112, 4127}) {
            byte[] bad = stored.clone();
            bad[at] ^= 0x10;
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> content.decryptBlock(bad, 3, fileId), "byte " + at);
            assertInstanceOf(AEADBadTagException.class, e.getCause(), "byte " + at);
            assertTrue(e.getMessage().contains("block 3"), e.getMessage());
        }
    }

    @Test
    void aBufferThatFailsAuthenticationLeavesBothPositionsWhereTheyWere() {
        byte[] stored = content.encryptBlock(randomBytes(4096), 0, fileId);
        stored[100] ^= 1;
        ByteBuffer src = ByteBuffer.allocateDirect(4200).position(40);
        src.put(stored).flip().position(40);
        ByteBuffer dst = ByteBuffer.allocateDirect(4096);
        assertThrows(CorruptDataException.class, () -> content.decryptBlock(src, 0, fileId, dst));
        assertEquals(40, src.position());
        assertEquals(0, dst.position());
    }

    @Test
    void aTruncatedBlockFailsAuthentication() {
        byte[] stored = content.encryptBlock(randomBytes(4096), 0, fileId);
        for (int length : new int[] {4127, 4096, 100, 33, 32}) {
            byte[] cut = Arrays.copyOf(stored, length);
            assertThrows(CorruptDataException.class, () -> content.decryptBlock(cut, 0, fileId), "length " + length);
        }
        for (int length : new int[] {31, 16, 15, 1}) {
            byte[] cut = Arrays.copyOf(stored, length);
            CorruptDataException e = assertThrows(CorruptDataException.class, () -> content.decryptBlock(cut, 0, fileId));
            assertTrue(e.getMessage().contains("short"), e.getMessage());
        }
    }

    @Test
    void swappedBlocksFailAuthentication() {
        byte[] plain = randomBytes(2 * 4096);
        byte[] stored = new byte[2 * 4128];
        content.encryptBlocks(plain, 0, plain.length, 0, fileId, stored, 0);
        byte[] swapped = new byte[stored.length];
        System.arraycopy(stored, 4128, swapped, 0, 4128);
        System.arraycopy(stored, 0, swapped, 4128, 4128);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> content.decryptBlocks(swapped, 0, swapped.length, 0, fileId, new byte[8192], 0));
        assertTrue(e.getMessage().startsWith("block 0"), e.getMessage());
    }

    @Test
    void aBlockMovedToAnotherFileFailsAuthentication() {
        byte[] otherFile = ContentCipher.newFileId();
        byte[] stored = content.encryptBlock(randomBytes(4096), 0, fileId);
        assertThrows(CorruptDataException.class, () -> content.decryptBlock(stored, 0, otherFile));
    }

    @Test
    void aBlockFromAnotherVaultFailsAuthentication() {
        byte[] other = KEY.clone();
        other[0] ^= 1;
        try (MasterKey otherKey = MasterKey.of(other, 255)) {
            byte[] stored = otherKey.content().encryptBlock(randomBytes(10), 0, fileId);
            assertThrows(CorruptDataException.class, () -> content.decryptBlock(stored, 0, fileId));
        }
    }

    @Test
    void aSymlinkTargetThatWasChangedFailsAuthentication() throws Exception {
        byte[] target = "/tmp/x".getBytes(StandardCharsets.US_ASCII);
        byte[] stored = content.encryptSymlink(target);
        assertArrayEquals(target, content.decryptSymlink(stored));
        byte[] raw = Raw64.decode(stored);
        raw[20] ^= 1;
        assertThrows(CorruptDataException.class, () -> content.decryptSymlink(Raw64.encode(raw)));
        assertThrows(CorruptDataException.class, () -> content.decryptSymlink("not base64!".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0, content.encryptSymlink(new byte[0]).length);
        assertEquals(0, content.decryptSymlink(new byte[0]).length);
    }

    // ---- holes

    @Test
    void aFullBlockOfZerosIsAHoleAndReadsAsZeros() throws Exception {
        byte[] plain = content.decryptBlock(new byte[4128], 9, fileId);
        assertArrayEquals(new byte[4096], plain);
        ByteBuffer out = ByteBuffer.allocateDirect(4096);
        assertEquals(4096, content.decryptBlock(ByteBuffer.allocateDirect(4128), 9, fileId, out));
        assertEquals(4096, out.position());
    }

    /** gocryptfs compares the whole stored block with a full-size zero block: a shorter zero block is corruption. */
    @ParameterizedTest
    @ValueSource(ints = {4127, 4000, 33, 16})
    void aShorterRunOfZerosIsNotAHoleButAnAllZeroNonce(int length) {
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> content.decryptBlock(new byte[length], 0, fileId));
        assertTrue(e.getMessage().contains("all-zero nonce"), e.getMessage());
        assertThrows(CorruptDataException.class, () -> content.decryptBlock(ByteBuffer.allocate(length), 0, fileId, ByteBuffer.allocate(4096)));
    }

    @Test
    void aBlockWithAZeroNonceButOtherDataIsCorrupt() {
        byte[] stored = content.encryptBlock(randomBytes(4096), 0, fileId);
        Arrays.fill(stored, 0, 16, (byte) 0);
        assertTrue(assertThrows(CorruptDataException.class, () -> content.decryptBlock(stored, 0, fileId)).getMessage().contains("nonce"));
    }

    @Test
    void aHoleBetweenBlocksReadsAsZerosAmongTheData() throws Exception {
        byte[] a = randomBytes(4096);
        byte[] c = randomBytes(10);
        byte[] stored = new byte[4128 * 2 + 42];
        content.encryptBlock(a, 0, a.length, 0, fileId, stored, 0);
        content.encryptBlock(c, 0, c.length, 2, fileId, stored, 2 * 4128);
        byte[] plain = new byte[2 * 4096 + 10];
        assertEquals(plain.length, content.decryptBlocks(stored, 0, stored.length, 0, fileId, plain, 0));
        assertArrayEquals(a, Arrays.copyOfRange(plain, 0, 4096));
        assertArrayEquals(new byte[4096], Arrays.copyOfRange(plain, 4096, 8192));
        assertArrayEquals(c, Arrays.copyOfRange(plain, 8192, plain.length));
    }

    // ---- sizes

    @Test
    void cipherAndPlainSizesFollowGocryptfs() {
        long[][] pairs = {
            {0, 0}, {1, 18 + 33}, {4095, 18 + 4127}, {4096, 18 + 4128}, {4097, 18 + 4128 + 33},
            {12289, 18 + 3 * 4128 + 33}, {8192, 18 + 2 * 4128},
        };
        for (long[] p : pairs) {
            assertEquals(p[1], ContentCipher.cipherSize(p[0]), "cipherSize(" + p[0] + ")");
            assertEquals(p[0], ContentCipher.plainSize(p[1]), "plainSize(" + p[1] + ")");
            assertTrue(ContentCipher.isValidCipherSize(p[1]));
        }
        for (long plain = 0; plain < 5 * 4096 + 3; plain++) {
            assertEquals(plain, ContentCipher.plainSize(ContentCipher.cipherSize(plain)), "size " + plain);
        }
        long big = (1L << 40) + 12345;
        assertEquals(big, ContentCipher.plainSize(ContentCipher.cipherSize(big)));
    }

    /** The sizes gocryptfs cannot have written, and the plaintext size it reports for them anyway. */
    @Test
    void tornHeadersAndLastBlocksWithoutPlaintextAreInvalidSizes() {
        assertTrue(ContentCipher.isValidCipherSize(18), "a header alone: created, not yet written");
        assertEquals(0, ContentCipher.plainSize(18));
        for (long size = 1; size < 18; size++) {
            assertFalse(ContentCipher.isValidCipherSize(size), "size " + size);
            assertEquals(0, ContentCipher.plainSize(size), "size " + size);
        }
        for (long size = 19; size <= 50; size++) {
            assertFalse(ContentCipher.isValidCipherSize(size), "size " + size);
            assertEquals(1, ContentCipher.plainSize(size), "size " + size + " is counted as one byte");
        }
        assertFalse(ContentCipher.isValidCipherSize(18 + 4128 + 32));
        assertEquals(4097, ContentCipher.plainSize(18 + 4128 + 32));
        assertTrue(ContentCipher.isValidCipherSize(18 + 4128 + 33));
    }

    @Test
    void offsetsMapToBlocksAndBlocksToCipherOffsets() {
        assertEquals(0, ContentCipher.blockNo(4095));
        assertEquals(1, ContentCipher.blockNo(4096));
        assertEquals(18, ContentCipher.cipherOffset(0));
        assertEquals(18 + 2 * 4128, ContentCipher.cipherOffset(2));
        assertEquals(4096 + 10, ContentCipher.decryptedLength(4128 + 42));
        assertEquals(4128 + 42, ContentCipher.encryptedLength(4096 + 10));
    }

    // ---- threads and closing

    @Test
    void threadsEncryptingAndDecryptingAtOnceDoNotDisturbEachOther() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    byte[] id = ContentCipher.newFileId();
                    for (int i = 0; i < 300; i++) {
                        byte[] plain = new byte[1 + r.nextInt(4096)];
                        r.nextBytes(plain);
                        assertArrayEquals(plain, content.decryptBlock(content.encryptBlock(plain, i, id), i, id));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void afterTheMasterKeyIsClosedNothingEncryptsOrDecrypts() {
        MasterKey k = MasterKey.of(KEY, 255);
        ContentCipher c = k.content();
        byte[] stored = c.encryptBlock(new byte[10], 0, fileId);
        k.close();
        assertThrows(IllegalStateException.class, () -> c.encryptBlock(new byte[10], 0, fileId));
        assertThrows(IllegalStateException.class, () -> c.decryptBlock(stored, 0, fileId));
        assertThrows(IllegalStateException.class, k::content);
    }

    @Test
    void misuseIsRefusedBeforeAnythingIsEncrypted() {
        assertThrows(IllegalArgumentException.class, () -> content.encryptBlock(new byte[4097], 0, fileId));
        assertThrows(IllegalArgumentException.class, () -> content.encryptBlock(new byte[1], 0, new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> content.encryptBlock(new byte[1], -1, fileId));
        assertThrows(IllegalArgumentException.class, () -> content.decryptBlock(new byte[4129], 0, fileId));
        assertThrows(IndexOutOfBoundsException.class, () -> content.encryptBlock(new byte[10], 0, 10, 0, fileId, new byte[41], 0));
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
