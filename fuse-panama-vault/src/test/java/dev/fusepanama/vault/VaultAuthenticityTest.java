package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.vault.crypto.ContentCipher;
import dev.fusepanama.vault.crypto.WrongPasswordException;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Tampering with the cipher directory never yields wrong plaintext: a changed, truncated,
 * reordered or transplanted block fails the read with EIO and one log line naming the file and
 * block; the blocks around it still read. A name that does not decrypt is left out of listings
 * and logged once. A wrong password is refused before anything is mounted.
 */
@MountTest
@Timeout(60)
class VaultAuthenticityTest {
    private static final char[] PASSWORD = "authentic".toCharArray();
    private static final int BLOCK = ContentCipher.PLAIN_BLOCK;
    private static final int CIPHER_BLOCK = ContentCipher.CIPHER_BLOCK;
    private static final int HEADER = ContentCipher.HEADER_SIZE;

    @TempDir
    Path cipher;
    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    final Logger logger = (Logger) LoggerFactory.getLogger(VaultFileSystem.class);
    final byte[] a = VaultTree.data(3 * BLOCK, 1);
    final byte[] b = VaultTree.data(3 * BLOCK, 2);

    @BeforeEach
    void writeTwoFiles() throws Exception {
        log.start();
        logger.addAppender(log);
        Vault.create(cipher, PASSWORD, 10);
        try (TestMount m = mount()) {
            VaultTree.writeFile(VaultTree.path(m.root(), "a"), a);
            VaultTree.writeFile(VaultTree.path(m.root(), "b"), b);
        }
    }

    @AfterEach
    void stopCapturing() {
        logger.detachAppender(log);
    }

