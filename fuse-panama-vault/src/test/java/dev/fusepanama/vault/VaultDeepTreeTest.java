package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree whose plaintext paths are short but whose cipher paths are longer than PATH_MAX: every
 * encrypted name is at least 22 bytes, so 200 nested directories take more than 4,600 bytes of
 * cipher path. gocryptfs works through them from directory descriptors, and so does the vault.
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class VaultDeepTreeTest {
    private static final char[] PASSWORD = "deep".toCharArray();

    @Test
    void twoHundredNestedDirectoriesAreMadeUsedAndRemoved(@TempDir Path tmp) throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        try (TestMount m = TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).build())) {
            Path deep = m.root();
            for (int i = 0; i < 200; i++) deep = deep.resolve("d" + (i % 10));
            Files.createDirectories(deep);
            Files.writeString(deep.resolve("leaf"), "at the bottom");
            assertEquals("at the bottom", Files.readString(deep.resolve("leaf")));
            try (Stream<Path> l = Files.list(deep)) {
                assertEquals(List.of("leaf"), l.map(p -> p.getFileName().toString()).toList());
            }
            Files.move(deep.resolve("leaf"), deep.getParent().resolve("moved"));
            assertTrue(Files.exists(deep.getParent().resolve("moved")));
            try (Stream<Path> all = Files.walk(m.path("d0"))) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
            assertFalse(Files.exists(m.path("d0")));
        }
    }
}
