package dev.fusepanama.examples.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * memfs changes access times by the mount's flags as the kernel does for its own filesystems,
 * and follows a remount that changes them: relatime (the default), strictatime (every read,
 * also of data the kernel has cached), noatime, nodiratime, and none on a read-only mount.
 * Remounting needs root.
 */
@MountTest
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AccessTimeRulesTest {
    private static FileTime atime(Path p) throws IOException {
        return (FileTime) Files.getAttribute(p, "unix:lastAccessTime");
    }

    private static void remount(Path mountpoint, String flags) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mount", "-i", "-o", "remount," + flags, mountpoint.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), "mount -o remount," + flags + ": " + out);
    }

    private static TestMount memfs() throws IOException {
        assumeTrue(Libc.geteuid() == 0, "remounting with other flags needs root");
        return TestMount.mount(new MemoryFileSystem(1L << 26, 1000), MemoryFileSystem.mountOptions().build());
    }

    @Test
    void relatimeChangesTheAccessTimeOnceAfterEachChange() throws Exception {
        try (TestMount m = memfs()) {
            Path f = Files.writeString(m.path("f"), "data");
            FileTime written = atime(f);
            Thread.sleep(20); // times have the kernel's tick: a read within the tick of the write leaves atime, as on tmpfs
            Files.readString(f);
            FileTime read = atime(f);
            assertNotEquals(written, read, "the first read after a write changes atime");
            Files.readString(f);
            assertEquals(read, atime(f), "a second read before any change does not");
        }
    }

    @Test
    void strictatimeChangesItAtEveryReadAlsoOfCachedData() throws Exception {
        try (TestMount m = memfs()) {
            Path f = Files.writeString(m.path("f"), "data".repeat(2048));
            Files.readString(f); // the kernel caches the pages now
            remount(m.root(), "strictatime");
            FileTime before = atime(f);
            for (int i = 0; i < 5; i++) {
                Thread.sleep(1000); // memfs drops the cached data just after a read (StrictAtime); emulated JVMs are slow
                Files.readString(f);
                FileTime after = atime(f);
                assertNotEquals(before, after, "read " + i + " under strictatime changes atime");
                before = after;
            }
        }
    }

    @Test
    void aReadJustAfterARemountFollowsTheNewFlags() throws Exception {
        try (TestMount m = memfs()) {
            Path f = Files.writeString(m.path("f"), "data");
            Files.readString(f); // the kernel caches the pages now
            for (int i = 0; i < 10; i++) {
                remount(m.root(), "noatime");
                FileTime before = atime(f);
                Files.readString(f);
                assertEquals(before, atime(f), "round " + i + ": a read right after the remount to noatime");
                remount(m.root(), "strictatime");
                Files.readString(f); // no pause: the read follows the remount as fstests' generic/003 does
                assertNotEquals(before, atime(f), "round " + i + ": a read right after the remount to strictatime");
            }
        }
    }

    @Test
    void noatimeAndReadOnlyLeaveItAsItIs() throws Exception {
        try (TestMount m = memfs()) {
            Path f = Files.writeString(m.path("f"), "data");
            remount(m.root(), "noatime");
            FileTime before = atime(f);
            Files.readString(f);
            assertEquals(before, atime(f), "noatime");
            remount(m.root(), "strictatime,ro");
            Files.readString(f);
            assertEquals(before, atime(f), "a read-only mount");
        }
    }

    @Test
    void nodiratimeLeavesDirectoriesAsTheyAre() throws Exception {
        try (TestMount m = memfs()) {
            Path d = Files.createDirectory(m.path("d"));
            Files.writeString(d.resolve("f"), "data");
            // Past the tick of the changes: the whole test can run within one (12 ms in a full run
            // here), and a read or listing within the tick of a change leaves atime, as on tmpfs.
            Thread.sleep(20);
            remount(m.root(), "relatime,nodiratime");
            FileTime before = atime(d);
            try (var names = Files.list(d)) {
                assertEquals(1, names.count());
            }
            assertEquals(before, atime(d), "nodiratime");
            FileTime file = atime(d.resolve("f"));
            Files.readString(d.resolve("f"));
            assertNotEquals(file, atime(d.resolve("f")), "files still change under nodiratime");
            remount(m.root(), "relatime,diratime");
            try (var names = Files.list(d)) {
                assertEquals(1, names.count());
            }
            assertNotEquals(before, atime(d), "relatime lists a directory changed since its last listing");
        }
    }
}
