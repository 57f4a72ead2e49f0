package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.FileInfo;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.Stat;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link dev.fusepanama.FuseMount#invalidate}: with the kernel caching attributes and data for an
 * hour, a change made behind its back is seen right after the filesystem invalidates the path,
 * and not before.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InvalidateThroughMountTest {
    private static KernelSettings cachedForAnHour() {
        return KernelSettings.builder().attrTimeout(3600).entryTimeout(3600).keepCache(true).build();
    }

    @Test
    void aChangeBehindTheKernelsBackIsSeenOnceThePathIsInvalidated() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs, cachedForAnHour())) {
            Files.writeString(m.path("f"), "one");
            assertEquals("one", Files.readString(m.path("f")));
            assertEquals(3, Files.size(m.path("f"))); // a read drops the cached atime: cache the attributes again

            fs.replaceData("/f", "two, longer".getBytes(StandardCharsets.UTF_8));
            assertEquals(3, Files.size(m.path("f")), "the kernel still has the cached size");
            assertEquals("one", Files.readString(m.path("f")), "and the cached data");

            assertTrue(m.pathHandle().invalidate("/f"));
            assertEquals("two, longer", Files.readString(m.path("f")), "data and size asked again");
            assertEquals(11, Files.size(m.path("f")));
        }
    }

    @Test
    void aPathTheKernelNeverSawHasNothingToInvalidate() throws Exception {
        try (TestMount m = TestMount.mount(new ScratchFileSystem(), cachedForAnHour())) {
            assertFalse(m.pathHandle().invalidate("/never-looked-up"));
            assertThrows(IllegalArgumentException.class, () -> m.pathHandle().invalidate("relative"));
        }
    }

    @Test
    void invalidatingFromInsideAnOperationOrAfterTheEndIsRefused() throws Exception {
        AtomicReference<Throwable> inside = new AtomicReference<>();
        AtomicReference<TestMount> self = new AtomicReference<>();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int getattr(String path, Stat st, FileInfo fi) {
                if (path.equals("/probe") && inside.get() == null) {
                    try {
                        self.get().pathHandle().invalidate("/");
                        inside.set(new AssertionError("accepted"));
                    } catch (Throwable t) {
                        inside.set(t);
                    }
                }
                return super.getattr(path, st, fi);
            }
        };
        TestMount m = TestMount.mount(fs, cachedForAnHour());
        try (m) {
            self.set(m);
            Files.exists(m.path("probe"));
            assertTrue(inside.get() instanceof IllegalStateException, String.valueOf(inside.get()));
        }
        assertThrows(IllegalStateException.class, () -> m.pathHandle().invalidate("/"), "after close");
    }
}
