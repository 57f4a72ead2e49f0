package dev.fusepanama.vault;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** pjdfstest inside a new vault whose cipher directory is on a fresh tmpfs, mounted as the launcher mounts it. */
@MountTest
class VaultPjdfstestTest extends PjdfstestSuite {
    private static final char[] PASSWORD = "pjdfstest".toCharArray();
    private static Path cipherDirs;

    @BeforeAll
    static void mountCipherTmpfs() throws Exception {
        cipherDirs = Tmpfs.mount("vault-pjdfstest-cipher");
    }

    @AfterAll
    static void unmountCipherTmpfs() throws Exception {
        Tmpfs.unmount(cipherDirs);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        // As `vault init` makes it: a directory other users may enter, so the vault's root is one too.
        Path cipher = Files.createDirectory(cipherDirs.resolve("cipher"));
        Vault.create(cipher, PASSWORD, 10);
        return TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).allowOther(true).build());
    }

    /** gocryptfs has no fallocate either: ciphertext blocks cannot be reserved ahead of their plaintext. */
    @Override
    protected Set<Feature> unsupported() {
        return Set.of(Feature.POSIX_FALLOCATE);
    }
}
