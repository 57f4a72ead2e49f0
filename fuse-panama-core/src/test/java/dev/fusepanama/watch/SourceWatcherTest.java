package dev.fusepanama.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.watch.SourceWatcher.Change;
import dev.fusepanama.watch.SourceWatcher.Mechanism;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The watcher on each mechanism, over a directory on this machine's disk: what another process
 * changes is reported with what changed, what this process changes is not where the mechanism can
 * tell (fanotify), and a directory nobody watches reports nothing. No mount: the watcher is about
 * the source, not the kernel's FUSE client.
 */
@Timeout(60)
class SourceWatcherTest {
    @TempDir
    Path tmp;

    private final BlockingQueue<Change<String>> changes = new LinkedBlockingQueue<>();
    private final AtomicInteger lost = new AtomicInteger();
    private final List<Integer> fds = new ArrayList<>();

    private final SourceWatcher.Listener<String> listener = new SourceWatcher.Listener<>() {
        @Override
        public boolean changed(Change<String> change) {
            changes.add(change);
            return true;
        }

        @Override
        public void lost() {
            lost.incrementAndGet();
        }
    };

    @ParameterizedTest
    @EnumSource(Mechanism.class)
    void othersChangesAreReportedByNameAndNode(Mechanism m) throws Exception {
        Path src = Files.createDirectory(tmp.resolve("src"));
        Path unwatched = Files.createDirectory(src.resolve("unwatched"));
        Path f = Files.writeString(src.resolve("f"), "one\n");
        try (SourceWatcher<String> w = SourceWatcher.<String>builder(src, listener).atMost(m).start()) {
            assumeTrue(m == w.mechanism() || System.getenv("FUSE_PANAMA_RUN") == null,
                    "qemu-user does not emulate fanotify: the watcher fell back to " + w.mechanism() + ", run as its own case");
            assertEquals(m, w.mechanism(), "as root on Linux 6.18 every mechanism is available");
            assertTrue(w.watch("src", open(src), null, true));
            assertTrue(w.watch("f", open(f), null, false));

            sh("echo new > " + src.resolve("new"));
            Change<String> c = next(n -> "new".equals(n));
            assertEquals("src", c.directory());
            assertTrue((c.what() & SourceWatcher.NAME) != 0, c.toString());

            sh("echo more >> " + f);
            c = next(n -> "f".equals(n));
            assertTrue((c.what() & SourceWatcher.DATA) != 0, c.toString());
            assertEquals(m == Mechanism.INOTIFY ? null : "f", c.node(), "fanotify names the file by its handle");

            sh("chmod 600 " + f);
            c = next(n -> "f".equals(n));
            assertTrue((c.what() & SourceWatcher.ATTRIBUTES) != 0, c.toString());

            sh("chmod 700 " + src);
            Change<String> self = null;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (self == null && System.nanoTime() < end) {
                Change<String> d = changes.poll(100, TimeUnit.MILLISECONDS);
                if (d != null && d.name() == null && "src".equals(d.node())) self = d;
            }
            assertNotNull(self, "a watched directory's own change, reported by node");
            assertTrue((self.what() & SourceWatcher.ATTRIBUTES) != 0, self.toString());

            sh("mv " + f + " " + src.resolve("g"));
            List<String> renamed = List.of(name(next(n -> "f".equals(n) || "g".equals(n))), name(next(n -> "f".equals(n) || "g".equals(n))));
            assertTrue(renamed.containsAll(List.of("f", "g")), renamed.toString());

            sh("echo x > " + unwatched.resolve("inside"));
            Files.writeString(src.resolve("own"), "mine\n");
            sh("echo last > " + src.resolve("last"));
            List<String> seen = new ArrayList<>();
            Change<String> more;
            while ((more = changes.poll(500, TimeUnit.MILLISECONDS)) != null) {
                seen.add(name(more));
            }
            assertTrue(seen.contains("last"), seen.toString());
            assertTrue(!seen.contains("inside"), "a directory nobody watches reports nothing: " + seen);
            assertEquals(m == Mechanism.INOTIFY, seen.contains("own"), "own changes are dropped where the mechanism tells them: " + seen);
            assertEquals(m == Mechanism.INOTIFY, w.reportsOwnChanges());
            assertEquals(0, lost.get());
            assertNotNull(w.describe());
        } finally {
            for (int fd : fds) Libc.close(fd);
        }
    }

    @ParameterizedTest
    @EnumSource(Mechanism.class)
    void aForgottenDirectoryReportsNothing(Mechanism m) throws Exception {
        Path src = Files.createDirectory(tmp.resolve("src"));
        try (SourceWatcher<String> w = SourceWatcher.<String>builder(src, listener).atMost(m).start()) {
            assertTrue(w.watch("src", open(src), null, true));
            sh("echo a > " + src.resolve("a"));
            assertEquals("a", name(next(n -> "a".equals(n))));
            w.forget("src");
            sh("echo b > " + src.resolve("b"));
            assertEquals(null, changes.poll(300, TimeUnit.MILLISECONDS));
        } finally {
            for (int fd : fds) Libc.close(fd);
        }
    }

    private static String name(Change<String> c) {
        return c.name() == null ? null : new String(c.name(), StandardCharsets.UTF_8);
    }

    private Change<String> next(Predicate<String> wanted) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < end) {
            Change<String> c = changes.poll(100, TimeUnit.MILLISECONDS);
            if (c != null && wanted.test(name(c))) return c;
        }
        throw new AssertionError("no such change reported within 5 s");
    }

    private int open(Path p) {
        try (Arena a = Arena.ofConfined()) {
            int fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(p.toString()), Posix.O_PATH | Posix.O_CLOEXEC, 0);
            assertTrue(fd >= 0, p + ": " + fd);
            fds.add(fd);
            return fd;
        }
    }

    /** Runs {@code command} in another process, whose changes are not this one's. */
    private static void sh(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
        assertEquals(0, p.waitFor(), command);
    }
}
