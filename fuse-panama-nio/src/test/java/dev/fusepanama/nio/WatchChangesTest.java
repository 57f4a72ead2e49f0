package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watchChanges()} on the default provider (inotify): changes made in the backing directory
 * are seen through the mount within seconds, although the kernel may keep what it cached for a
 * minute here, so that only the watcher can explain them.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WatchChangesTest {
    /** Well within the cache timeout: long enough for an event on a busy machine. */
    private static final Duration SEEN_WITHIN = Duration.ofSeconds(5);

    @TempDir
    Path tmp;

    @Test
    void changesBehindTheMountAreSeenLongBeforeTheCacheTimeout() throws Exception {
        Path source = Files.createDirectory(tmp.resolve("source"));
        Files.createDirectory(source.resolve("sub"));
        Files.writeString(source.resolve("grows"), "12345");
        Files.writeString(source.resolve("doomed"), "x");
        Files.writeString(source.resolve("sub").resolve("deep"), "1");
        NioFileSystem fs = NioFileSystem.of(source, Duration.ofSeconds(60));
        assertTrue(fs.watchChanges(), "the default provider has a watch service");
        try (TestMount m = TestMount.mountWith(fs::mount)) {
            // What the kernel now caches for the minute: names, attributes, a miss, a subdirectory.
            assertEquals(List.of("doomed", "grows", "sub"), list(m.root()));
            assertEquals(5, Files.size(m.path("grows")));
            assertTrue(Files.exists(m.path("doomed")));
            assertFalse(Files.exists(m.path("later")));
            assertEquals(1, Files.size(m.path("sub/deep")));

            Files.writeString(source.resolve("later"), "made behind the mount");
            Files.writeString(source.resolve("grows"), "1234567890");
            Files.delete(source.resolve("doomed"));
            Files.writeString(source.resolve("sub").resolve("deep"), "22");

            seen("a file created behind the mount", () -> Files.exists(m.path("later")));
            seen("a file grown behind the mount", () -> Files.size(m.path("grows")) == 10);
            seen("a file removed behind the mount", () -> !Files.exists(m.path("doomed")));
            seen("a change in a subdirectory the kernel learnt", () -> Files.size(m.path("sub/deep")) == 2);
            assertEquals("made behind the mount", Files.readString(m.path("later")));
            assertEquals("1234567890", Files.readString(m.path("grows")));
            assertEquals("22", Files.readString(m.path("sub/deep")));
            assertTrue(watcherRunning(source), "a watcher thread while mounted");
        }
        seen("the watcher thread ending with the mount", () -> !watcherRunning(source));
    }

    private static boolean watcherRunning(Path source) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("fuse-panama-nio watcher of " + source));
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code c} until it holds, for at most {@link #SEEN_WITHIN}. */
    private static void seen(String what, Condition c) throws Exception {
        long deadline = System.nanoTime() + SEEN_WITHIN.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() > deadline) throw new AssertionError(what + ": not seen within " + SEEN_WITHIN);
            Thread.sleep(50);
        }
    }

    private static List<String> list(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
