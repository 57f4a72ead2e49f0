package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.ListingRace;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory of the NIO adapter over the default filesystem, listed while other names in it
 * change, shows every untouched name once ({@link ListingRace}).
 */
@MountTest
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NioListingRaceTest {
    @Test
    void listingsWhileOtherNamesChangeLoseNoName(@TempDir Path source) throws Exception {
        NioFileSystem fs = NioFileSystem.of(source);
        try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
            assertTrue(ListingRace.check(m.root(), 1_200) >= 1_200);
        }
    }
}
