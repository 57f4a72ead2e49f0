package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** gocryptfs.conf: what is written, what is read back, and what is refused with which message. Scrypt runs at its lowest cost here (2^10). */
class VaultConfigTest {
    private static final char[] PASSWORD = "correct horse".toCharArray();

    @TempDir
    Path dir;

    @Test
    void aCreatedVaultIsWrittenReadAndUnlockedWithItsPassword() throws Exception {
        Path file = dir.resolve(VaultConfig.FILE_NAME);
        byte[] stored;
        try (VaultConfig.Created created = VaultConfig.create(PASSWORD, 10)) {
            created.config().write(file);
            stored = created.masterKey().content().encryptBlock(new byte[] {42}, 0, new byte[16]);
        }
        VaultConfig read = VaultConfig.read(file);
        assertEquals("fuse-panama", read.creator());
        assertEquals(2, read.version());
        assertEquals(10, read.scryptLogN());
        assertEquals(255, read.longNameMax());
        assertEquals(List.of("HKDF", "GCMIV128", "DirIV", "EMENames", "LongNames", "Raw64"), read.featureFlags());
        try (MasterKey key = read.unlock(PASSWORD)) {
            assertArrayEquals(new byte[] {42}, key.content().decryptBlock(stored, 0, new byte[16]));
        }
    }

    @Test
    void theFileIsTabIndentedJsonInGocryptfsFieldOrderModeFourHundredWithNoTemporaryLeft() throws Exception {
        Path file = dir.resolve(VaultConfig.FILE_NAME);
        try (VaultConfig.Created created = VaultConfig.create(PASSWORD, 10, 100)) {
            created.config().write(file);
        }
        assertEquals("r--------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String text = Files.readString(file);
        assertTrue(text.startsWith("{\n\t\"Creator\": \"fuse-panama\",\n\t\"EncryptedKey\": \""), text);
        assertTrue(text.endsWith("\t\"LongNameMax\": 100\n}\n"), text);
        List<String> keys = JsonParser.parseString(text).getAsJsonObject().keySet().stream().toList();
        assertEquals(List.of("Creator", "EncryptedKey", "ScryptObject", "Version", "FeatureFlags", "LongNameMax"), keys);
        JsonObject scrypt = JsonParser.parseString(text).getAsJsonObject().getAsJsonObject("ScryptObject");
        assertEquals(List.of("Salt", "N", "R", "P", "KeyLen"), scrypt.keySet().stream().toList());
        assertEquals(1024, scrypt.get("N").getAsInt());
        assertEquals(32, Base64.getDecoder().decode(scrypt.get("Salt").getAsString()).length);
        assertEquals(64, Base64.getDecoder().decode(JsonParser.parseString(text).getAsJsonObject().get("EncryptedKey").getAsString()).length);
        VaultConfig read = VaultConfig.read(file);
        assertEquals(100, read.longNameMax());
        assertEquals(List.of("HKDF", "GCMIV128", "DirIV", "LongNameMax", "EMENames", "LongNames", "Raw64"), read.featureFlags());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void writingReplacesAnExistingReadOnlyConfigWhole() throws Exception {
        Path file = dir.resolve(VaultConfig.FILE_NAME);
        try (VaultConfig.Created first = VaultConfig.create(PASSWORD, 10)) {
            first.config().write(file);
        }
        char[] other = "another".toCharArray();
        try (VaultConfig.Created second = VaultConfig.create(other, 10)) {
            second.config().write(file);
        }
        VaultConfig read = VaultConfig.read(file);
        assertThrows(WrongPasswordException.class, () -> read.unlock(PASSWORD));
        read.unlock(other).close();
    }

    @Test
    void aWrongPasswordIsAWrongPasswordNotACorruptFile() throws Exception {
        Path file = write(o -> { });
        VaultConfig config = VaultConfig.read(file);
        WrongPasswordException e = assertThrows(WrongPasswordException.class, () -> config.unlock("correct horsE".toCharArray()));
        assertTrue(e.getMessage().contains("wrong password"), e.getMessage());
    }

    @Test
    void aChangedSaltOrEncryptedKeyOfTheRightLengthCannotBeToldFromAWrongPassword() throws Exception {
        Path file = write(o -> {
            byte[] key = Base64.getDecoder().decode(o.get("EncryptedKey").getAsString());
            key[40] ^= 1;
            o.addProperty("EncryptedKey", Base64.getEncoder().encodeToString(key));
        });
        assertThrows(WrongPasswordException.class, () -> VaultConfig.read(file).unlock(PASSWORD));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PlaintextNames", "AESSIV", "XChaCha20Poly1305", "FIDO2"})
    void vaultsWithAFeatureThisCodeDoesNotImplementAreRefusedNamingTheFlag(String flag) throws Exception {
        Path file = write(o -> o.getAsJsonArray("FeatureFlags").add(flag));
        IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file));
        assertTrue(e.getMessage().contains("feature flag " + flag + " is not supported"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"HKDF", "GCMIV128", "DirIV", "EMENames", "LongNames", "Raw64"})
    void vaultsWithoutADefaultFlagAreRefusedNamingIt(String flag) throws Exception {
        Path file = write(o -> o.getAsJsonArray("FeatureFlags").remove(new JsonPrimitive(flag)));
        IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file));
        assertTrue(e.getMessage().contains("feature flag " + flag + " is missing"), e.getMessage());
    }

