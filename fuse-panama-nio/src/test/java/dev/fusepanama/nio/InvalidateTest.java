package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.testkit.MountTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consistency rule: names, misses and attributes are the kernel's for the cache timeout (an
 * hour here, so that nothing expires during the test); a change made behind the mount is seen at
 * once after {@code invalidate(path)}.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InvalidateTest {
    @TempDir
    Path tmp;

    @Test
    void changesBehindTheMountAreSeenAfterInvalidateAndNotBefore() throws Exception {
        Path source = Files.createDirectory(tmp.resolve("source"));
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Files.writeString(source.resolve("grows"), "12345");
        NioFileSystem fs = NioFileSystem.of(source, Duration.ofHours(1));
        try (InodeMount m = fs.mount(mnt)) {
            assertFalse(Files.exists(mnt.resolve("later")), "a miss, now cached");
            assertEquals(5, Files.size(mnt.resolve("grows")));
            Files.writeString(source.resolve("later"), "made behind the mount");
            Files.writeString(source.resolve("grows"), "1234567890");
            assertFalse(Files.exists(mnt.resolve("later")), "the kernel keeps the miss for the cache timeout");
            assertEquals(5, Files.size(mnt.resolve("grows")), "and the attributes");
            fs.invalidate(source.resolve("later"));
            fs.invalidate(source.resolve("grows"));
            assertTrue(Files.exists(mnt.resolve("later")));
            assertEquals("made behind the mount", Files.readString(mnt.resolve("later")));
            assertEquals(10, Files.size(mnt.resolve("grows")));
            assertEquals("1234567890", Files.readString(mnt.resolve("grows")));
        }
    }
}
