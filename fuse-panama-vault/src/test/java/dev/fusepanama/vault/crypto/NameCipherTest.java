package dev.fusepanama.vault.crypto;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** File names: what they encrypt to, which of them are stored long, and which stored names are refused and why. */
class NameCipherTest {
    private static final byte[] KEY = new byte[32];
    private static final byte[] IV = new byte[16];

    static {
        new Random(3).nextBytes(KEY);
        new Random(4).nextBytes(IV);
    }

    private final MasterKey key = MasterKey.of(KEY, 255);
    private final NameCipher names = key.names();

    @AfterEach
    void close() {
        key.close();
    }

    @Test
    void everyNameLengthFromOneTo255BytesDecryptsToItself() throws Exception {
        Random random = new Random(5);
        for (int length = 1; length <= NameCipher.NAME_MAX; length++) {
            byte[] name = new byte[length];
            for (int i = 0; i < length; i++) {
                name[i] = (byte) (1 + random.nextInt(255));
                if (name[i] == '/') {
                    name[i] = 'x';
                }
            }
            if (NameCipher.plainNameProblem(name) != null) {
                continue;
            }
            byte[] encrypted = names.encrypt(name, IV);
            assertArrayEquals(name, names.decrypt(encrypted, IV), "length " + length);
        }
    }

