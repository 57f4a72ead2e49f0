package dev.fusepanama.vault.crypto;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * {@code gocryptfs.conf}, the vault's only plaintext metadata: JSON holding the master key
 * encrypted under a key derived from the password, the scrypt parameters of that derivation,
 * the format version (2) and the feature flags.
 *
 * <p>Wrapping: {@code scrypt(password as UTF-8, Salt, N, R, P, 32)} gives a 32-byte key; HKDF
 * with the content-encryption info string turns it into an AES-256-GCM key; the 32-byte master
 * key is sealed like a symlink target (block 0, no file ID, associated data eight zero bytes),
 * so {@code EncryptedKey} is 16 nonce + 32 ciphertext + 16 tag bytes, standard base64 in JSON.
 *
 * <p>Supported: exactly what {@code gocryptfs -init} 2.3 writes with default options, that is
 * the flags {@code HKDF GCMIV128 DirIV EMENames LongNames Raw64}, plus {@code LongNameMax}
 * ({@code -longnamemax}). Anything else is refused with an {@link IOException} naming the flag.
 */
public final class VaultConfig {
    /** The file's name, at the root of the ciphertext directory. */
    public static final String FILE_NAME = "gocryptfs.conf";
    /** Written as {@code Creator}; gocryptfs writes "gocryptfs VERSION" there, and only people read it. */
    public static final String CREATOR = "fuse-panama";
    /** The scrypt cost gocryptfs uses by default: N = 2^16, about 64 MiB and a fraction of a second. */
    public static final int DEFAULT_SCRYPT_LOG_N = 16;
    /** gocryptfs refuses lower costs in a config file; its -scryptn accepts 10..28. */
    public static final int MIN_SCRYPT_LOG_N = 10;
    /**
     * One below gocryptfs's -scryptn limit: N = 2^28 at gocryptfs's R = 8 (256 GiB) is more than
     * Bouncy Castle's scrypt can compute, whose int arithmetic overflows at N·R = 2^31.
     */
    public static final int MAX_SCRYPT_LOG_N = 27;
    /**
     * The most scrypt work, N·R·P, a vault may ask for: that of {@code gocryptfs -init -scryptn 27}
     * (R = 8, P = 1), the costliest vault of gocryptfs's that can be opened here; about ten minutes
     * of one core (gocryptfs's default, 2^16, takes a third of a second).
     */
    public static final long MAX_SCRYPT_WORK = 1L << 30;

    private static final String LONG_NAME_MAX = "LongNameMax";
    /** The flags of {@code gocryptfs -init} 2.3 with default options, in its order; LongNameMax goes after DirIV. */
    private static final List<String> REQUIRED_FLAGS = List.of("HKDF", "GCMIV128", "DirIV", "EMENames", "LongNames", "Raw64");
    private static final Map<String, String> WITHOUT_REQUIRED = Map.of(
            "HKDF", "keys are not derived with HKDF (a vault from gocryptfs before 1.3)",
            "GCMIV128", "content nonces are not 128 bits (a vault from gocryptfs before 1.0, or -xchacha)",
            "DirIV", "names are encrypted without per-directory IVs (-deterministic-names, or gocryptfs before 0.5)",
            "EMENames", "names are not EME-encrypted (-plaintextnames, or gocryptfs before 0.9)",
            "LongNames", "long names are not hashed (-longnames=false, or gocryptfs before 0.9)",
            "Raw64", "names use padded base64 (-raw64=false, or gocryptfs before 1.3)");
    private static final Map<String, String> REFUSED_FLAGS = Map.of(
            "PlaintextNames", "file names are not encrypted (-plaintextnames)",
            "AESSIV", "contents are encrypted with AES-SIV (-aessiv, as reverse mode uses)",
            "XChaCha20Poly1305", "contents are encrypted with XChaCha20-Poly1305 (-xchacha)",
            "FIDO2", "the master key is unlocked by a FIDO2 token, not a password (-fido2)");
    private static final int SALT_SIZE = 32;
    /** gocryptfs writes 32 bytes; a salt this long is no vault's. */
    private static final int MAX_SALT_SIZE = 1024;
    private static final int SCRYPT_R = 8;
    private static final int SCRYPT_P = 1;
    private static final int ENCRYPTED_KEY_SIZE = MasterKey.SIZE + ContentCipher.BLOCK_OVERHEAD;
    /** A real gocryptfs.conf is under 1 KiB. */
    private static final long MAX_FILE_SIZE = 64 * 1024;

