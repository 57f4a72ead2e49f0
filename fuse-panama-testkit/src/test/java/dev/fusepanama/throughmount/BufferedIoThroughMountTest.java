package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** read_buf and write_buf: answering from memory, or moving data between a real file and the kernel. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BufferedIoThroughMountTest {
    @TempDir
    Path backing;

    @Test
    void memoryRepliesAndCopiesServeReadsAndWrites() throws Exception {
        ScratchFileSystem.Buffered fs = new ScratchFileSystem.Buffered();
        try (TestMount m = TestMount.mount(fs)) {
            byte[] data = new byte[2 * 1024 * 1024 + 3];
            new Random(1).nextBytes(data);
            Files.write(m.path("f"), data);
            assertArrayEquals(data, Files.readAllBytes(m.path("f")));
            assertTrue(fs.calls("writeBuf") > 0 && fs.calls("readBuf") > 0);
        }
    }

    @Test
    void readaheadAboveTheKernelsOfferIsSetAfterInit() throws Exception {
        ScratchFileSystem.Buffered fs = new ScratchFileSystem.Buffered();
        boolean root = "0".equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString());
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().maxReadahead(1 << 20).build());
                TestMount plain = TestMount.mount(new ScratchFileSystem.Buffered())) {
            assertEquals(root ? 1024 : 128, readaheadKib(m.root()));
            assertEquals(root, m.handle().describe().contains("readahead 1024 KiB"), m.handle().describe());
            assertEquals(128, readaheadKib(plain.root()), "the kernel's offer when not asked for more");
            byte[] data = new byte[4 * 1024 * 1024];
            new Random(5).nextBytes(data);
            Files.write(m.path("f"), data);
            assertArrayEquals(data, Files.readAllBytes(m.path("f")));
        }
    }

    /** The mount's read_ahead_kb, found through its device in /proc/self/mountinfo. */
    private static int readaheadKib(Path mountpoint) throws IOException {
        String device = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .map(l -> l.split(" ")).filter(f -> f[4].equals(mountpoint.toString())).map(f -> f[2])
                .reduce((a, b) -> b).orElseThrow();
        return Integer.parseInt(Files.readString(Path.of("/sys/class/bdi", device, "read_ahead_kb")).trim());
    }

    @Test
    void perThreadScratchMemorySurvivesGarbageCollection() throws Exception {
        // Regression: the scratch block behind names, bounce copies and bufvecs was freed by the
        // GC while still in use, corrupting the native heap a few collections later.
        ScratchFileSystem.Buffered fs = new ScratchFileSystem.Buffered();
        try (TestMount m = TestMount.mount(fs)) {
            Random random = new Random(4);
            for (int round = 0; round < 12; round++) {
                byte[] data = new byte[512 * 1024 + round];
                random.nextBytes(data);
                Files.write(m.path("f" + round), data);
                System.gc();
                assertArrayEquals(data, Files.readAllBytes(m.path("f" + round)));
                try (var names = Files.list(m.root())) {
                    assertEquals(round + 1, names.count());
                }
                System.gc();
            }
        }
    }

    /** One file, "/data", whose bytes live in a real file: data moves fd to fd through libfuse. */
    static final class FdBacked implements FuseFileSystem {
        final int fd;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();

        FdBacked(int fd) {
            this.fd = fd;
        }

        @Override
        public int getattr(String path, Stat stat, FileInfo fi) {
            if (path.equals("/")) {
                stat.setMode(Posix.S_IFDIR | 0755).setNlink(2);
            } else if (path.equals("/data")) {
                stat.setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(Os.lseek(fd, 0, Posix.SEEK_END));
            } else {
                return -Errno.ENOENT;
            }
            return 0;
        }

        @Override
        public int open(String path, FileInfo fi) {
            return path.equals("/data") ? 0 : -Errno.ENOENT;
        }

        @Override
        public int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) {
            reads.incrementAndGet();
            reply.fromFd(fd, offset, size);
            return 0;
        }

        @Override
        public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws java.io.IOException {
            writes.incrementAndGet();
            return (int) data.copyToFd(fd, offset);
        }
    }

    @Test
    void fileDescriptorRepliesAndCopiesKeepDataOutOfTheJvm() throws Exception {
        Path file = backing.resolve("backing.bin");
        byte[] data = new byte[3 * 1024 * 1024 + 11];
        new Random(2).nextBytes(data);
        Files.write(file, data);
        int fd = Os.open(file, Posix.O_RDWR);
        FdBacked fs = new FdBacked(fd);
        try (TestMount m = TestMount.mount(fs, KernelSettings.builder().attrTimeout(0).build())) {
            assertArrayEquals(data, Files.readAllBytes(m.path("data")));
            byte[] patch = new byte[200_000];
            new Random(3).nextBytes(patch);
            int wfd = Os.open(m.path("data"), Posix.O_WRONLY);
            assertEquals(patch.length, Os.pwrite(wfd, patch, 1000));
            Os.close(wfd);
            System.arraycopy(patch, 0, data, 1000, patch.length);
            assertArrayEquals(data, Files.readAllBytes(file), "written through to the backing file");
            assertTrue(fs.reads.get() > 0 && fs.writes.get() > 0);
        } finally {
            Os.close(fd);
        }
    }
}
