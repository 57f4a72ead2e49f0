package dev.fusepanama.examples.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.Mount;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the POSIX suite cannot compare with a reference: memfs's own limits and its command. */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MemoryFileSystemTest {
    @TempDir
    Path tmp;

    /** O_TMPFILE as on tmpfs: a nameless file, linked by linkat unless made with O_EXCL (libfuse 3.17+, where the kernel can ask). */
    @Test
    void aNamelessFileIsWrittenAndLinkedAsOnTmpfs() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestMount.libfuseAtLeast(3, 17), "tmpfile is libfuse 3.17's");
        try (TestMount m = TestMount.mount(new MemoryFileSystem(1 << 20, 100), MemoryFileSystem.mountOptions().build())) {
            byte[] text = "made without a name\n".getBytes(StandardCharsets.UTF_8);
            int fd = Os.open(Os.bytes(m.root()), Posix.O_TMPFILE | Posix.O_RDWR, 0640);
            assertTrue(fd >= 0, "open(O_TMPFILE): " + Errno.name(-fd));
            try {
                assertEquals(text.length, Os.pwrite(fd, text, 0));
                assertEquals(0, Os.fstat(fd).nlink());
                assertEquals(0640, Os.fstat(fd).mode() & 07777);
                assertEquals(0, Os.linkOpen(fd, Os.bytes(m.path("named"))), "linkat gives it its first name");
                assertEquals(1, Os.fstat(fd).nlink());
            } finally {
                Os.close(fd);
            }
            assertEquals("made without a name\n", Files.readString(m.path("named")));
            int excl = Os.open(Os.bytes(m.root()), Posix.O_TMPFILE | Posix.O_RDWR | Posix.O_EXCL, 0600);
            assertTrue(excl >= 0);
            try {
                assertEquals(-Errno.ENOENT, Os.linkOpen(excl, Os.bytes(m.path("never"))), "O_EXCL: never linked, as tmpfs");
            } finally {
                Os.close(excl);
            }
            assertEquals(List.of("named"), Files.list(m.root()).map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void theCapacityLimitAnswersEnospcAndStatfsReportsRealUsage() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(1 << 20, 10);
        try (TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().build())) {
            Os.StatVfsResult empty = Os.statvfs(m.root());
            assertEquals(256, empty.blocks(), "1 MiB in 4 KiB blocks");
            assertEquals(256, empty.bfree());
            assertEquals(9, empty.ffree(), "the root uses one of ten inodes");

            // With the kernel's writeback cache the data reaches memfs when it is flushed: fsync.
            int fd = Os.open(m.path("fill"), Posix.O_CREAT | Posix.O_WRONLY);
            assertEquals(512 * 1024, Os.pwrite(fd, new byte[512 * 1024], 0));
            assertEquals(0, Os.fsync(fd));
            assertEquals(128, Os.statvfs(m.root()).bfree(), "half used");
            assertEquals(512 * 1024, Os.pwrite(fd, new byte[512 * 1024], 512 * 1024));
            assertEquals(0, Os.fsync(fd), "exactly full");
            assertEquals(0, Os.statvfs(m.root()).bfree());
            // One page more: refused by write(2), or under the writeback cache by the fsync after it, never lost silently.
            long rc = Os.pwrite(fd, new byte[4096], 2 << 20);
            int synced = Os.fsync(fd);
            if (fs.writebackCache()) {
                assertEquals(4096, rc, "the kernel takes it into its cache");
                assertEquals(-Errno.ENOSPC, synced, "and the fsync says it could not be written");
            } else {
                assertEquals(-Errno.ENOSPC, rc);
            }
            assertEquals(0, Os.statvfs(m.root()).bfree());
            assertEquals(-Errno.ENOSPC, Os.fallocate(fd, 0, 4 << 20, 4096));

            // space comes back when the last name and the last open handle are gone
            assertEquals(0, Os.unlink(Os.bytes(m.path("fill"))));
            assertEquals(0, Os.statvfs(m.root()).bfree(), "still open");
            Os.close(fd);
            awaitFree(m, 256);

            for (int i = 0; i < 9; i++) assertEquals(0, Os.mkdir(Os.bytes(m.path("d" + i)), 0755));
            assertEquals(-Errno.ENOSPC, Os.mkdir(Os.bytes(m.path("one-too-many")), 0755));
            assertEquals(0, Os.statvfs(m.root()).ffree());
        }
    }

    /** Under the writeback cache a close flushes what the kernel holds: a write that does not fit fails the close, and what fit stays. */
    @Test
    void aCloseReportsTheWriteThatDidNotFit() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(1 << 20, 10);
        try (TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().build())) {
            org.junit.jupiter.api.Assumptions.assumeTrue(fs.writebackCache(), "write(2) itself answers ENOSPC without the writeback cache");
            byte[] fits = new byte[1 << 20];
            java.util.Arrays.fill(fits, (byte) 'x');
            int fd = Os.open(m.path("fits"), Posix.O_CREAT | Posix.O_WRONLY);
            assertEquals(fits.length, Os.pwrite(fd, fits, 0));
            assertEquals(0, Os.fsync(fd));
            assertEquals(0, Os.close(fd));
            int over = Os.open(m.path("over"), Posix.O_CREAT | Posix.O_WRONLY);
            assertEquals(4096, Os.pwrite(over, new byte[4096], 0), "taken into the kernel's cache");
            assertEquals(-Errno.ENOSPC, Os.close(over), "the close flushes it, and memfs has no room");
            assertTrue(java.util.Arrays.equals(fits, Files.readAllBytes(m.path("fits"))), "what fit is all there");
        }
    }

    /** Under the writeback cache the kernel answers SEEK_DATA and SEEK_HOLE from its own size: data everywhere, the hole at the end. */
    @Test
    void seekDataAndSeekHoleSeeAFileWithoutHolesUnderTheWritebackCache() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(1 << 24, 10);
        try (TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().build())) {
            org.junit.jupiter.api.Assumptions.assumeTrue(fs.writebackCache(), "without it memfs finds the holes (the POSIX suite's check)");
            int fd = Os.open(m.path("sparse"), Posix.O_CREAT | Posix.O_RDWR);
            try {
                assertEquals(1, Os.pwrite(fd, new byte[] {1}, 1 << 20));
                assertEquals(0, Os.lseek(fd, 0, Posix.SEEK_DATA), "before the flush");
                assertEquals((1 << 20) + 1, Os.lseek(fd, 0, Posix.SEEK_HOLE), "the end, the kernel's size: the byte is not flushed yet");
                assertEquals(0, Os.fsync(fd));
                assertEquals(4096, Os.lseek(fd, 4096, Posix.SEEK_DATA), "after it");
                assertEquals((1 << 20) + 1, Os.lseek(fd, 4096, Posix.SEEK_HOLE));
                assertEquals(-Errno.ENXIO, Os.lseek(fd, (1 << 20) + 1, Posix.SEEK_DATA), "past the end");
            } finally {
                Os.close(fd);
            }
            // The kernel keeps no block count of a cached file: a close asks memfs's anew.
            assertEquals(8, Os.lstat(Os.bytes(m.path("sparse"))).blocks(), "the hole still costs nothing: one page of 512-byte blocks");
        }
    }

    private static void awaitFree(TestMount m, long blocks) throws InterruptedException {
        // release is asynchronous: close(2) returns before the filesystem hears of it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Os.statvfs(m.root()).bfree() != blocks && System.nanoTime() < deadline) Thread.sleep(10);
        assertEquals(blocks, Os.statvfs(m.root()).bfree());
    }

    /** What an application that opens and closes volumes does; on 3.17+ this once crashed the JVM at the first close. */
    @Test
    void twentyMountsInOneJvmEachServeAndEndCleanly() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("again"));
        for (int i = 0; i < 20; i++) {
            try (Mount mount = Fuse.mount(new MemoryFileSystem(1 << 20, 100), dir, MemoryFileSystem.mountOptions().build())) {
                Files.writeString(dir.resolve("f"), "round " + i);
                int fd = Os.open(dir.resolve("f"), Posix.O_RDWR);
                Files.delete(dir.resolve("f")); // an unlinked open file: the null-path requests memfs asks for
                assertEquals(5, Os.pwrite(fd, "ROUND".getBytes(StandardCharsets.UTF_8), 0));
                Os.close(fd);
                assertTrue(mount.isMounted());
            }
            assertFalse(mounted(dir), "round " + i);
        }
        try (var entries = Files.list(dir)) {
            assertEquals(0, entries.count(), "the files lived in memfs, not in the directory");
        }
    }

    @Test
    void theCommandServesUntilSigtermThenUnmountsAndExitsZero() throws Exception {
        Path dir = tmp.resolve("mnt");
        Process p = new ProcessBuilder(ChildJvm.command(dev.fusepanama.examples.Main.class, "memfs", dir.toString(),
                "--max-size", "64M"))
                .redirectErrorStream(true).redirectOutput(tmp.resolve("out.log").toFile()).start();
        java.util.function.Supplier<String> out = () -> {
            try {
                return Files.readString(tmp.resolve("out.log"), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return e.toString();
            }
        };
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!mounted(dir) && System.nanoTime() < deadline) Thread.sleep(50);
        assertTrue(mounted(dir), "mounted: " + out.get());
        Files.writeString(dir.resolve("f"), "through the command");
        assertEquals("through the command", Files.readString(dir.resolve("f")));
        assertEquals(64L << 20, Files.getFileStore(dir).getTotalSpace());
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out.get());
        assertFalse(mounted(dir));
        assertTrue(out.get().contains("memfs mounted at " + dir), out.get());
        assertTrue(out.get().contains("unmounted " + dir), out.get());
    }

    static boolean mounted(Path dir) throws java.io.IOException {
        return Files.readString(Path.of("/proc/self/mounts")).contains(" " + dir + " ");
    }
}
