package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stored data is what reads return, without a read request; retrieve gives back what the kernel holds. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class StoreRetrieveTest {
    static String kernelCopy(StoreRetrieve fs, InodeMount mount) throws Exception {
        return new String(fs.kernelCopy(mount).get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    }

    @Test
    void readsReturnTheStoredDataWithoutAskingTheFilesystem() throws Exception {
        StoreRetrieve fs = new StoreRetrieve(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            InodeMount mount = m.inodeHandle();
            Path file = m.path("current_time");
            assertFalse(fs.update(LocalTime.of(10, 0, 0), mount), "never looked up: the kernel takes nothing");
            assertEquals("", kernelCopy(fs, mount), "and holds nothing");

            assertEquals(21, Files.size(file)); // the kernel now holds the inode, no pages yet
            assertTrue(fs.update(LocalTime.of(10, 0, 1), mount));
            assertEquals("The time is 10:00:01\n", kernelCopy(fs, mount), "in the page cache before anyone read");
            assertEquals("The time is 10:00:01\n", Files.readString(file));
            assertTrue(fs.update(LocalTime.of(10, 0, 2), mount));
            assertEquals("The time is 10:00:02\n", Files.readString(file));
            assertEquals(0, fs.reads.get(), "every read was answered from the stored pages");
        }
    }

    @Test
    void theRunningClockIsReadFromThePageCache() throws Exception {
        StoreRetrieve fs = new StoreRetrieve(LocalTime.of(10, 0, 0));
        try (TestMount m = TestMount.mount(fs)) {
            Path file = m.path("current_time");
            assertEquals(21, Files.size(file));
            Thread clock = fs.updateEverySecond(m.inodeHandle());
            try {
                for (int i = 0; i < 50 && kernelCopy(fs, m.inodeHandle()).isEmpty(); i++) {
                    Thread.sleep(100);
                }
                String first = Files.readString(file);
                assertTrue(first.startsWith("The time is "), first);
                for (int i = 0; i < 50 && first.equals(Files.readString(file)); i++) {
                    Thread.sleep(100);
                }
                assertNotEquals(first, Files.readString(file), "within 5 s the stored time moved on");
                assertEquals(0, fs.reads.get(), "no read reached the filesystem");
            } finally {
                clock.interrupt();
                clock.join();
            }
        }
    }
}
