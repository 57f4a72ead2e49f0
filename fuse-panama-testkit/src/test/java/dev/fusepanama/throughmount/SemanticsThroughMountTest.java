package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.FuseContext;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PathOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour that depends on options and on what the filesystem declares: caching, hard_remove, context, init. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SemanticsThroughMountTest {

    /** 300 files listed with their attributes and offsets, so readdirplus can fill the kernel's caches. */
    static final class ManyFiles implements FuseFileSystem {
        static final int N = 300;
        final AtomicInteger entryGetattrs = new AtomicInteger();
        final AtomicInteger plusRequests = new AtomicInteger();

        static void fill(Stat st, int i) {
            st.setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(i).setMtime(1_000_000 + i, 0);
        }

        @Override
        public int getattr(String path, Stat st, FileInfo fi) {
            if (path.equals("/")) {
                st.setMode(Posix.S_IFDIR | 0755).setNlink(2);
                return 0;
            }
            entryGetattrs.incrementAndGet();
            int i = Integer.parseInt(path.substring(6));
            if (i >= N) return -Errno.ENOENT;
            fill(st, i);
            return 0;
        }

        @Override
        public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
            if ((flags & DirFiller.READDIR_PLUS) != 0) plusRequests.incrementAndGet();
            for (long i = offset; i < N; i++) {
                Stat st = filler.attributes();
                fill(st, (int) i);
                if (filler.add("entry-" + i, i + 1, st)) break;
            }
            return 0;
        }
    }

    @Test
    void lsLongOfADirectoryNeedsNoGetattrPerEntry() throws Exception {
        ManyFiles fs = new ManyFiles();
        try (TestMount m = TestMount.mount(fs, KernelSettings.builder().attrTimeout(60).entryTimeout(60).build())) {
            Process ls = new ProcessBuilder("ls", "-l", m.root().toString()).redirectErrorStream(true).start();
            String out = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, ls.waitFor(), out);
            assertEquals(ManyFiles.N + 1, out.lines().count(), "total line + one per entry");
            assertTrue(out.contains(" 299 "), "sizes come from the readdir attributes");
            assertTrue(fs.plusRequests.get() > 0, "the kernel asked for readdirplus");
            assertTrue(fs.entryGetattrs.get() < ManyFiles.N / 10, "getattr calls: " + fs.entryGetattrs.get());
        }
    }

    @Test
    void withHardRemoveAnUnlinkedOpenFileIsServedThroughItsHandle() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        PathOptions options = PathOptions.builder().hardRemove(true).build();
        try (TestMount m = TestMount.mount(fs, MountOptions.defaults(), options, KernelSettings.builder().attrTimeout(0).build())) {
            Files.createDirectory(m.path("d"));
            Files.writeString(m.path("d/f"), "before");
            int fd = Os.open(m.path("d/f"), Posix.O_RDWR);
            Files.delete(m.path("d/f"));
            Files.delete(m.path("d")); // no .fuse_hidden file keeps it non-empty
            assertEquals(5, Os.pwrite(fd, "after".getBytes(), 0));
            assertArrayEquals("aftere".getBytes(), Os.pread(fd, 100, 0), "reads and writes reach the file by handle");
            Os.close(fd);
            assertEquals(java.util.Set.of("/"), fs.paths());
        }
    }

    /**
     * nullpath_ok sits at a different offset in almost every libfuse release's struct fuse_config;
     * written at the wrong one it silently does nothing (or worse, see LayoutTest). Its effect is
     * visible: libfuse stops resolving paths for requests that carry a handle. Without it, only an
     * unlinked file's requests come without one (hard_remove).
     */
    @Test
    void nullPathOkTakesEffectOnEveryRelease() throws Exception {
        PathOptions hardRemove = PathOptions.builder().hardRemove(true).build();
        assertEquals(List.of("/f", "null"), writePathsAroundUnlink(hardRemove));
        assertEquals(List.of("null", "null"), writePathsAroundUnlink(hardRemove.toBuilder().nullPathOk(true).build()));
    }

    /** The paths two writes through one descriptor arrive with, before and after the file is unlinked. */
    private static List<String> writePathsAroundUnlink(PathOptions options) throws Exception {
        List<String> writePaths = new CopyOnWriteArrayList<>();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int write(String path, ByteBuffer buf, long offset, FileInfo fi) {
                writePaths.add(String.valueOf(path));
                return super.write(path, buf, offset, fi);
            }
        };
        try (TestMount m = TestMount.mount(fs, MountOptions.defaults(), options, KernelSettings.builder().attrTimeout(0).build())) {
            Files.writeString(m.path("f"), "");
            int fd = Os.open(m.path("f"), Posix.O_RDWR);
            assertEquals(1, Os.pwrite(fd, "a".getBytes(), 0));
            Files.delete(m.path("f"));
            assertEquals(1, Os.pwrite(fd, "b".getBytes(), 1));
            assertArrayEquals("ab".getBytes(), Os.pread(fd, 10, 0));
            Os.close(fd);
        }
        return writePaths;
    }

    /** Workers are native threads the JVM attached; in logs and thread dumps they say what they are. */
    @Test
    void libfuseWorkersHaveNamesThatSayWhatTheyAre() throws Exception {
        AtomicReference<String> name = new AtomicReference<>();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int statfs(String path, StatVfs st) {
                name.set(Thread.currentThread().getName());
                return super.statfs(path, st);
            }
        };
        try (TestMount m = TestMount.mount(fs)) {
            Os.statvfs(m.root());
        }
        assertTrue(name.get().matches("fuse-panama-worker-\\d+"), name.get());
    }

    @Test
    void theCallersIdentityIsAvailableDuringACall() throws Exception {
        AtomicLong pid = new AtomicLong();
        AtomicInteger uid = new AtomicInteger(-1);
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int statfs(String path, StatVfs st) {
                FuseContext c = FuseContext.current();
                pid.set(c.pid());
                uid.set(c.uid());
                return super.statfs(path, st);
            }
        };
        try (TestMount m = TestMount.mount(fs)) {
            Os.statvfs(m.root());
            // The kernel reports the calling thread's id: one of this JVM's threads made the call.
            assertTrue(Files.exists(java.nio.file.Path.of("/proc/self/task/" + pid.get())), "caller " + pid.get());
            assertEquals(0, uid.get());
        }
        assertThrows(IllegalStateException.class, FuseContext::current, "outside a call there is no caller");
    }

    /** A capability bit no kernel defines (FUSE's capabilities end far below it). */
    private static final long NO_KERNEL_OFFERS = 1L << 40;

    @Test
    void initSeesTheSettingsOfTheMountOptions() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        AtomicInteger largestWrite = new AtomicInteger();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public void init(ConnectionInfo c, FuseConfig config) {
                seen.set(c.protocolMajor() + " " + c.isCapable(ConnectionInfo.CAP_ASYNC_READ) + " " + c.wants(ConnectionInfo.CAP_ASYNC_READ)
                        + " " + c.wants(ConnectionInfo.CAP_AUTO_INVAL_DATA) + " " + c.wants(NO_KERNEL_OFFERS) + " " + c.maxWrite()
                        + " " + c.maxReadahead() + " " + config.attrTimeout() + " " + config.hardRemove());
            }

            @Override
            public synchronized int write(String path, ByteBuffer buf, long offset, FileInfo fi) {
                largestWrite.accumulateAndGet(buf.remaining(), Math::max);
                return super.write(path, buf, offset, fi);
            }
        };
        MountOptions options = MountOptions.builder().maxWrite(128 * 1024).maxReadahead(64 * 1024).build();
        KernelSettings settings = KernelSettings.builder().unwant(ConnectionInfo.CAP_ASYNC_READ).want(NO_KERNEL_OFFERS).attrTimeout(2.5).build();
        try (TestMount m = TestMount.mount(fs, options, PathOptions.builder().hardRemove(true).build(), settings)) {
            assertEquals("7 true false false false 131072 65536 2.5 true", seen.get(),
                    "protocol 7; async reads offered but refused, auto_inval_data off by default, a capability the kernel"
                    + " does not offer left off without failing the mount; the limits and timeouts applied before init");
            int fd = Os.open(m.path("f"), Posix.O_CREAT | Posix.O_WRONLY);
            assertEquals(1024 * 1024, Os.pwrite(fd, new byte[1024 * 1024], 0), "one 1 MiB write(2)");
            Os.close(fd);
            assertEquals(128 * 1024, largestWrite.get(), "max_write bounds write requests");
        }
    }

    /**
     * A read that waits on something slow learns that its caller gave up: a client process
     * blocked in read(2) is killed, the kernel sends an INTERRUPT, and FuseContext.interrupted()
     * turns true in the waiting method, on every libfuse release (3.17+ needs the setting; before,
     * setting intr after fuse_new would have had libfuse signal a worker the JVM does not handle).
     */
    @Test
    void aReadWhoseCallerIsKilledSeesTheInterrupt() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        AtomicReference<String> outcome = new AtomicReference<>("not read");
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
                if (!path.equals("/slow")) return super.read(path, buf, offset, fi);
                reading.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline) {
                    if (FuseContext.current().interrupted()) {
                        outcome.set("interrupted");
                        return -Errno.EINTR;
                    }
                    Thread.onSpinWait();
                }
                outcome.set("never interrupted");
                return 0;
            }
        };
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().interrupts(true).build(), KernelSettings.builder().directIo(true).build())) {
            Files.writeString(m.path("slow"), "data");
            Process cat = new ProcessBuilder("cat", m.path("slow").toString()).start();
            assertTrue(reading.await(10, TimeUnit.SECONDS), "the read reached the filesystem");
            cat.destroyForcibly();
            assertTrue(cat.waitFor(20, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (outcome.get().equals("not read") && System.nanoTime() < deadline) Thread.sleep(5);
            assertEquals("interrupted", outcome.get());
        }
    }

    @Test
    void aRawOptionReachesLibfuse() throws Exception {
        try (TestMount m = TestMount.mount(new ScratchFileSystem(), MountOptions.builder().option("umask=077").build())) {
            Files.writeString(m.path("f"), "x");
            assertEquals(0700, Os.lstat(Os.bytes(m.path("f"))).mode() & 07777,
                    "libfuse's umask= sets every file's permissions to 0777 & ~umask");
        }
    }

    @Test
    void readOnlyMountsRefuseWrites() throws Exception {
        try (TestMount m = TestMount.mount(new ScratchFileSystem(), MountOptions.builder().readOnly(true).build())) {
            FileSystemException e = assertThrows(FileSystemException.class, () -> Files.writeString(m.path("f"), "x"));
            assertTrue(e.getMessage().contains("Read-only"), e.getMessage());
        }
    }

    @Test
    void aSingleThreadedLoopServesRequests() throws Exception {
        try (TestMount m = TestMount.mount(new ScratchFileSystem(), MountOptions.builder().singleThreaded(true).build())) {
            Files.writeString(m.path("f"), "one thread");
            assertEquals("one thread", Files.readString(m.path("f")));
        }
    }

    @Test
    void optionsAreCheckedWhenBuilt() {
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().maxWrite(2 * 1024 * 1024));
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().fsName("a,b"));
        assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().attrTimeout(-1));
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().maxThreads(0));
        assertEquals(10, MountOptions.defaults().maxIdleThreads(), "idle workers are kept: no re-attach churn");
    }
}
