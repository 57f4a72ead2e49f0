package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Posix;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** poll(2) on the file waits while nothing is queued and wakes when a line is. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class PollReadableTest {
    static String read(int fd) {
        return new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8);
    }

    @Test
    void aWaitingProcessWakesWhenALineIsQueued() throws Exception {
        PollReadable fs = new PollReadable();
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.path("ticks")), Posix.O_RDONLY, 0);
            assertTrue(fd >= 0, "open: " + fd);
            try {
                assertEquals(0, Os.poll(fd, (short) Posix.POLLIN, 100), "nothing queued: poll times out");
                CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> Os.poll(fd, (short) Posix.POLLIN, 30_000));
                Thread.sleep(300);
                assertFalse(waiting.isDone(), "nothing queued: the process waits");
                fs.tick("one\n");
                int revents = waiting.get(10, TimeUnit.SECONDS);
                assertTrue((revents & Posix.POLLIN) != 0, "woken, readable: revents " + revents);
                assertEquals("one\n", read(fd));
                assertEquals(0, Os.poll(fd, (short) Posix.POLLIN, 100), "all read: not readable again");
                assertEquals("", read(fd), "and a read finds nothing");
            } finally {
                Os.close(fd);
            }
        }
    }

    @Test
    void theRunningTickerWakesAPollerEverySecond() throws Exception {
        PollReadable fs = new PollReadable();
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.path("ticks")), Posix.O_RDONLY, 0);
            assertTrue(fd >= 0, "open: " + fd);
            Thread ticker = fs.tickEverySecond(m.inodeHandle());
            try {
                for (int i = 0; i < 2; i++) {
                    long start = System.nanoTime();
                    int revents = Os.poll(fd, (short) Posix.POLLIN, 10_000);
                    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertTrue((revents & Posix.POLLIN) != 0, "readable: revents " + revents);
                    // At its timeout poll(2) asks once more, and would find the line then: woken means early.
                    assertTrue(waited < 5_000, "woken by the next tick, not by the timeout: waited " + waited + " ms");
                    String line = read(fd);
                    assertTrue(line.startsWith("tick "), line);
                }
            } finally {
                ticker.interrupt();
                ticker.join();
                Os.close(fd);
            }
        }
    }
}
