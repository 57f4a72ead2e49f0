package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Fuse;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.Ext4;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A vault on ext4, which gives a deleted file's inode number to the next file made at once: the
 * new file is a file of its own, with a header of its own, even while the vault still holds a
 * node of the deleted one (the kernel has not forgotten it, or, under concurrent load, the
 * vault's own rename has replaced it on disk and not yet told the node table).
 */
@MountTest
@Timeout(120)
class VaultInodeReuseTest {
    private static final char[] PASSWORD = "reuse".toCharArray();
    private static final Set<String> NOT_FILES = Set.of("gocryptfs.conf", "gocryptfs.diriv");
    private Path ext4;

    @BeforeEach
    void disk() throws Exception {
        assumeTrue(Libc.geteuid() == 0, "an ext4 of the test's own needs root");
        ext4 = Ext4.mount("vault-reuse", 32);
    }

    @AfterEach
    void unmount() throws Exception {
        if (ext4 != null) Ext4.unmount(ext4);
    }

    private static Path onlyFile(Path cipher) throws Exception {
        try (Stream<Path> s = Files.list(cipher)) {
            List<Path> files = s.filter(p -> !NOT_FILES.contains(p.getFileName().toString())).toList();
            assertEquals(1, files.size(), "cipher files: " + files);
            return files.get(0);
        }
    }

    private static long ino(Path p) throws Exception {
        return (Long) Files.getAttribute(p, "unix:ino");
    }

    /** Mounted without the watcher: the node table keeps the name of a file deleted behind it. */
    private static TestMount mount(Path cipher) throws Exception {
        VaultFileSystem fs = Vault.unlock(cipher, PASSWORD);
        return TestMount.mountWith(dir -> Fuse.mount(fs, dir, Vault.mountOptions(cipher).build()));
    }

    @Test
    void aFileGivenTheInodeNumberOfADeletedOneIsWrittenWithItsOwnHeader() throws Exception {
        Path cipher = Files.createDirectory(ext4.resolve("cipher"));
        Vault.create(cipher, PASSWORD, 10);
        Random random = new Random(57);
        byte[] first = new byte[5000];
        byte[] second = new byte[9000];
        random.nextBytes(first);
        random.nextBytes(second);
        long reused;
        try (TestMount m = mount(cipher)) {
            Files.write(m.path("a"), first);
            assertEquals(first.length, Files.size(m.path("a"))); // the kernel holds a's node
            Path aCipher = onlyFile(cipher);
            reused = ino(aCipher);
            Files.delete(aCipher); // behind the vault
            Files.write(m.path("b"), second, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Path bCipher = onlyFile(cipher);
            assertEquals(reused, ino(bCipher), "ext4 gave the deleted file's inode number to the new one");
            byte[] header = Arrays.copyOf(Files.readAllBytes(bCipher), 2);
            assertArrayEquals(new byte[] {0, 2}, header, "the new file's header starts with format version 2");
        }
        try (TestMount m = mount(cipher)) {
            assertArrayEquals(second, Files.readAllBytes(m.path("b")), "b read back after a new mount");
        }
    }
}