    private final String creator;
    private final byte[] encryptedKey;
    private final byte[] salt;
    private final int scryptLogN;
    private final int scryptR;
    private final int scryptP;
    private final List<String> featureFlags;
    /** 0 when the file sets none (255 applies). */
    private final int longNameMax;

    /**
     * A new vault's configuration and its master key; closing it closes the key.
     *
     * @param config the configuration, to {@link VaultConfig#write write}
     * @param masterKey the new vault's master key, already unlocked
     */
    public record Created(VaultConfig config, MasterKey masterKey) implements AutoCloseable {
        @Override
        public void close() {
            masterKey.close();
        }
    }

    private VaultConfig(String creator, byte[] encryptedKey, byte[] salt, int scryptLogN, int scryptR, int scryptP,
                        List<String> featureFlags, int longNameMax) {
        this.creator = creator;
        this.encryptedKey = encryptedKey;
        this.salt = salt;
        this.scryptLogN = scryptLogN;
        this.scryptR = scryptR;
        this.scryptP = scryptP;
        this.featureFlags = List.copyOf(featureFlags);
        this.longNameMax = longNameMax;
    }

    // ---- create and unlock --------------------------------------------------------------------

    /**
     * {@link #create(char[], int, int)} with the default long-name limit (255).
     *
     * @param password the password, which the caller wipes
     * @param scryptLogN the scrypt cost's exponent, {@link #MIN_SCRYPT_LOG_N} to {@link #MAX_SCRYPT_LOG_N}
     * @return the configuration and the master key
     * @throws IllegalArgumentException as {@link #create(char[], int, int)}
     */
    public static Created create(char[] password, int scryptLogN) {
        return create(password, scryptLogN, NameCipher.DEFAULT_LONG_NAME_MAX);
    }

