package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.examples.memory.MemoryFileSystem;
import dev.fusepanama.examples.mirror.InodeMirror;
import dev.fusepanama.testkit.ListingRace;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory listed while other names in it are created and unlinked shows every untouched
 * name exactly once ({@link ListingRace}), on memfs and on the mirror, mounted as the launcher
 * mounts them.
 */
@MountTest
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListingRaceTest {
    /** Enough to have caught memfs's lost names each time (they showed within 1,300 listings). */
    static final int LISTINGS = 2_400;

    @Test
    void memfsListingsWhileOtherNamesChangeLoseNoName() throws Exception {
        try (TestMount m = TestMount.mount(new MemoryFileSystem(1L << 30, 1_000_000), MemoryFileSystem.mountOptions().build())) {
            assertTrue(ListingRace.check(m.root(), LISTINGS) >= LISTINGS);
        }
    }

    @Test
    void mirrorListingsWhileOtherNamesChangeLoseNoName(@TempDir Path source) throws Exception {
        InodeMirror fs = InodeMirror.of(source);
        try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
            fs.watch(m.inodeHandle()); // as the launcher mounts it: the kernel caches what the watch covers
            assertTrue(ListingRace.check(m.root(), LISTINGS) >= LISTINGS);
        }
    }
}
