package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The adapter over a directory whose disk fills: a write the store took in part answers that part
 * (a short write), as the kernel's own filesystems do, and every byte it answered reads back; the
 * next write gets ENOSPC.
 */
@MountTest
@Timeout(60)
class FullStoreTest {
    @Test
    void aWriteThatMeetsAFullStoreIsShortAndWhatItAnsweredIsThere() throws Exception {
        assumeTrue(Libc.geteuid() == 0, "a tmpfs of the test's own needs root");
        Path disk = Tmpfs.mount("nio-full", 2);
        try {
            Path dir = Files.createDirectory(disk.resolve("served"));
            NioFileSystem fs = NioFileSystem.of(dir);
            try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
                // 25 pages taken: the request the store runs out in holds more than the room left.
                Files.write(m.path("first"), new byte[100_000]);
                byte[] data = new byte[4 << 20];
                new Random(57).nextBytes(data);
                int fd = Os.open(m.path("big"), Posix.O_CREAT | Posix.O_WRONLY);
                long n = Os.write(fd, data);
                long again = Os.write(fd, Arrays.copyOf(data, 4096));
                Os.close(fd);
                assertTrue(n > 0 && n < data.length, "a short write: " + n);
                assertEquals(-Errno.ENOSPC, again, "then ENOSPC");
                assertEquals(n, Files.size(m.path("big")), "the size is what write(2) answered");
                assertArrayEquals(Arrays.copyOf(data, (int) n), Files.readAllBytes(m.path("big")));
            }
        } finally {
            Tmpfs.unmount(disk);
        }
    }
}
