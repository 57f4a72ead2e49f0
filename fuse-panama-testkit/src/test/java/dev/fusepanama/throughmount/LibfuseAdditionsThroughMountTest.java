package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Statx;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.StatxReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What libfuse 3.17 and 3.18 added, on the release that has it, and a clear refusal naming the
 * release on the ones that do not: nameless files (tmpfile, 3.17), the epoch notification and
 * the kernel's request timeout (3.18).
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LibfuseAdditionsThroughMountTest {

    /** The flat files, plus nameless ones made by tmpfile, written and read by inode. */
    static final class WithTmpfiles extends FlatInodeFileSystem {
        final Map<Long, byte[]> nameless = new ConcurrentHashMap<>();
        final AtomicLong next = new AtomicLong(1000);
        volatile int tmpfileMode;

        @Override
        public void tmpfile(Request request, long parent, int mode, int flags, CreateReply reply) {
            tmpfileMode = mode;
            long ino = next.getAndIncrement();
            nameless.put(ino, new byte[0]);
            reply.attributes().setMode(Posix.S_IFREG | (mode & 07777)).setNlink(0);
            reply.created(Inode.of(ino), Timeouts.NONE, ino, 0);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) {
            byte[] data = nameless.get(ino);
            if (data == null) {
                super.getattr(request, ino, fh, reply);
                return;
            }
            reply.attributes().setIno(ino).setMode(Posix.S_IFREG | 0600).setNlink(0).setSize(data.length);
            reply.send(Timeouts.NONE);
        }

        @Override
        public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
            int n = data.remaining();
            nameless.compute(ino, (k, old) -> {
                byte[] grown = java.util.Arrays.copyOf(old, (int) Math.max(old.length, offset + n));
                data.get(grown, (int) offset, n);
                return grown;
            });
            reply.written(n);
        }

        @Override
        public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
            byte[] d = nameless.get(ino);
            if (d == null) {
                super.read(request, ino, fh, size, offset, reply);
                return;
            }
            int from = (int) Math.min(offset, d.length);
            reply.data(d, from, (int) Math.min(size, d.length - from));
        }
    }

    @Test
    void aNamelessFileIsCreatedWrittenAndReadOnLibfuse317() throws Exception {
        assumeTrue(TestMount.libfuseAtLeast(3, 17), "tmpfile is libfuse 3.17's");
        WithTmpfiles fs = new WithTmpfiles();
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.root()), Posix.O_TMPFILE | Posix.O_RDWR, 0600);
            assertTrue(fd >= 0, "open(O_TMPFILE): " + Errno.name(-fd));
            try {
                byte[] text = "no name\n".getBytes(StandardCharsets.UTF_8);
                assertEquals(text.length, Os.pwrite(fd, text, 0));
                assertArrayEquals(text, Os.pread(fd, 64, 0));
                Os.StatResult st = Os.fstat(fd);
                assertEquals(0, st.nlink(), "no name, no link");
                assertEquals(Posix.S_IFREG, st.mode() & Posix.S_IFMT);
            } finally {
                Os.close(fd);
            }
            assertEquals(1, fs.nameless.size());
            assertEquals(0600, fs.tmpfileMode & 07777);
        }
    }

    @Test
    void beforeLibfuse317ANamelessFileIsNotSupported() throws Exception {
        assumeFalse(TestMount.libfuseAtLeast(3, 17));
        WithTmpfiles fs = new WithTmpfiles();
        try (TestMount m = TestMount.mount(fs)) {
            int fd = Os.open(Os.bytes(m.root()), Posix.O_TMPFILE | Posix.O_RDWR, 0600);
            assertEquals(-Errno.EOPNOTSUPP, fd, "the release has no tmpfile slot: the kernel answers for it");
            assertTrue(fs.nameless.isEmpty());
        }
    }

    /** Files with a birth time, which only statx carries. */
    static final class Born extends FlatInodeFileSystem {
        final java.util.concurrent.atomic.AtomicInteger statxCalls = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void statx(Request request, long ino, long fh, int flags, int mask, StatxReply reply) {
            statxCalls.incrementAndGet();
            Statx x = reply.attributes();
            // The root is asked too (a stat of the mountpoint, as the mount itself makes on 3.18): a directory.
            boolean root = ino == ROOT;
            x.setIno(ino).setMode(root ? Posix.S_IFDIR | 0755 : Posix.S_IFREG | 0640).setNlink(root ? 2 : 1)
                    .setSize(root ? 0 : 3).setBtime(1_234_567_890L, 500)
                    .setMask(Statx.STATX_BASIC_STATS | Statx.STATX_BTIME);
            reply.send(Timeouts.NONE);
        }
    }

    @Test
    void statxCarriesTheBirthTimeOnLibfuse318OnBothApis() throws Exception {
        Born fs = new Born();
        fs.put("f", "abc");
        try (TestMount m = TestMount.mount(fs)) {
            Os.StatxResult x = Os.statx(Os.bytes(m.path("f")), Statx.STATX_BTIME);
            if (TestMount.libfuseAtLeast(3, 18)) {
                assertTrue((x.mask() & Statx.STATX_BTIME) != 0, "mask " + Integer.toHexString(x.mask()));
                assertEquals(1_234_567_890L, x.btimeSeconds());
                assertEquals(500, x.btimeNanos());
                assertEquals(Posix.S_IFREG | 0640, x.mode());
                assertTrue(fs.statxCalls.get() > 0);
            } else {
                assertEquals(0, x.mask() & Statx.STATX_BTIME, "answered from getattr: no birth time");
                assertEquals(0, fs.statxCalls.get(), "not registered before 3.18");
            }
        }
        ForwardingThroughMountTest.OneFile paths = new ForwardingThroughMountTest.OneFile() {
            @Override
            public int statx(String path, int flags, int mask, Statx stx, FileInfo fi) {
                if (path.equals("/")) { // asked by a stat of the mountpoint, as the mount itself makes on 3.18
                    stx.setMode(Posix.S_IFDIR | 0755).setNlink(2).setMask(Statx.STATX_BASIC_STATS);
                    return 0;
                }
                if (!path.equals("/f")) return -Errno.ENOENT;
                stx.setMode(Posix.S_IFREG | 0600).setNlink(1).setSize(TEXT.length).setBtime(987_654_321L, 7)
                        .setMask(Statx.STATX_BASIC_STATS | Statx.STATX_BTIME);
                return 0;
            }
        };
        try (TestMount m = TestMount.mount(paths)) {
            Os.StatxResult x = Os.statx(Os.bytes(m.path("f")), Statx.STATX_BTIME);
            if (TestMount.libfuseAtLeast(3, 18)) {
                assertEquals(987_654_321L, x.btimeSeconds(), "the path API's statx");
                assertEquals(7, x.btimeNanos());
            } else {
                assertEquals(0, x.mask() & Statx.STATX_BTIME);
            }
        }
    }

    @Test
    void theEpochMakesEveryCachedNameAskAgainOnLibfuse318() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        fs.put("f", "cached\n");
        try (TestMount m = TestMount.mount(fs)) {
            if (!TestMount.libfuseAtLeast(3, 18)) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> m.inodeHandle().incrementEpoch());
                assertTrue(e.getMessage().contains("3.18"), e.getMessage());
                return;
            }
            Os.lstat(Os.bytes(m.path("f")));
            Os.lstat(Os.bytes(m.path("f")));
            assertEquals(1, fs.lookups.get(), "the name is cached for an hour");
            m.inodeHandle().incrementEpoch();
            Os.lstat(Os.bytes(m.path("f")));
            assertEquals(2, fs.lookups.get(), "after the epoch moved on, the name is looked up again");
        }
    }

    @Test
    void aStuckRequestAbortsTheConnectionWithARequestTimeoutOnLibfuse318() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply)
                    throws java.io.IOException {
                if (name.toString().equals("stuck")) {
                    try {
                        release.await(90, TimeUnit.SECONDS); // stuck
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.lookup(request, parent, name, reply);
            }
        };
        fs.put("stuck", "x");
        MountOptions options = MountOptions.builder().requestTimeout(Duration.ofSeconds(1)).build();
        if (!TestMount.libfuseAtLeast(3, 18)) {
            MountException e = assertThrows(MountException.class, () -> TestMount.mount(fs, options).close());
            assertTrue(e.getMessage().contains("3.18"), e.getMessage());
            return;
        }
        try (TestMount m = TestMount.mount(fs, options)) {
            assertTrue(m.handle().describe().contains("request timeout 1 s"), m.handle().describe());
            CompletableFuture<Integer> lstat = CompletableFuture.supplyAsync(() -> {
                try {
                    Os.lstat(Os.bytes(m.path("stuck")));
                    return 0;
                } catch (Os.OsException e) {
                    return e.errno;
                }
            });
            long start = System.nanoTime();
            int errno = lstat.get(80, TimeUnit.SECONDS);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertEquals(Errno.ECONNABORTED, errno, "the kernel aborted the stuck request and the connection");
            assertTrue(seconds < 60, "within the kernel's check interval of the timeout: " + seconds + " s");
            org.slf4j.LoggerFactory.getLogger(getClass()).info("request timeout of 1 s: the stuck lstat failed after {} s", seconds);
            assertEquals(-Errno.ENOTCONN, Os.open(Os.bytes(m.path("other")), Posix.O_RDONLY, 0), "and every later call");
            release.countDown(); // the stuck method returns: its answer is dropped, and the session ends
            assertTrue(m.handle().awaitUnmount(Duration.ofSeconds(30)), "the session ended");
            assertFalse(m.handle().isMounted());
        } finally {
            release.countDown();
        }
    }
}
