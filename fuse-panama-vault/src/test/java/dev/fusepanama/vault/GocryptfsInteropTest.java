package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fusepanama.Posix;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.SortedMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault and gocryptfs read each other's files byte for byte: a tree written through one is
 * seen identically through the other (names, contents, sizes, modes, links, holes), and edits
 * made through ours to gocryptfs's files read back through gocryptfs.
 */
@MountTest
@Timeout(180)
class GocryptfsInteropTest {
    private static final char[] PASSWORD = "interop password".toCharArray();

    @TempDir
    Path tmp;
    Path cipher;
    Path passfile;

    @BeforeEach
    void setUp() throws Exception {
        Gocryptfs.assumeInstalled();
        cipher = tmp.resolve("cipher");
        passfile = tmp.resolve("passfile");
        Files.writeString(passfile, new String(PASSWORD) + "\n");
    }

    private TestMount mountOurs() throws Exception {
        return TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).build());
    }

    @Test
    void aTreeWrittenThroughTheVaultReadsTheSameThroughGocryptfs() throws Exception {
        Vault.create(cipher, PASSWORD, 10);
        SortedMap<String, String> written;
        try (TestMount ours = mountOurs()) {
            VaultTree.write(ours.root());
            written = VaultTree.snapshot(ours.root());
        }
        assertFalse(written.isEmpty());
        try (Gocryptfs theirs = Gocryptfs.mount(cipher, passfile)) {
            assertEquals(written, VaultTree.snapshot(theirs.root()));
        }
    }

    @Test
    void aTreeWrittenThroughGocryptfsReadsTheSameThroughTheVault() throws Exception {
        Files.createDirectories(cipher);
        Gocryptfs.init(cipher, passfile);
        SortedMap<String, String> written;
        try (Gocryptfs theirs = Gocryptfs.mount(cipher, passfile)) {
            VaultTree.write(theirs.root());
            written = VaultTree.snapshot(theirs.root());
        }
        try (TestMount ours = mountOurs()) {
            assertEquals(written, VaultTree.snapshot(ours.root()));
        }
    }

    @Test
    void randomWritesThroughTheVaultToGocryptfsFilesReadBackThroughGocryptfs() throws Exception {
        Files.createDirectories(cipher);
        Gocryptfs.init(cipher, passfile);
        byte[] expected = VaultTree.data(50_000, 1);
        try (Gocryptfs theirs = Gocryptfs.mount(cipher, passfile)) {
            VaultTree.writeFile(VaultTree.path(theirs.root(), "f"), expected);
        }
        Random random = new Random(42);
        try (TestMount ours = mountOurs()) {
            byte[] f = VaultTree.path(ours.root(), "f");
            int fd = Os.open(f, Posix.O_RDWR, 0);
            VaultTree.check(fd, "open");
            try {
                for (int i = 0; i < 200; i++) {
                    int op = random.nextInt(10);
                    if (op < 7) {
                        // A write anywhere, across block boundaries, sometimes past the end.
                        int offset = random.nextInt(expected.length + 9000);
                        byte[] data = VaultTree.data(1 + random.nextInt(10_000), i);
                        assertEquals(data.length, Os.pwrite(fd, data, offset));
                        expected = splice(expected, data, offset);
                    } else {
                        int size = random.nextInt(expected.length + 10_000);
                        VaultTree.check(Os.ftruncate(fd, size), "ftruncate");
                        expected = java.util.Arrays.copyOf(expected, size);
                    }
                }
            } finally {
                Os.close(fd);
            }
            assertArrayEquals(expected, VaultTree.read(f, expected.length));
        }
        try (Gocryptfs theirs = Gocryptfs.mount(cipher, passfile)) {
            assertArrayEquals(expected, VaultTree.read(VaultTree.path(theirs.root(), "f"), expected.length));
        }
    }

    private static byte[] splice(byte[] base, byte[] data, int offset) {
        byte[] out = java.util.Arrays.copyOf(base, Math.max(base.length, offset + data.length));
        System.arraycopy(data, 0, out, offset, data.length);
        return out;
    }

    @Test
    void aVaultCreatedHereHasTheFilesGocryptfsExpects() throws Exception {
        Vault.create(cipher, PASSWORD, 10);
        assertEquals(0400, Os.lstat(VaultTree.path(cipher, "gocryptfs.conf")).mode() & 07777);
        assertEquals(16, Files.size(cipher.resolve("gocryptfs.diriv")));
        String conf = Files.readString(cipher.resolve("gocryptfs.conf"), StandardCharsets.UTF_8);
        assertFalse(conf.contains(new String(PASSWORD)));
    }
}
