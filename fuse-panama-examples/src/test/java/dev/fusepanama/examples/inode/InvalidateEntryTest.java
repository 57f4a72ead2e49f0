package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The renamed file's old name stops working exactly when the kernel is told; its new one works at once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class InvalidateEntryTest {
    static List<String> ls(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void theOldNameIsGoneOnceTheKernelIsTold() throws Exception {
        InvalidateEntry fs = new InvalidateEntry(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(List.of("Time_is_10h_00m_00s"), ls(m.root()));
            assertTrue(Files.isRegularFile(m.path("Time_is_10h_00m_00s")));

            assertTrue(fs.update(LocalTime.of(10, 0, 1), m.inodeHandle()), "the kernel held the old name");
            assertFalse(Files.exists(m.path("Time_is_10h_00m_00s")), "the old name is looked up again, and fails");
            assertTrue(Files.isRegularFile(m.path("Time_is_10h_00m_01s")));
            assertEquals(List.of("Time_is_10h_00m_01s"), ls(m.root()));

            fs.update(LocalTime.of(10, 0, 2), null);
            assertTrue(Files.isRegularFile(m.path("Time_is_10h_00m_01s")), "not told: the kernel's cached name still works");
            assertEquals(List.of("Time_is_10h_00m_02s"), ls(m.root()), "listings are not cached");
            assertFalse(fs.update(LocalTime.of(10, 0, 3), m.inodeHandle()), "10:00:02 was never looked up: nothing to drop");
        }
    }

    @Test
    void theRunningClockRenamesTheFileWithoutARemount() throws Exception {
        InvalidateEntry fs = new InvalidateEntry(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            Path old = m.path("Time_is_10h_00m_00s");
            assertTrue(Files.exists(old));
            Thread clock = fs.updateEverySecond(m.inodeHandle(), true);
            try {
                for (int i = 0; i < 50 && Files.exists(old); i++) {
                    Thread.sleep(100);
                }
                assertFalse(Files.exists(old), "within 5 s the name changed and the kernel let go of the old one");
                String now = ls(m.root()).getFirst();
                assertNotEquals(old.getFileName().toString(), now);
                assertTrue(now.startsWith("Time_is_"), now);
            } finally {
                clock.interrupt();
                clock.join();
            }
        }
    }
}