    /**
     * A new vault: a random master key wrapped under {@code password} with scrypt cost
     * {@code 2^scryptLogN}, R=8, P=1 and a random 32-byte salt. Nothing is written: see
     * {@link #write}, and create the root's {@link DirIv} beside it.
     *
     * @param password the password, which the caller wipes; not empty
     * @param scryptLogN the scrypt cost's exponent, 10..27, needing memory this JVM can give,
     *     2^(logN + 10) bytes ({@link #DEFAULT_SCRYPT_LOG_N}, 16, is about 64 MiB and a fraction of a second)
     * @param longNameMax gocryptfs's {@code -longnamemax}, 62..255: encrypted names longer than this are hashed
     * @return the configuration and the master key
     * @throws IllegalArgumentException for an empty password or one that is not valid Unicode, a
     *     cost outside the range or beyond this JVM's memory, or a {@code longNameMax} outside the range
     */
    public static Created create(char[] password, int scryptLogN, int longNameMax) {
        if (password.length == 0) {
            throw new IllegalArgumentException("empty password (gocryptfs refuses one too)");
        }
        if (scryptLogN < MIN_SCRYPT_LOG_N || scryptLogN > MAX_SCRYPT_LOG_N) {
            throw new IllegalArgumentException("scrypt logN must be " + MIN_SCRYPT_LOG_N + ".." + MAX_SCRYPT_LOG_N + ", not " + scryptLogN);
        }
        String unaffordable = scryptCostProblem(scryptLogN, SCRYPT_R, SCRYPT_P);
        if (unaffordable != null) {
            throw new IllegalArgumentException(unaffordable);
        }
        if (longNameMax < NameCipher.MIN_LONG_NAME_MAX || longNameMax > NameCipher.DEFAULT_LONG_NAME_MAX) {
            throw new IllegalArgumentException("LongNameMax must be 62..255, not " + longNameMax);
        }
        List<String> flags = new ArrayList<>(REQUIRED_FLAGS);
        int storedLongNameMax = 0;
        if (longNameMax != NameCipher.DEFAULT_LONG_NAME_MAX) {
            // gocryptfs stores it only when it differs from the default.
            flags.add(flags.indexOf("DirIV") + 1, LONG_NAME_MAX);
            storedLongNameMax = longNameMax;
        }
        byte[] salt = SecureBytes.bytes(SALT_SIZE);
        MasterKey masterKey = MasterKey.random(longNameMax);
        byte[] key = masterKey.copy();
        byte[] kek = passwordKey(password, salt, scryptLogN, SCRYPT_R, SCRYPT_P);
        ContentCipher wrapping = new ContentCipher(kek);
        try {
            byte[] encryptedKey = wrapping.sealUnbound(key);
            VaultConfig config = new VaultConfig(CREATOR, encryptedKey, salt, scryptLogN, SCRYPT_R, SCRYPT_P, flags, storedLongNameMax);
            return new Created(config, masterKey);
        } finally {
            wrapping.close();
            Arrays.fill(kek, (byte) 0);
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * The master key, unwrapped with {@code password}. Costs one scrypt run at the vault's cost.
     *
     * @param password the password, which the caller wipes
     * @return the master key, to close when the vault is no longer used
     * @throws WrongPasswordException if the password does not authenticate the wrapped key
     */
    public MasterKey unlock(char[] password) throws WrongPasswordException {
        byte[] kek = passwordKey(password, salt, scryptLogN, scryptR, scryptP);
        ContentCipher wrapping = new ContentCipher(kek);
        byte[] key = null;
        try {
            key = wrapping.openUnbound(encryptedKey);
            return MasterKey.of(key, longNameMax());
        } catch (CorruptDataException e) {
            throw new WrongPasswordException("wrong password: it does not unlock the master key in " + FILE_NAME, e);
        } finally {
            wrapping.close();
            Arrays.fill(kek, (byte) 0);
            if (key != null) {
                Arrays.fill(key, (byte) 0);
            }
        }
    }

    /** scrypt, then HKDF to the AES-GCM key that wraps the master key. */
    private static byte[] passwordKey(char[] password, byte[] salt, int logN, int r, int p) {
        byte[] utf8 = utf8(password);
        byte[] hash = null;
        try {
            hash = SCrypt.generate(utf8, salt, 1 << logN, r, p, MasterKey.SIZE);
            return Hkdf.sha256(hash, Hkdf.CONTENT_INFO, MasterKey.SIZE);
        } finally {
            Arrays.fill(utf8, (byte) 0);
            if (hash != null) {
                Arrays.fill(hash, (byte) 0);
            }
        }
    }

    /**
     * Why scrypt with N = 2^logN, {@code r} and {@code p} cannot run here, or null if it can: more
     * work than {@link #MAX_SCRYPT_WORK}, or more memory (the 128·N·R bytes of its table, and
     * 256·R·P of its blocks) than this JVM's heap can still give, which scrypt would otherwise
     * find out by an OutOfMemoryError after a long wait.
     */
    static String scryptCostProblem(int logN, long r, long p) {
        long nr = (1L << logN) * r; // r < 2^31 and logN <= 27: no overflow
        if (nr > MAX_SCRYPT_WORK / p) {
            BigInteger work = BigInteger.valueOf(nr).multiply(BigInteger.valueOf(p));
            return "scrypt N = 2^" + logN + ", R = " + r + ", P = " + p + " asks for N·R·P = "
                    + (work.bitCount() == 1 ? "" : "about ") + "2^" + (work.bitLength() - 1) + " of work, more than 2^30, that of"
                    + " gocryptfs -scryptn 27 (R = 8, P = 1), the costliest vault that opens here";
        }
        long memory = 128 * nr + 256 * r * p;
        Runtime runtime = Runtime.getRuntime();
        long available = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        if (memory > available) {
            return "scrypt N = 2^" + logN + ", R = " + r + ", P = " + p + " needs " + size(memory) + " of memory, more than this"
                    + " JVM can give (" + size(available) + " of its heap is free; java -Xmx raises the heap)";
        }
        return null;
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }

    /** The password as gocryptfs hashes it: the bytes typed, UTF-8 on any sane terminal. */
    private static byte[] utf8(char[] password) {
        ByteBuffer encoded;
        try {
            encoded = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(password));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("password is not valid Unicode (an unpaired surrogate)", e);
        }
        byte[] bytes = Arrays.copyOfRange(encoded.array(), encoded.arrayOffset() + encoded.position(),
                encoded.arrayOffset() + encoded.limit());
        Arrays.fill(encoded.array(), (byte) 0);
        return bytes;
    }

    // ---- accessors ----------------------------------------------------------------------------

    /** {@return the file's {@code Creator}}: "gocryptfs VERSION", {@link #CREATOR}, or whatever wrote it; only people read it. */
    public String creator() {
        return creator;
    }

    /** {@return always {@link ContentCipher#VERSION}}: other versions are refused when read. */
    public int version() {
        return ContentCipher.VERSION;
    }

    /** {@return the file's feature flags, in its order} (unmodifiable): the six gocryptfs sets by default, and {@code LongNameMax} if set. */
    public List<String> featureFlags() {
        return featureFlags;
    }

    /** {@return the file's {@code LongNameMax}, or 255 where it sets none}: encrypted names longer than this are hashed. */
    public int longNameMax() {
        return longNameMax == 0 ? NameCipher.DEFAULT_LONG_NAME_MAX : longNameMax;
    }

    /** {@return the scrypt cost's exponent}: N = 2^scryptLogN. */
    public int scryptLogN() {
        return scryptLogN;
    }

    // ---- the file -----------------------------------------------------------------------------

    /**
     * What Gson says is wrong, in a shell user's words: its first line, without the name of its
     * exception class or its advice on lenient parsing ("unterminated string at line 5 column 33").
     */
    static String jsonProblem(Exception e) {
        Throwable t = e.getCause() != null && e instanceof JsonParseException ? e.getCause() : e;
        String first = String.valueOf(t.getMessage()).lines().findFirst().orElse("");
        first = first.replaceFirst("^[a-z]+(\\.[a-z]+)*\\.[A-Z][A-Za-z]*(Exception|Error): ", "");
        first = first.replaceFirst("^Use JsonReader\\.setStrictness\\([^)]*\\) to accept malformed JSON ", "malformed JSON ");
        first = first.replaceFirst(" path \\$.*$", "");
        return first.isEmpty() ? "malformed" : Character.toLowerCase(first.charAt(0)) + first.substring(1);
    }

    /**
     * Reads and checks a gocryptfs.conf. Nothing costly runs before these checks.
     *
     * @param file the gocryptfs.conf
     * @return the configuration, to {@link #unlock}
     * @throws IOException naming the file and what is wrong: unreadable, not JSON, a field missing
     *     or of the wrong type, a format version other than 2, a feature flag this code refuses or
     *     does not know or a default one that is missing, scrypt parameters gocryptfs would refuse
     *     (N below 2^10, R below 8, P below 1, salt under 32 bytes, KeyLen other than 32), scrypt
     *     parameters that cannot run here (N above 2^27, N·R·P above {@link #MAX_SCRYPT_WORK},
     *     memory the heap cannot give), a salt over 1 KiB, an {@code EncryptedKey} that is not 64 bytes
     */
    public static VaultConfig read(Path file) throws IOException {
        try {
            return parse(file);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static VaultConfig parse(Path file) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            throw new IOException("empty file");
        }
        if (size > MAX_FILE_SIZE) {
            throw new IOException(size + " bytes, too large for a " + FILE_NAME);
        }
        JsonObject root = parseJson(Files.readString(file, StandardCharsets.UTF_8));

        long version = integer(root, "Version", "Version", 0, Integer.MAX_VALUE);
        if (version != ContentCipher.VERSION) {
            throw new IOException("on-disk format version " + version + "; only version " + ContentCipher.VERSION
                    + " (gocryptfs 1.0 and later) is supported");
        }
        List<String> flags = flags(root);
        int longNameMax = (int) (root.has(LONG_NAME_MAX) ? integer(root, LONG_NAME_MAX, LONG_NAME_MAX, 0, 255) : 0);
        if (longNameMax != 0 && !flags.contains(LONG_NAME_MAX)) {
            throw new IOException("LongNameMax is " + longNameMax + " but the LongNameMax feature flag is not set");
        }
        if (longNameMax == 0 && flags.contains(LONG_NAME_MAX)) {
            throw new IOException("the LongNameMax feature flag is set but LongNameMax is not");
        }
        if (longNameMax != 0 && longNameMax < NameCipher.MIN_LONG_NAME_MAX) {
            throw new IOException("LongNameMax " + longNameMax + " is below " + NameCipher.MIN_LONG_NAME_MAX
                    + ", the length of a hashed long name");
        }

        JsonObject scrypt = object(root, "ScryptObject");
        long n = integer(scrypt, "N", "ScryptObject.N", Long.MIN_VALUE, Long.MAX_VALUE);
        if (n < 1 || Long.bitCount(n) != 1) {
            throw new IOException("scrypt N = " + n + " is not a power of two");
        }
        int logN = Long.numberOfTrailingZeros(n);
        if (logN < MIN_SCRYPT_LOG_N || logN > MAX_SCRYPT_LOG_N) {
            throw new IOException("scrypt N = 2^" + logN + " is outside 2^" + MIN_SCRYPT_LOG_N + "..2^" + MAX_SCRYPT_LOG_N
                    + " (gocryptfs refuses less than 2^10; 2^28, its -scryptn's most, is more than Bouncy Castle's scrypt computes)");
        }
        long r = atLeast(integer(scrypt, "R", "ScryptObject.R", Long.MIN_VALUE, Long.MAX_VALUE), "R", SCRYPT_R);
        long p = atLeast(integer(scrypt, "P", "ScryptObject.P", Long.MIN_VALUE, Long.MAX_VALUE), "P", SCRYPT_P);
        long keyLen = integer(scrypt, "KeyLen", "ScryptObject.KeyLen", Long.MIN_VALUE, Long.MAX_VALUE);
        if (keyLen != MasterKey.SIZE) {
            throw new IOException("scrypt KeyLen is " + keyLen + ", expected " + MasterKey.SIZE);
        }
        byte[] salt = base64(scrypt, "Salt", "ScryptObject.Salt");
        if (salt.length < SALT_SIZE) {
            throw new IOException("scrypt salt is " + salt.length + " bytes, fewer than " + SALT_SIZE);
        }
        if (salt.length > MAX_SALT_SIZE) {
            throw new IOException("scrypt salt is " + salt.length + " bytes, more than " + MAX_SALT_SIZE + " (gocryptfs writes " + SALT_SIZE + ")");
        }
        String unaffordable = scryptCostProblem(logN, r, p);
        if (unaffordable != null) {
            throw new IOException(unaffordable);
        }

        byte[] encryptedKey = base64(root, "EncryptedKey", "EncryptedKey");
        if (encryptedKey.length != ENCRYPTED_KEY_SIZE) {
            throw new IOException("EncryptedKey is " + encryptedKey.length + " bytes, expected " + ENCRYPTED_KEY_SIZE
                    + " (16 nonce, 32 key, 16 tag)");
        }
        if (SecureBytes.isZero(Arrays.copyOf(encryptedKey, ContentCipher.NONCE_SIZE))) {
            throw new IOException("EncryptedKey has an all-zero nonce");
        }
        String creator = root.has("Creator") ? string(root.get("Creator"), "Creator") : "";
        return new VaultConfig(creator, encryptedKey, salt, logN, (int) r, (int) p, flags, longNameMax);
    }

    private static JsonObject parseJson(String text) throws IOException {
        JsonElement root;
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setStrictness(Strictness.STRICT);
            root = JsonParser.parseReader(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new IOException("text after the end");
            }
        } catch (JsonParseException | IOException e) {
            throw new IOException("not JSON: " + jsonProblem(e), e);
        }
        if (!root.isJsonObject()) {
            throw new IOException("not a JSON object");
        }
        return root.getAsJsonObject();
    }

