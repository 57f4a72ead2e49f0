package dev.fusepanama.vault;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The POSIX suite against a vault, mounted as the launcher mounts it. What the vault leaves out,
 * gocryptfs leaves out too: fallocate and SEEK_DATA/SEEK_HOLE (ciphertext holes do not line up
 * with plaintext ones).
 */
@MountTest
class VaultPosixTest extends PosixSuite {
    private static final char[] PASSWORD = "posix".toCharArray();
    private static Path cipherDirs;

    @BeforeAll
    static void makeRoom() throws IOException {
        cipherDirs = Files.createTempDirectory("vault-posix-");
    }

    @AfterAll
    static void removeCipherDirs() throws IOException {
        try (Stream<Path> all = Files.walk(cipherDirs)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path cipher = Files.createTempDirectory(cipherDirs, "cipher-");
        Vault.create(cipher, PASSWORD, 10);
        return TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).allowOther(true).build());
    }

    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.of(Feature.FALLOCATE, Feature.SEEK_HOLES);
    }
}
