package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Posix;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.inode.BmapReply;
import dev.fusepanama.inode.IoctlReply;
import dev.fusepanama.inode.PollReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The inode API's operations on open files that take more than data: ioctl, poll with its
 * wake-up, write_buf (spliced into a file and copied into memory) and bmap on a mount backed by
 * a block device. Each is driven by the system call a program makes.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeFileControlThroughMountTest {
    /** {@code _IOWR('F', 1, int)}: answers with the int doubled. */
    static final int DOUBLE = (3 << 30) | (4 << 16) | ('F' << 8) | 1;
    /** {@code _IO('F', 2)}: answers its argument times three as the call's result. */
    static final int TRIPLE_ARG = ('F' << 8) | 2;

    @Test
    void ioctlTakesDataInAndGivesDataBack() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void ioctl(Request request, long ino, long fh, int cmd, long arg, int flags, ByteBuffer in, int outSize,
                    IoctlReply reply) {
                calls.incrementAndGet();
                if (cmd == DOUBLE) {
                    int value = in.order(ByteOrder.nativeOrder()).getInt(0);
                    reply.result(0, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value * 2));
                } else if (cmd == TRIPLE_ARG) {
                    reply.result((int) arg * 3);
                } else {
                    reply.error(Errno.ENOTTY);
                }
            }
        };
        fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(new ClientIoctl.Result(0, 42), ClientIoctl.withIntPointer(m.path("f"), DOUBLE & 0xFFFFFFFFL, 21));
            assertEquals(21, ClientIoctl.withValue(m.path("f"), TRIPLE_ARG, 7), "the argument itself, and the result");
            assertEquals(-Errno.ENOTTY, ClientIoctl.withIntPointer(m.path("f"), (DOUBLE + 1) & 0xFFFFFFFFL, 21).rc());
        }
        assertEquals(3, calls.get());
    }

    @Test
    void aRetainedPollHandleWakesAWaitingProcess() throws Exception {
        PollingFileSystem fs = new PollingFileSystem();
        fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.path("f")), Posix.O_RDONLY, 0);
            try {
                CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> Os.poll(fd, (short) Posix.POLLIN, 30_000));
                PollHandle handle = fs.handle.get(10, TimeUnit.SECONDS);
                Thread.sleep(200);
                assertFalse(waiting.isDone(), "nothing is ready: the process waits");
                fs.ready = true;
                handle.notifyReady();
                int revents = waiting.get(10, TimeUnit.SECONDS);
                assertTrue((revents & Posix.POLLIN) != 0, "woken and ready: revents " + revents);
                assertTrue(fs.polls.get() >= 2, "the kernel polled again after the notification");
            } finally {
                Os.close(fd);
            }
        }
    }

    @Test
    void aPollHandleNotifiedAfterTheMountEndedDoesNothing() throws Exception {
        PollingFileSystem fs = new PollingFileSystem();
        fs.put("f", "x");
        PollHandle handle;
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.path("f")), Posix.O_RDONLY, 0);
            try {
                assertEquals(0, Os.poll(fd, (short) Posix.POLLIN, 100), "not ready: times out");
                handle = fs.handle.get(10, TimeUnit.SECONDS);
            } finally {
                Os.close(fd);
            }
        }
        handle.notifyReady(); // the session is freed: this must neither write to it nor throw
    }

    /** Not ready until told; keeps the first handle the kernel gives it. */
    static class PollingFileSystem extends FlatInodeFileSystem {
        final CompletableFuture<PollHandle> handle = new CompletableFuture<>();
        final AtomicInteger polls = new AtomicInteger();
        volatile boolean ready;

        @Override
        public void poll(Request request, long ino, long fh, int events, PollHandle h, PollReply reply) {
            polls.incrementAndGet();
            if (ready) {
                reply.events(events & Posix.POLLIN);
                return;
            }
            if (h != null && !handle.isDone()) {
                handle.complete(h.retain());
            }
            reply.events(0);
        }
    }

    @Test
    void writeBufSplicesLargeWritesIntoAFileAndCopiesSmallOnesIntoMemory() throws Exception {
        Path backing = Files.createTempFile("fuse-panama-writebuf", ".bin");
        try {
            int backingFd = fdOf(backing);
            try {
                AtomicInteger toFd = new AtomicInteger();
                AtomicInteger toMemory = new AtomicInteger();
                ByteBuffer small = ByteBuffer.allocate(100);
                FlatInodeFileSystem fs = new FlatInodeFileSystem() {
                    @Override
                    public void writeBuf(Request request, long ino, long fh, WriteBuffer data, long offset, WriteReply reply)
                            throws IOException {
                        if (data.size() > small.capacity()) {
                            toFd.incrementAndGet();
                            reply.written(data.copyToFd(backingFd, offset));
                        } else {
                            toMemory.incrementAndGet();
                            small.clear().position((int) offset);
                            reply.written(data.copyTo(small));
                        }
                    }
                };
                fs.put("f", "");
                byte[] large = new byte[256 * 1024];
                new Random(7).nextBytes(large);
                try (TestMount m = TestMount.mount(fs)) {
                    int fd = Os.open(Os.bytes(m.path("f")), Posix.O_WRONLY, 0);
                    try {
                        assertEquals(large.length, Os.pwrite(fd, large, 0));
                        assertEquals(5, Os.pwrite(fd, "hello".getBytes(), 3));
                    } finally {
                        Os.close(fd);
                    }
                }
                assertTrue(toFd.get() >= 1, "the large write reached the file");
                assertEquals(1, toMemory.get());
                assertArrayEquals(large, Files.readAllBytes(backing), "byte for byte in the backing file");
                assertEquals("hello", new String(small.array(), 3, 5));
            } finally {
                Os.close(backingFd);
            }
        } finally {
            Files.deleteIfExists(backing);
        }
    }

    private static int fdOf(Path p) {
        int fd = Os.open(Os.bytes(p), Posix.O_WRONLY, 0);
        assertTrue(fd >= 0, "open " + p + ": " + fd);
        return fd;
    }

    @Test
    void bmapAnswersForAMountBackedByABlockDevice() throws Exception {
        assumeTrue(Files.isWritable(Path.of("/dev/loop-control")), "needs root and loop devices (fuseblk mounts are root's)");
        Path image = Files.createTempFile("fuse-panama-fuseblk", ".img");
        String device = null;
        try {
            Files.write(image, new byte[1 << 20]);
            device = run("losetup", "--find", "--show", image.toString()).strip();
            AtomicInteger calls = new AtomicInteger();
            FlatInodeFileSystem fs = new FlatInodeFileSystem() {
                @Override
                public void bmap(Request request, long ino, long blockSize, long index, BmapReply reply) {
                    calls.incrementAndGet();
                    reply.block(1000 + index);
                }
            };
            fs.put("f", "y".repeat(8192));
            MountOptions options = MountOptions.builder().fsName(device).option("blkdev").build();
            try (TestMount m = TestMount.mount(fs, options); Arena a = Arena.ofConfined()) {
                assertTrue(Files.readString(Path.of("/proc/self/mounts")).contains(device + " " + m.root() + " fuseblk"),
                        "a fuseblk mount of " + device);
                int fd = Os.open(Os.bytes(m.path("f")), Posix.O_RDONLY, 0);
                try {
                    MemorySegment block = a.allocateFrom(ValueLayout.JAVA_INT, 1);
                    assertEquals(0, Os.ioctl(fd, 1 /* FIBMAP */, block));
                    assertEquals(1001, block.get(ValueLayout.JAVA_INT, 0));
                } finally {
                    Os.close(fd);
                }
            }
            assertEquals(1, calls.get());
        } finally {
            if (device != null) {
                run("losetup", "--detach", device);
            }
            Files.deleteIfExists(image);
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " timed out");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
        return out;
    }
}