    private TestMount mount() throws Exception {
        return TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).build());
    }

    /** The ciphertext file of the plaintext file {@code name}, found by its contents' size. */
    private Path cipherFile(String name) throws Exception {
        try (TestMount m = mount()) {
            long ino = Os.lstat(VaultTree.path(m.root(), name)).ino();
            try (Stream<Path> files = Files.list(cipher)) {
                for (Path p : files.toList()) {
                    if (Os.lstat(Os.bytes(p)).ino() == ino) return p;
                }
            }
        }
        throw new AssertionError("no ciphertext file for " + name);
    }

    private static void change(Path file, long offset, byte[] data) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            f.write(data);
        }
    }

    private static byte[] bytesAt(Path file, long offset, int length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            byte[] out = new byte[length];
            f.seek(offset);
            f.readFully(out);
            return out;
        }
    }

    /** pread of {@code length} bytes at {@code offset} of the plaintext file: its bytes, or the errno. */
    private static Object read(Path root, String name, long offset, int length) {
        int fd = Os.open(VaultTree.path(root, name), Posix.O_RDONLY, 0);
        VaultTree.check(fd, "open " + name);
        try {
            return Os.pread(fd, length, offset);
        } catch (Os.OsException e) {
            return Errno.name(e.errno);
        } finally {
            Os.close(fd);
        }
    }

    private void assertLogged(String name, long block) {
        List<String> lines = log.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("/" + name + " block " + block + " ")).toList();
        assertEquals(1, lines.size(), () -> "one log line naming " + name + " block " + block + ": " + log.list);
    }

    @Test
    void aFlippedBitFailsThatBlockWithEioAndTheOthersStillRead() throws Exception {
        Path f = cipherFile("a");
        long at = HEADER + CIPHER_BLOCK + 100; // inside block 1's ciphertext
        byte[] one = bytesAt(f, at, 1);
        one[0] ^= 0x10;
        change(f, at, one);
        try (TestMount m = mount()) {
            assertEquals("EIO", read(m.root(), "a", BLOCK, BLOCK));
            assertArrayEquals(Arrays.copyOfRange(a, 0, BLOCK), (byte[]) read(m.root(), "a", 0, BLOCK));
            assertArrayEquals(Arrays.copyOfRange(a, 2 * BLOCK, 3 * BLOCK), (byte[]) read(m.root(), "a", 2 * BLOCK, BLOCK));
        }
        assertLogged("a", 1);
    }

    @Test
    void aTruncatedLastBlockFailsWithEio() throws Exception {
        Path f = cipherFile("a");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
        }
        try (TestMount m = mount()) {
            assertEquals("EIO", read(m.root(), "a", 2 * BLOCK, BLOCK));
            assertArrayEquals(Arrays.copyOfRange(a, 0, BLOCK), (byte[]) read(m.root(), "a", 0, BLOCK));
        }
        assertLogged("a", 2);
    }

    /**
     * A ciphertext file cut to a size gocryptfs never leaves (inside its header, or a last block
     * too short to hold a byte) is EIO to a reader, not an empty or shorter file, with one log
     * line; a truncation to 0 makes it usable again.
     */
    @Test
    void aFileCutInsideItsHeaderOrABlocksOverheadIsEioUntilTruncated() throws Exception {
        Path fa = cipherFile("a");
        Path fb = cipherFile("b");
        try (RandomAccessFile raf = new RandomAccessFile(fa.toFile(), "rw")) {
            raf.setLength(10);
        }
        try (RandomAccessFile raf = new RandomAccessFile(fb.toFile(), "rw")) {
            raf.setLength(HEADER + CIPHER_BLOCK + 10);
        }
        try (TestMount m = mount()) {
            for (String name : List.of("a", "b")) {
                assertEquals(-Errno.EIO, Os.open(VaultTree.path(m.root(), name), Posix.O_RDONLY, 0), name + " does not open");
                assertEquals(-Errno.EIO, Os.open(VaultTree.path(m.root(), name), Posix.O_RDONLY, 0), name + " still does not open");
            }
            assertEquals(0, Os.truncate(VaultTree.path(m.root(), "a"), 0));
            assertEquals(0, Files.size(m.path("a")));
            Files.writeString(m.path("a"), "again");
            assertEquals("again", Files.readString(m.path("a")));
            int writer = Os.open(VaultTree.path(m.root(), "b"), Posix.O_WRONLY, 0);
            assertTrue(writer >= 0, "a writer may open it: " + writer);
            assertEquals(-Errno.EIO, Os.pwrite(writer, new byte[] {1}, 0), "but not write into it");
            Os.close(writer);
            int fd = Os.open(VaultTree.path(m.root(), "b"), Posix.O_WRONLY | Posix.O_TRUNC, 0);
            assertTrue(fd >= 0, "an open that truncates repairs it: " + fd);
            Os.close(fd);
            assertEquals(0, Files.size(m.path("b")));
        }
        for (String name : List.of("a", "b")) {
            long lines = log.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(line -> line.contains("/" + name + " has a ciphertext size")).count();
            assertEquals(1, lines, () -> "one log line for " + name + ": " + log.list);
        }
    }

    @Test
    void swappedBlocksFailWithEio() throws Exception {
        Path f = cipherFile("a");
        byte[] first = bytesAt(f, HEADER, CIPHER_BLOCK);
        byte[] second = bytesAt(f, HEADER + CIPHER_BLOCK, CIPHER_BLOCK);
        change(f, HEADER, second);
        change(f, HEADER + CIPHER_BLOCK, first);
        try (TestMount m = mount()) {
            assertEquals("EIO", read(m.root(), "a", 0, BLOCK));
            assertEquals("EIO", read(m.root(), "a", BLOCK, BLOCK));
            assertArrayEquals(Arrays.copyOfRange(a, 2 * BLOCK, 3 * BLOCK), (byte[]) read(m.root(), "a", 2 * BLOCK, BLOCK));
        }
        assertLogged("a", 0);
        assertLogged("a", 1);
    }

    @Test
    void aBlockOrHeaderFromAnotherFileFailsWithEio() throws Exception {
        Path fa = cipherFile("a");
        Path fb = cipherFile("b");
        change(fa, HEADER + CIPHER_BLOCK, bytesAt(fb, HEADER + CIPHER_BLOCK, CIPHER_BLOCK)); // same block number, other file id
        change(fb, 0, bytesAt(fa, 0, HEADER)); // b now claims a's file id
        try (TestMount m = mount()) {
            assertEquals("EIO", read(m.root(), "a", BLOCK, BLOCK));
            assertEquals("EIO", read(m.root(), "b", 0, BLOCK));
        }
        assertLogged("a", 1);
        assertLogged("b", 0);
    }

    @Test
    void aNameThatDoesNotDecryptIsLeftOutOfListingsAndLoggedOnce() throws Exception {
        Files.writeString(cipher.resolve("AAAAAAAAAAAAAAAAAAAAAA"), "planted"); // valid base64, wrong padding once decrypted
        Files.writeString(cipher.resolve("not base64!"), "planted");
        try (TestMount m = mount()) {
            for (int i = 0; i < 3; i++) {
                List<String> names = Os.listBytes(m.root()).stream().map(n -> new String(n, StandardCharsets.UTF_8)).sorted().toList();
                assertEquals(List.of(".", "..", "a", "b"), names);
            }
        }
        long warnings = log.list.stream().filter(e -> e.getFormattedMessage().contains("does not decrypt")).count();
        assertEquals(2, warnings, () -> "one line per bad name: " + log.list);
    }

    @Test
    void aWrongPasswordIsRefusedBeforeMounting() {
        assertThrows(WrongPasswordException.class, () -> Vault.unlock(cipher, "wrong".toCharArray()));
    }

    @Test
    void aDirectoryThatIsNotAVaultIsRefusedWithTheReason() throws Exception {
        Path empty = Files.createTempDirectory("not-a-vault-");
        try {
            IOException e = assertThrows(IOException.class, () -> Vault.unlock(empty, PASSWORD));
            assertTrue(e.getMessage().contains("not a gocryptfs vault"), e.getMessage());
        } finally {
            Files.delete(empty);
        }
    }
}
