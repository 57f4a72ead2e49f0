package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.ListingRace;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A vault directory listed while other names in it change shows every untouched name once ({@link ListingRace}). */
@MountTest
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class VaultListingRaceTest {
    private static final char[] PASSWORD = "race".toCharArray();

    @Test
    void listingsWhileOtherNamesChangeLoseNoName(@TempDir Path cipher) throws Exception {
        Vault.create(cipher, PASSWORD, 10);
        try (TestMount m = TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).build())) {
            assertTrue(ListingRace.check(m.root(), 2_400) >= 2_400);
        }
    }
}