    private static List<String> flags(JsonObject root) throws IOException {
        JsonElement element = root.get("FeatureFlags");
        if (element == null || !element.isJsonArray()) {
            throw new IOException("FeatureFlags is missing or not a list");
        }
        List<String> flags = new ArrayList<>();
        for (JsonElement e : element.getAsJsonArray()) {
            String flag = string(e, "a feature flag");
            String refusal = REFUSED_FLAGS.get(flag);
            if (refusal != null) {
                throw new IOException("feature flag " + flag + " is not supported: " + refusal);
            }
            if (!REQUIRED_FLAGS.contains(flag) && !flag.equals(LONG_NAME_MAX)) {
                throw new IOException("unknown feature flag \"" + flag + "\" (from a newer gocryptfs?)");
            }
            flags.add(flag);
        }
        for (String required : REQUIRED_FLAGS) {
            if (!flags.contains(required)) {
                throw new IOException("feature flag " + required + " is missing, so " + WITHOUT_REQUIRED.get(required)
                        + "; only vaults made by gocryptfs -init with its default options are supported");
            }
        }
        return flags;
    }

    private static JsonObject object(JsonObject parent, String name) throws IOException {
        JsonElement e = parent.get(name);
        if (e == null || !e.isJsonObject()) {
            throw new IOException(name + " is missing or not an object");
        }
        return e.getAsJsonObject();
    }

