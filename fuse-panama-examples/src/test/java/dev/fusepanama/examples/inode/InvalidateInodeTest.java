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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The file's content changes without a remount exactly when the kernel is told: before the
 * notification the kernel's cached copy, after it the new one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class InvalidateInodeTest {
    @Test
    void aReadSeesTheNewContentOnceTheKernelIsTold() throws Exception {
        InvalidateInode fs = new InvalidateInode(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            Path file = m.path("current_time");
            assertFalse(fs.update(LocalTime.of(10, 0, 0), m.inodeHandle()), "never looked up: the kernel holds nothing");
            assertEquals("The time is 10:00:00\n", Files.readString(file));

            fs.update(LocalTime.of(10, 0, 1), null);
            assertEquals("The time is 10:00:00\n", Files.readString(file), "not told: the kernel's cached pages");

            assertTrue(fs.update(LocalTime.of(10, 0, 2), m.inodeHandle()), "the kernel held the inode");
            assertEquals("The time is 10:00:02\n", Files.readString(file));
            assertEquals("The time is 10:00:02\n", Files.readString(file), "and keeps the new copy");
        }
    }

    @Test
    void theRunningClockMovesOnWithoutARemount() throws Exception {
        InvalidateInode fs = new InvalidateInode(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            Path file = m.path("current_time");
            assertEquals("The time is 10:00:00\n", Files.readString(file));
            Thread clock = fs.updateEverySecond(m.inodeHandle(), true);
            try {
                String now = Files.readString(file);
                for (int i = 0; i < 50 && now.equals(Files.readString(file)); i++) {
                    Thread.sleep(100);
                }
                assertNotEquals(now, Files.readString(file), "within 5 s the time moved on");
            } finally {
                clock.interrupt();
                clock.join();
            }
        }
    }
}
