package dev.fusepanama.examples.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.Mount;
import dev.fusepanama.Posix;
import dev.fusepanama.examples.Main;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
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

            int fd = Os.open(m.path("fill"), Posix.O_CREAT | Posix.O_WRONLY);
            assertEquals(512 * 1024, Os.pwrite(fd, new byte[512 * 1024], 0));
            assertEquals(128, Os.statvfs(m.root()).bfree(), "half used");
            assertEquals(512 * 1024, Os.pwrite(fd, new byte[512 * 1024], 512 * 1024));
            assertEquals(0, Os.statvfs(m.root()).bfree(), "exactly full");
            assertEquals(-Errno.ENOSPC, Os.pwrite(fd, new byte[4096], 2 << 20), "one page more: write(2) says so");
            assertEquals(0, Os.fsync(fd), "and nothing acknowledged is left to fail");
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

    /**
     * An acknowledged write is stored: writing past the capacity gives a short write and then
     * ENOSPC from write(2) itself, as on tmpfs; every byte write(2) acknowledged reads back, also
     * once the kernel has dropped its cached pages and attributes; and a write into a full memfs
     * fails, leaving an empty file, not one of zeros.
     */
    @Test
    void aWriteIntoAFullMemfsFailsAndEveryAcknowledgedByteReadsBack() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(16 << 20, 100);
        try (TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().build())) {
            byte[] chunk = new byte[64 << 10];
            Random random = new Random(57);
            ByteArrayOutputStream aWritten = new ByteArrayOutputStream();
            ByteArrayOutputStream bWritten = new ByteArrayOutputStream();
            long[] acknowledged = new long[2];
            String[] names = {"a", "b"};
            int enospc = 0;
            for (int file = 0; file < 2; file++) {
                ByteArrayOutputStream written = file == 0 ? aWritten : bWritten;
                int fd = Os.open(m.path(names[file]), Posix.O_CREAT | Posix.O_WRONLY);
                try {
                    while (acknowledged[file] < 12 << 20) {
                        random.nextBytes(chunk);
                        long rc = Os.pwrite(fd, chunk, acknowledged[file]);
                        if (rc < 0) {
                            assertEquals(-Errno.ENOSPC, rc);
                            enospc++;
                            break;
                        }
                        written.write(chunk, 0, (int) rc);
                        acknowledged[file] += rc;
                    }
                } finally {
                    assertEquals(0, Os.close(fd), "nothing the close could report");
                }
            }
            assertEquals(12 << 20, acknowledged[0], "a fits");
            assertEquals(1, enospc, "b meets the limit in write(2)");
            assertEquals((16 << 20) - (12 << 20), acknowledged[1], "b gets what was left: every page of the 16 MiB");
            assertEquals(-Errno.ENOSPC, Os.writeFile(m.path("small"), "hello\n".getBytes(StandardCharsets.US_ASCII)),
                    "echo into the full memfs fails");
            Os.dropCaches();
            for (int file = 0; file < 2; file++) {
                byte[] expected = (file == 0 ? aWritten : bWritten).toByteArray();
                assertEquals(acknowledged[file], Files.size(m.path(names[file])));
                assertTrue(Arrays.equals(expected, Files.readAllBytes(m.path(names[file]))), names[file] + " reads back");
            }
            assertEquals(0, Files.size(m.path("small")), "the failed write left an empty file");
        }
    }

    /**
     * A shared writable mapping of a file opened O_RDWR | O_APPEND: the kernel writes the page back
     * through that handle, and memfs writes it where it belongs, not at the end (O_APPEND is for
     * write(2)).
     */
    @Test
    void aMappedPageOfAnAppendHandleIsWrittenBackInPlace() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(1 << 24, 10);
        try (TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().build())) {
            Path file = m.path("mapped");
            Files.write(file, "x".repeat(8192).getBytes(StandardCharsets.US_ASCII));
            Process p = new ProcessBuilder("python3", "-c", "import mmap, os, sys\n"
                    + "fd = os.open(sys.argv[1], os.O_RDWR | os.O_APPEND)\n"
                    + "m = mmap.mmap(fd, 4096)\nm[0:5] = b'HELLO'\nm.flush()\nm.close()\nos.close(fd)\n", file.toString())
                    .redirectErrorStream(true).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            Os.dropCaches();
            byte[] back = Files.readAllBytes(file);
            assertEquals(8192, back.length, "nothing appended");
            assertEquals("HELLOxxxxx", new String(back, 0, 10, StandardCharsets.US_ASCII), "the page where it was mapped");
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
        Process p = new ProcessBuilder(ChildJvm.command(Main.class, "memfs", dir.toString(),
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