    @Test
    void deterministicNamesAreRefusedAsTheMissingDirIvFlag() throws Exception {
        Path file = write(o -> o.getAsJsonArray("FeatureFlags").remove(new JsonPrimitive("DirIV")));
        IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file));
        assertTrue(e.getMessage().contains("deterministic-names"), e.getMessage());
    }

    /** A file that is not JSON is refused in a shell user's words: where it broke, no Java class names. */
    @Test
    void aFileThatIsNotJsonSaysWhereInPlainWords() throws Exception {
        for (String text : new String[] {"this is not a gocryptfs.conf\n", "{\n\t\"Creator\": \"cut", "", "[1, 2"}) {
            Path bad = dir.resolve("bad.conf");
            Files.writeString(bad, text);
            String message = assertThrows(IOException.class, () -> VaultConfig.read(bad)).getMessage();
            assertTrue(message.contains("not JSON") || message.contains("not a JSON object") || message.contains("empty file"), message);
            assertFalse(message.contains("Exception") || message.contains("JsonReader") || message.contains("$"), message);
            Files.delete(bad);
        }
    }

    @Test
    void anUnknownFlagIsRefused() throws Exception {
        Path file = write(o -> o.getAsJsonArray("FeatureFlags").add("Quantum"));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(file)).getMessage().contains("unknown feature flag \"Quantum\""));
    }

    @Test
    void longNameMaxAndItsFlagMustComeTogetherAndStayInRange() throws Exception {
        Path valueOnly = write(o -> o.addProperty("LongNameMax", 100));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(valueOnly)).getMessage().contains("flag is not set"));
        Path flagOnly = write(o -> o.getAsJsonArray("FeatureFlags").add("LongNameMax"));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(flagOnly)).getMessage().contains("LongNameMax is not"));
        Path tooLow = write(o -> {
            o.getAsJsonArray("FeatureFlags").add("LongNameMax");
            o.addProperty("LongNameMax", 61);
        });
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(tooLow)).getMessage().contains("below 62"));
        Path ok = write(o -> {
            o.getAsJsonArray("FeatureFlags").add("LongNameMax");
            o.addProperty("LongNameMax", 62);
        });
        assertEquals(62, VaultConfig.read(ok).longNameMax());
    }

    @Test
    void otherFormatVersionsAreRefused() throws Exception {
        Path file = write(o -> o.addProperty("Version", 3));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(file)).getMessage().contains("format version 3"));
    }

    @Test
    void weakOrMalformedScryptParametersAreRefused() throws Exception {
        record Case(String field, Object value, String message) {}
        for (Case c : List.of(
                new Case("N", 512, "outside 2^10"), new Case("N", 1000, "not a power of two"), new Case("R", 4, "R is 4"),
                new Case("P", 0, "P is 0"), new Case("KeyLen", 16, "KeyLen is 16"), new Case("N", 1024.5, "not an integer"),
                new Case("Salt", Base64.getEncoder().encodeToString(new byte[16]), "salt is 16 bytes"))) {
            Path file = write(o -> {
                JsonObject s = o.getAsJsonObject("ScryptObject");
                if (c.value() instanceof Number n) {
                    s.addProperty(c.field(), n);
                } else {
                    s.addProperty(c.field(), (String) c.value());
                }
            });
            IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file), c.toString());
            assertTrue(e.getMessage().contains(c.message()), c + ": " + e.getMessage());
        }
    }

    /**
     * scrypt's cost is bounded before it runs: N up to 2^27 (gocryptfs's -scryptn 28 at its R = 8
     * is more than Bouncy Castle's scrypt can index), the work N·R·P at most gocryptfs -scryptn 27's,
     * the memory 128·N·R bytes at most what this JVM's heap can give. Each refused at once, naming
     * the parameters, where scrypt itself threw ArrayIndexOutOfBoundsException or ran on unbounded.
     */
    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void scryptParametersBeyondWhatCanRunAreRefusedBeforeScryptRuns() throws Exception {
        record Case(long n, long r, long p, String message) {}
        for (Case c : List.of(
                new Case(1L << 28, 8, 1, "scrypt N = 2^28 is outside 2^10..2^27"),
                new Case(1L << 40, 8, 1, "scrypt N = 2^40 is outside 2^10..2^27"),
                new Case(1L << 24, 64, 1, "needs 128.0 GiB of memory"),
                new Case(1L << 20, 8, 1024, "N·R·P = 2^33"),
                new Case(1L << 10, 1L << 31, 1, "scrypt R is 2147483648"),
                new Case(1L << 10, 8, 1L << 31, "scrypt P is 2147483648"),
                new Case(-1024, 8, 1, "scrypt N = -1024 is not a power of two"),
                new Case(1024, -8, 1, "scrypt R is -8; gocryptfs takes 8 or more"),
                new Case(1024, 8, -1, "scrypt P is -1; gocryptfs takes 1 or more"),
                new Case(1024, 8, 0, "scrypt P is 0; gocryptfs takes 1 or more"))) {
            Path file = write(o -> {
                JsonObject s = o.getAsJsonObject("ScryptObject");
                s.addProperty("N", c.n());
                s.addProperty("R", c.r());
                s.addProperty("P", c.p());
            });
            IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file), c.toString());
            assertTrue(e.getMessage().contains(c.message()), c + ": " + e.getMessage());
        }
    }

    @Test
    void aCreatedVaultStaysWithinWhatScryptCanRun() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VaultConfig.create(PASSWORD, 28));
        assertTrue(e.getMessage().contains("10..27"), e.getMessage());
    }

    @Test
    void aMissingOrHugeFieldIsNamed() throws Exception {
        for (String field : List.of("Salt", "N", "R", "P", "KeyLen")) {
            Path file = write(o -> o.getAsJsonObject("ScryptObject").remove(field));
            IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file), field);
            assertTrue(e.getMessage().contains("ScryptObject." + field + " is missing"), field + ": " + e.getMessage());
        }
        for (String field : List.of("ScryptObject", "EncryptedKey", "Version", "FeatureFlags")) {
            Path file = write(o -> o.remove(field));
            IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file), field);
            assertTrue(e.getMessage().contains(field + " is missing"), field + ": " + e.getMessage());
        }
        Path hugeSalt = write(o -> o.getAsJsonObject("ScryptObject").addProperty("Salt", Base64.getEncoder().encodeToString(new byte[2048])));
        IOException e = assertThrows(IOException.class, () -> VaultConfig.read(hugeSalt));
        assertTrue(e.getMessage().contains("scrypt salt is 2048 bytes, more than 1024"), e.getMessage());
    }

    @Test
    void filesThatAreNotAConfigAreRefusedSayingWhy() throws Exception {
        record Case(String text, String message) {}
        for (Case c : List.of(
                new Case("", "empty file"), new Case("{", "not JSON"), new Case("[]", "not a JSON object"),
                new Case("{\"Version\": 2} x", "not JSON"), new Case("{\"Version\": 2}", "FeatureFlags"))) {
            Path file = dir.resolve("case.conf");
            Files.writeString(file, c.text());
            IOException e = assertThrows(IOException.class, () -> VaultConfig.read(file), c.text());
            assertTrue(e.getMessage().contains(c.message()), c + ": " + e.getMessage());
        }
        Path shortKey = write(o -> o.addProperty("EncryptedKey", Base64.getEncoder().encodeToString(new byte[48])));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(shortKey)).getMessage().contains("EncryptedKey is 48 bytes"));
        Path notBase64 = write(o -> o.addProperty("EncryptedKey", "***"));
        assertTrue(assertThrows(IOException.class, () -> VaultConfig.read(notBase64)).getMessage().contains("not base64"));
    }

    @Test
    void creatingRefusesAnEmptyPasswordAndCostsOrLimitsGocryptfsWouldRefuse() {
        assertThrows(IllegalArgumentException.class, () -> VaultConfig.create(new char[0], 10));
        assertThrows(IllegalArgumentException.class, () -> VaultConfig.create(PASSWORD, 9));
        assertThrows(IllegalArgumentException.class, () -> VaultConfig.create(PASSWORD, 29));
        assertThrows(IllegalArgumentException.class, () -> VaultConfig.create(PASSWORD, 10, 61));
    }

    /** A valid config, changed by {@code change}, in a file of its own. */
    private Path write(Consumer<JsonObject> change) throws IOException {
        Path file = Files.createTempFile(dir, "gocryptfs", ".conf");
        Files.delete(file);
        try (VaultConfig.Created created = VaultConfig.create(PASSWORD, 10)) {
            created.config().write(file);
        }
        JsonObject json = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        change.accept(json);
        Files.delete(file);
        Files.writeString(file, json.toString());
        return file;
    }
}
