package dev.fusepanama.vault.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * File names in gocryptfs's format: the plaintext name (bytes; Linux names need not be UTF-8)
 * is padded to a multiple of 16 with PKCS#7, enciphered with EME over AES-256 under the directory's
 * IV ({@link DirIv}) as tweak, and written as Raw64 (URL-safe base64, no padding).
 *
 * <p>Long names: an encrypted name longer than {@link #longNameMax()} (255 unless the vault was
 * created with {@code -longnamemax}) is stored as {@code gocryptfs.longname.} + Raw64(SHA-256
 * of the encrypted name's text), with the full encrypted name in a sibling file of the same name
 * plus {@code .name} (mode 0444). With the default limit, plaintext names of up to 175 bytes are
 * stored directly (176 bytes pad to 192 and encode to 256 characters).
 *
 * <p>A directory listing of the ciphertext also holds {@link DirIv#FILE_NAME} and, at the root,
 * {@link VaultConfig#FILE_NAME}; neither is base64, so neither decrypts, and a file system hides
 * both, as it hides {@code .name} files.
 *
 * <p>Thread-safe. Obtained from {@link MasterKey#names()}.
 */
public final class NameCipher {
    /** The longest plaintext name gocryptfs accepts (ext4's limit). */
    public static final int NAME_MAX = 255;
    /** Encrypted names longer than this are hashed unless gocryptfs.conf says otherwise. */
    public static final int DEFAULT_LONG_NAME_MAX = 255;
    /** The lowest {@code -longnamemax} gocryptfs accepts: the length of a hashed name. */
    public static final int MIN_LONG_NAME_MAX = 62;
    /** What a long-name entry's name starts with; the Raw64 hash of the encrypted name follows. */
    public static final String LONG_NAME_PREFIX = "gocryptfs.longname.";
    /** What the name of the file beside a long-name entry adds to the entry's: it holds the full encrypted name. */
    public static final String LONG_NAME_SUFFIX = ".name";
    /**
     * The most a {@code .name} file can hold: a 255-byte name pads to 256 bytes, 342 Raw64
     * characters (gocryptfs reads up to 344 and refuses more).
     */
    public static final int MAX_LONG_NAME_FILE = 344;

    private static final byte[] PREFIX = LONG_NAME_PREFIX.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUFFIX = LONG_NAME_SUFFIX.getBytes(StandardCharsets.US_ASCII);
    /** 255 bytes pad to 256: nothing longer can decrypt to a valid name. */
    private static final int MAX_PADDED = (NAME_MAX / Eme.BLOCK + 1) * Eme.BLOCK;

    private final Eme eme;
    private final int longNameMax;

    NameCipher(Eme eme, int longNameMax) {
        if (longNameMax < MIN_LONG_NAME_MAX || longNameMax > DEFAULT_LONG_NAME_MAX) {
            throw new IllegalArgumentException("LongNameMax must be 62..255, not " + longNameMax);
        }
        this.eme = eme;
        this.longNameMax = longNameMax;
    }

    /**
     * The encrypted form of a name in a directory; possibly longer than {@link #longNameMax()}, see
     * {@link #diskName}.
     *
     * @param plainName the name's bytes
     * @param dirIv the IV of the directory it is in ({@link DirIv}), 16 bytes
     * @return the encrypted name, as ASCII bytes
     * @throws IllegalArgumentException for a name no directory can hold: empty, over 255 bytes
     *     ({@code ENAMETOOLONG}), containing {@code /} or NUL, or {@code .} / {@code ..}; or an IV
     *     that is not 16 bytes
     */
    public byte[] encrypt(byte[] plainName, byte[] dirIv) {
        String problem = plainNameProblem(plainName);
        if (problem != null) {
            throw new IllegalArgumentException("cannot encrypt file name: " + problem);
        }
        DirIv.require(dirIv);
        return seal(plainName, dirIv);
    }

    /** The IV gocryptfs encrypts every extended attribute's name with. */
    private static final byte[] XATTR_IV = "xattr_name_iv_xx".getBytes(StandardCharsets.US_ASCII);
    /** What a stored extended attribute's name starts with: every one lives in the user namespace of the ciphertext file. */
    public static final String XATTR_PREFIX = "user.gocryptfs.";

    /**
     * The name an extended attribute has on the ciphertext file: {@link #XATTR_PREFIX} and the name
     * encrypted as a file name is, under a fixed IV.
     *
     * @param plainName the attribute's name, namespace included ("user.x")
     * @return the stored name, ASCII
     * @throws IllegalArgumentException for an empty name, one over 255 bytes or one with a NUL
     */
    public byte[] encryptXattrName(byte[] plainName) {
        if (plainName.length == 0 || plainName.length > NAME_MAX) {
            throw new IllegalArgumentException("cannot encrypt an attribute name of " + plainName.length + " bytes");
        }
        for (byte b : plainName) {
            if (b == 0) throw new IllegalArgumentException("cannot encrypt an attribute name with a NUL");
        }
        byte[] prefix = XATTR_PREFIX.getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = seal(plainName, XATTR_IV);
        byte[] out = Arrays.copyOf(prefix, prefix.length + sealed.length);
        System.arraycopy(sealed, 0, out, prefix.length, sealed.length);
        return out;
    }

    /**
     * Inverse of {@link #encryptXattrName}.
     *
     * @param stored the name on the ciphertext file, {@link #XATTR_PREFIX} included
     * @return the attribute's plaintext name, namespace included
     * @throws InvalidNameException if {@code stored} lacks the prefix or does not decrypt to a name without NUL
     */
    public byte[] decryptXattrName(byte[] stored) throws InvalidNameException {
        byte[] prefix = XATTR_PREFIX.getBytes(StandardCharsets.US_ASCII);
        if (stored.length <= prefix.length || !Arrays.equals(stored, 0, prefix.length, prefix, 0, prefix.length)) {
            throw new InvalidNameException(describe(stored) + ": not an encrypted attribute name");
        }
        byte[] plain = open(Arrays.copyOfRange(stored, prefix.length, stored.length), XATTR_IV);
        for (byte b : plain) {
            if (b == 0) throw new InvalidNameException(describe(stored) + ": decrypts to a name with a NUL");
        }
        return plain;
    }

    /** {@code plain} padded (PKCS#7, 16) and EME-encrypted under {@code iv}, as Raw64 text. */
    private byte[] seal(byte[] plainName, byte[] dirIv) {
        int padded = (plainName.length / Eme.BLOCK + 1) * Eme.BLOCK;
        byte[] block = Arrays.copyOf(plainName, padded);
        Arrays.fill(block, plainName.length, padded, (byte) (padded - plainName.length));
        return Raw64.encode(eme.encrypt(dirIv, block));
    }

    /**
     * The plaintext name an encrypted name stands for in a directory.
     *
     * @param cipherName a full encrypted name: a directory entry, or the content of a {@code .name} file
     * @param dirIv the IV of the directory it is in, 16 bytes
     * @return the plaintext name
     * @throws InvalidNameException if it does not decrypt to a valid file name (the message says why)
     * @throws IllegalArgumentException if {@code dirIv} is not 16 bytes
     */
    public byte[] decrypt(byte[] cipherName, byte[] dirIv) throws InvalidNameException {
        DirIv.require(dirIv);
        byte[] plain = open(cipherName, dirIv);
        String problem = plainNameProblem(plain);
        if (problem != null) {
            throw new InvalidNameException(describe(cipherName) + ": decrypts to a forbidden name: " + problem);
        }
        return plain;
    }

    /** Decodes, decrypts and unpads {@code cipherName} under {@code iv}. */
    private byte[] open(byte[] cipherName, byte[] iv) throws InvalidNameException {
        byte[] data;
        try {
            data = Raw64.decode(cipherName);
        } catch (IllegalArgumentException e) {
            throw new InvalidNameException(describe(cipherName) + ": " + e.getMessage(), e);
        }
        if (data.length == 0 || data.length % Eme.BLOCK != 0) {
            throw new InvalidNameException(describe(cipherName) + ": decodes to " + data.length
                    + " bytes, not a positive multiple of " + Eme.BLOCK);
        }
        if (data.length > MAX_PADDED) {
            throw new InvalidNameException(describe(cipherName) + ": decodes to " + data.length
                    + " bytes, more than a " + NAME_MAX + "-byte name encrypts to");
        }
        byte[] padded = eme.decrypt(iv, data);
        int pad = padded[padded.length - 1] & 0xff;
        if (pad == 0 || pad > Eme.BLOCK) {
            throw new InvalidNameException(describe(cipherName) + ": bad padding (last byte " + pad + ", must be 1..16)");
        }
        if (pad >= padded.length) {
            throw new InvalidNameException(describe(cipherName) + ": bad padding (covers the whole name)");
        }
        for (int i = padded.length - pad; i < padded.length; i++) {
            if ((padded[i] & 0xff) != pad) {
                throw new InvalidNameException(describe(cipherName) + ": bad padding (byte " + i + " differs from the pad length)");
            }
        }
        return Arrays.copyOf(padded, padded.length - pad);
    }

    /** {@return the length above which encrypted names are stored as long names} */
    public int longNameMax() {
        return longNameMax;
    }

    /**
     * {@return whether an encrypted name is too long to be a directory entry itself}
     *
     * @param cipherName the encrypted name
     */
    public boolean mustStoreLong(byte[] cipherName) {
        return cipherName.length > longNameMax;
    }

    /**
     * {@return the directory entry for an encrypted name: itself, or its hashed long name}
     *
     * @param cipherName the encrypted name
     */
    public byte[] diskName(byte[] cipherName) {
        return mustStoreLong(cipherName) ? longNameFor(cipherName) : cipherName;
    }

    /**
     * {@return {@code gocryptfs.longname.} + Raw64(SHA-256({@code cipherName}))}: the entry holding a long-named file.
     *
     * @param cipherName the full encrypted name
     */
    public static byte[] longNameFor(byte[] cipherName) {
        byte[] hash;
        try {
            hash = MessageDigest.getInstance("SHA-256").digest(cipherName);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
        return concat(PREFIX, Raw64.encode(hash));
    }

    /**
     * {@return whether a directory entry is a long-name entry} (the file, directory or link itself, not its {@code .name})
     *
     * @param diskName the entry's name in the ciphertext directory
     */
    public static boolean isLongName(byte[] diskName) {
        return startsWith(diskName, PREFIX) && !endsWith(diskName, SUFFIX);
    }

    /**
     * {@return whether a directory entry is the {@code .name} file beside a long-name entry}
     *
     * @param diskName the entry's name in the ciphertext directory
     */
    public static boolean isLongNameFile(byte[] diskName) {
        return startsWith(diskName, PREFIX) && endsWith(diskName, SUFFIX);
    }

    /**
     * {@return the name of the {@code .name} file that holds the full encrypted name of a long-name entry}
     *
     * @param longName the long-name entry's name
     */
    public static byte[] longNameFileFor(byte[] longName) {
        return concat(longName, SUFFIX);
    }

    /**
     * Why {@code name} cannot be a file name: empty, over 255 bytes, a {@code /} or NUL byte, or
     * {@code .} / {@code ..}. gocryptfs checks the same both ways.
     *
     * @param name a plaintext name
     * @return the reason, in words, or null if it can be a name
     */
    public static String plainNameProblem(byte[] name) {
        if (name.length == 0) {
            return "empty";
        }
        if (name.length > NAME_MAX) {
            return name.length + " bytes, more than " + NAME_MAX;
        }
        for (byte b : name) {
            if (b == '/' || b == 0) {
                return b == 0 ? "contains a NUL byte" : "contains '/'";
            }
        }
        if (name[0] == '.' && (name.length == 1 || (name.length == 2 && name[1] == '.'))) {
            return "'.' and '..' are not names of entries";
        }
        return null;
    }

    private static String describe(byte[] cipherName) {
        int shown = Math.min(cipherName.length, 64);
        StringBuilder s = new StringBuilder("encrypted name \"");
        for (int i = 0; i < shown; i++) {
            int c = cipherName[i] & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                s.append((char) c);
            } else {
                s.append(String.format("\\x%02x", c));
            }
        }
        return s.append(shown < cipherName.length ? "...\"" : "\"").toString();
    }

    private static boolean startsWith(byte[] a, byte[] prefix) {
        return a.length >= prefix.length && Arrays.equals(a, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static boolean endsWith(byte[] a, byte[] suffix) {
        return a.length >= suffix.length && Arrays.equals(a, a.length - suffix.length, a.length, suffix, 0, suffix.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