    @Test
    void namesThatAreNotUtf8SurviveByteForByte() throws Exception {
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xe9};
        byte[] lone = {(byte) 0xff, (byte) 0xfe, (byte) 0x80};
        assertArrayEquals(latin1, names.decrypt(names.encrypt(latin1, IV), IV));
        assertArrayEquals(lone, names.decrypt(names.encrypt(lone, IV), IV));
    }

    /** PKCS#7 always pads: 15 bytes to 16, 16 and 17 bytes to 32; Raw64 of 16 bytes is 22 characters, of 32 bytes 43. */
    @Test
    void encryptedNamesAreUnpaddedUrlSafeBase64OfWholeBlocks() {
        assertEquals(22, names.encrypt(new byte[] {'a'}, IV).length);
        assertEquals(22, names.encrypt(ascii(15), IV).length);
        assertEquals(43, names.encrypt(ascii(16), IV).length);
        assertEquals(43, names.encrypt(ascii(17), IV).length);
        for (int length : new int[] {1, 15, 16, 17, 100, 255}) {
            byte[] encrypted = names.encrypt(ascii(length), IV);
            for (byte b : encrypted) {
                assertTrue(Character.isLetterOrDigit(b) || b == '-' || b == '_', "character " + (char) b);
            }
            int padded = (length / 16 + 1) * 16;
            assertEquals(padded, Base64.getUrlDecoder().decode(encrypted).length);
        }
    }

    @Test
    void theSameNameEncryptsTheSameInOneDirectoryAndDifferentlyInAnother() {
        byte[] name = "report.txt".getBytes(UTF_8);
        byte[] otherIv = IV.clone();
        otherIv[15] ^= 1;
        assertArrayEquals(names.encrypt(name, IV), names.encrypt(name, IV));
        assertFalse(Arrays.equals(names.encrypt(name, IV), names.encrypt(name, otherIv)));
    }

    @Test
    void aNameFromAnotherDirectoryDoesNotDecryptToItself() {
        byte[] name = "report.txt".getBytes(UTF_8);
        byte[] encrypted = names.encrypt(name, IV);
        byte[] otherIv = IV.clone();
        otherIv[0] ^= 1;
        try {
            assertFalse(Arrays.equals(name, names.decrypt(encrypted, otherIv)));
        } catch (InvalidNameException expected) {
            assertTrue(expected.getMessage().contains("padding"), expected.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", ".."})
    void emptyDotAndDotDotCannotBeEncrypted(String name) {
        assertThrows(IllegalArgumentException.class, () -> names.encrypt(name.getBytes(US_ASCII), IV));
    }

    @Test
    void namesWithSlashOrNulOrOver255BytesCannotBeEncrypted() {
        assertThrows(IllegalArgumentException.class, () -> names.encrypt("a/b".getBytes(US_ASCII), IV));
        assertThrows(IllegalArgumentException.class, () -> names.encrypt(new byte[] {'a', 0}, IV));
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> names.encrypt(ascii(256), IV));
        assertTrue(tooLong.getMessage().contains("256 bytes"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> names.encrypt(ascii(3), new byte[15]));
    }

    @Test
    void storedNamesThatAreNotRaw64AreRefusedAsBadBase64() {
        byte[] good = names.encrypt("x".getBytes(US_ASCII), IV);
        for (String bad : new String[] {"gocryptfs.diriv", "gocryptfs.conf", "abc+def/ghijklmnopqrstu", "abcdefghijklmnopqrstuv==",
                                        new String(good, US_ASCII) + "=", "a\nb"}) {
            InvalidNameException e = assertThrows(InvalidNameException.class, () -> names.decrypt(bad.getBytes(US_ASCII), IV), bad);
            assertTrue(e.getMessage().contains("base64"), e.getMessage());
        }
        byte[] fiveChars = "abcde".getBytes(US_ASCII);
        assertTrue(assertThrows(InvalidNameException.class, () -> names.decrypt(fiveChars, IV)).getMessage().contains("base64"));
    }

    /** Go's decoder ignores set bits in the last character; accepting them would give one file two names. */
    @Test
    void aStoredNameWithSetUnusedBitsIsRefusedAsNonCanonical() {
        byte[] good = names.encrypt("x".getBytes(US_ASCII), IV);
        byte[] bad = good.clone();
        // 16 bytes in 22 characters: the last carries 2 bits of data and 4 unused ones.
        char last = (char) bad[21];
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        bad[21] = (byte) alphabet.charAt(alphabet.indexOf(last) | 1);
        InvalidNameException e = assertThrows(InvalidNameException.class, () -> names.decrypt(bad, IV));
        assertTrue(e.getMessage().contains("canonical"), e.getMessage());
    }

    @Test
    void storedNamesOfImpossibleLengthsAreRefusedAsBadLength() {
        byte[] eightBytes = Base64.getUrlEncoder().withoutPadding().encode(new byte[8]);
        InvalidNameException e = assertThrows(InvalidNameException.class, () -> names.decrypt(eightBytes, IV));
        assertTrue(e.getMessage().contains("multiple of 16"), e.getMessage());
        byte[] tooLong = Base64.getUrlEncoder().withoutPadding().encode(new byte[272]);
        e = assertThrows(InvalidNameException.class, () -> names.decrypt(tooLong, IV));
        assertTrue(e.getMessage().contains("more than a 255-byte name"), e.getMessage());
        assertThrows(InvalidNameException.class, () -> names.decrypt(new byte[0], IV));
    }

    @Test
    void storedNamesWhosePaddingIsWrongAreRefusedAsBadPadding() throws Exception {
        byte[] nameKey = Hkdf.sha256(KEY, Hkdf.NAMES_INFO, 32);
        try (Eme eme = new Eme(nameKey)) {
            byte[][] badBlocks = new byte[4][];
            badBlocks[0] = "fifteen bytes..\0".getBytes(US_ASCII);       // pad byte 0
            badBlocks[1] = "fifteen bytes..\u0011".getBytes(US_ASCII);   // pad byte 17
            badBlocks[2] = "fourteen bytes\u0003\u0002".getBytes(US_ASCII); // pad bytes differ
            badBlocks[3] = new byte[16];
            Arrays.fill(badBlocks[3], (byte) 16);                          // pad is the whole name
            for (byte[] block : badBlocks) {
                byte[] stored = Raw64.encode(eme.encrypt(IV, block));
                InvalidNameException e = assertThrows(InvalidNameException.class, () -> names.decrypt(stored, IV));
                assertTrue(e.getMessage().contains("bad padding"), e.getMessage());
            }
            byte[] slash = Raw64.encode(eme.encrypt(IV, "a/b\r\r\r\r\r\r\r\r\r\r\r\r\r".getBytes(US_ASCII)));
            InvalidNameException e = assertThrows(InvalidNameException.class, () -> names.decrypt(slash, IV));
            assertTrue(e.getMessage().contains("contains '/'"), e.getMessage());
            byte[] dotDot = Raw64.encode(eme.encrypt(IV, "..\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e\u000e".getBytes(US_ASCII)));
            e = assertThrows(InvalidNameException.class, () -> names.decrypt(dotDot, IV));
            assertTrue(e.getMessage().contains("'..'"), e.getMessage());
        }
    }

    /** 175 bytes pad to 176 and encode to 235 characters; 176 bytes pad to 192, 256 characters, over 255. */
    @Test
    void withTheDefaultLimitNamesUpTo175BytesAreStoredDirectlyAndLongerOnesHashed() {
        byte[] short175 = names.encrypt(ascii(175), IV);
        byte[] long176 = names.encrypt(ascii(176), IV);
        assertEquals(235, short175.length);
        assertEquals(256, long176.length);
        assertFalse(names.mustStoreLong(short175));
        assertTrue(names.mustStoreLong(long176));
        assertArrayEquals(short175, names.diskName(short175));
        assertArrayEquals(NameCipher.longNameFor(long176), names.diskName(long176));
    }

    @Test
    void aLowerLongNameMaxHashesShorterNames() {
        try (MasterKey k = MasterKey.of(KEY, 62)) {
            NameCipher low = k.names();
            byte[] sixtyTwo = new byte[62];
            assertFalse(low.mustStoreLong(sixtyTwo));
            assertTrue(low.mustStoreLong(new byte[63]));
            assertEquals(62, low.longNameMax());
        }
        assertThrows(IllegalArgumentException.class, () -> MasterKey.of(KEY, 61));
    }

    @Test
    void aLongNameIsThePrefixAndTheRaw64Sha256OfTheEncryptedNameText() throws Exception {
        byte[] encrypted = names.encrypt(ascii(200), IV);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(encrypted);
        String expected = "gocryptfs.longname." + Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        byte[] longName = NameCipher.longNameFor(encrypted);
        assertEquals(expected, new String(longName, US_ASCII));
        assertEquals(62, longName.length);
        assertEquals(expected + ".name", new String(NameCipher.longNameFileFor(longName), US_ASCII));
    }

    @Test
    void longNameEntriesAndTheirNameFilesAreToldApartByPrefixAndSuffix() {
        byte[] longName = NameCipher.longNameFor(names.encrypt(ascii(200), IV));
        byte[] nameFile = NameCipher.longNameFileFor(longName);
        assertTrue(NameCipher.isLongName(longName));
        assertFalse(NameCipher.isLongNameFile(longName));
        assertTrue(NameCipher.isLongNameFile(nameFile));
        assertFalse(NameCipher.isLongName(nameFile));
        byte[] ordinary = names.encrypt(ascii(10), IV);
        assertFalse(NameCipher.isLongName(ordinary));
        assertFalse(NameCipher.isLongNameFile(ordinary));
        assertFalse(NameCipher.isLongName(DirIv.FILE_NAME.getBytes(US_ASCII)));
    }

    @Test
    void theLongestNameFitsTheLimitGocryptfsReadsFromANameFile() {
        assertEquals(342, names.encrypt(ascii(255), IV).length);
        assertTrue(342 <= NameCipher.MAX_LONG_NAME_FILE);
    }

    private static byte[] ascii(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }
}