    /** The integer field {@code name} of {@code parent}, called {@code shown} in messages. */
    private static long integer(JsonObject parent, String name, String shown, long min, long max) throws IOException {
        JsonElement e = parent.get(name);
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw new IOException(shown + " is missing or not a number");
        }
        long value;
        try {
            value = new BigDecimal(e.getAsJsonPrimitive().getAsString()).longValueExact();
        } catch (ArithmeticException | NumberFormatException x) {
            throw new IOException(shown + " is not an integer: " + e, x);
        }
        if (value < min || value > max) {
            throw new IOException(shown + " is " + value + ", outside " + min + ".." + max);
        }
        return value;
    }

    /** scrypt's {@code R} or {@code P}: at least gocryptfs's {@code min}, and an int, as scrypt takes it. */
    private static long atLeast(long value, String name, int min) throws IOException {
        if (value < min) {
            throw new IOException("scrypt " + name + " is " + value + "; gocryptfs takes " + min + " or more");
        }
        if (value > Integer.MAX_VALUE) {
            throw new IOException("scrypt " + name + " is " + value + ", more than scrypt takes (2^31 - 1)");
        }
        return value;
    }

    private static String string(JsonElement e, String what) throws IOException {
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw new IOException(what + " is not a string");
        }
        return e.getAsString();
    }

    /** A {@code []byte} field: Go's JSON writes standard base64 with padding. */
    private static byte[] base64(JsonObject parent, String name, String shown) throws IOException {
        if (!parent.has(name)) {
            throw new IOException(shown + " is missing");
        }
        String text = string(parent.get(name), shown);
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(shown + " is not base64: " + e.getMessage(), e);
        }
    }

    /**
     * Writes the configuration as gocryptfs does: tab-indented JSON with gocryptfs's field order
     * and a final newline, mode 0400 (it is never modified in place). Atomic: a new file in the
     * same directory, flushed to disk, then renamed over {@code file}; the directory is flushed
     * too, so a crash leaves the old file or the new one.
     *
     * @param file where, normally {@code CIPHERDIR/}{@link #FILE_NAME}; an existing file is replaced
     * @throws IOException if it cannot be written (the temporary file is removed again)
     */
    public void write(Path file) throws IOException {
        byte[] json = toJson().getBytes(StandardCharsets.UTF_8);
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = dir.resolve(file.getFileName() + "." + HexFormat.of().formatHex(SecureBytes.bytes(6)) + ".tmp");
        FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r--------")));
        try {
            try (out) {
                ByteBuffer buf = ByteBuffer.wrap(json);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    private String toJson() throws IOException {
        StringWriter text = new StringWriter();
        try (JsonWriter w = new JsonWriter(text)) {
            w.setIndent("\t");
            w.beginObject();
            w.name("Creator").value(creator);
            w.name("EncryptedKey").value(Base64.getEncoder().encodeToString(encryptedKey));
            w.name("ScryptObject").beginObject();
            w.name("Salt").value(Base64.getEncoder().encodeToString(salt));
            w.name("N").value(1L << scryptLogN);
            w.name("R").value(scryptR);
            w.name("P").value(scryptP);
            w.name("KeyLen").value(MasterKey.SIZE);
            w.endObject();
            w.name("Version").value(ContentCipher.VERSION);
            w.name("FeatureFlags").beginArray();
            for (String f : featureFlags) {
                w.value(f);
            }
            w.endArray();
            if (longNameMax != 0) {
                w.name(LONG_NAME_MAX).value(longNameMax);
            }
            w.endObject();
        }
        return text + "\n";
    }
}
