package dev.fusepanama.examples.vault;

import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** pjdfstest inside a new vault whose cipher directory is on a fresh tmpfs, mounted as the launcher mounts it. */
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

    /**
     * A plaintext path just under PATH_MAX: the vault reaches a cipher file by its whole cipher
     * path, which encryption makes longer than PATH_MAX (gocryptfs walks by directory descriptors
     * and passes these; the vault will when its node table keeps them).
     */
    private static final String CIPHER_PATH_TOO_LONG =
            "the cipher path of a plaintext path near PATH_MAX is longer than PATH_MAX (ENAMETOOLONG)";

    @Override
    protected Map<String, String> knownFailures() {
        return Stream.of("chmod", "chown", "chown::lchown", "link", "mkdir", "mkfifo", "mknod", "mknod::privileged", "open",
                        "rename", "rmdir", "symlink", "truncate", "unlink")
                .collect(Collectors.toMap(call -> call + "::enametoolong_path", call -> CIPHER_PATH_TOO_LONG));
    }
}
