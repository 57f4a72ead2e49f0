package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.FuseMount;
import dev.fusepanama.Mount;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PathOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.StatVfs;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.Emulation;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Mounting and unmounting inside a long-running JVM: what embedders rely on. */
@MountTest
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LifecycleTest {
    @TempDir
    Path tmp;

    final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable c : cleanup.reversed()) c.close();
    }

    static boolean inProcMounts(Path p) throws IOException {
        return Files.readString(Path.of("/proc/self/mounts")).contains(" " + p + " ");
    }

    @Test
    void mountReturnsLiveAndCloseUnmountsCallsDestroyAndIsIdempotent() throws Exception {
        AtomicBoolean destroyed = new AtomicBoolean();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public void destroy() {
                destroyed.set(true);
            }
        };
        Path dir = Files.createDirectory(tmp.resolve("m"));
        FuseMount m = Fuse.mount(fs, dir, MountOptions.builder().fsName("lifecycle-test").subtype("scratch").build());
        assertTrue(m.isMounted());
        assertTrue(inProcMounts(dir));
        assertTrue(Files.readString(Path.of("/proc/self/mounts")).contains("lifecycle-test " + dir + " fuse.scratch "));
        Files.writeString(dir.resolve("f"), "x"); // no probe file needed: it is serving already
        m.close();
        assertFalse(m.isMounted());
        assertFalse(inProcMounts(dir));
        assertTrue(destroyed.get());
        m.close();
        assertTrue(m.awaitUnmount(Duration.ofSeconds(1)));
    }

    @Test
    void closeWhileAFileIsOpenReportsBusyAndLeavesTheMountWorking() throws Exception {
        TestMount t = TestMount.mount(new ScratchFileSystem());
        cleanup.add(t);
        Files.writeString(t.path("f"), "content");
        int fd = Os.open(t.path("f"), Posix.O_RDONLY);
        try {
            MountException e = assertThrows(MountException.class, () -> t.handle().close());
            assertEquals(MountException.Reason.BUSY, e.reason());
            assertTrue(e.getMessage().contains("busy"), e.getMessage());
            assertTrue(t.handle().isMounted());
            assertEquals("content", new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8));
        } finally {
            Os.close(fd);
        }
        t.handle().close();
        assertFalse(t.handle().isMounted());
    }

    @Test
    void lazyUnmountDetachesAtOnceAndEndsWhenTheLastFileCloses() throws Exception {
        TestMount t = TestMount.mount(new ScratchFileSystem());
        cleanup.add(t);
        Files.writeString(t.path("f"), "still here");
        int fd = Os.open(t.path("f"), Posix.O_RDONLY);
        t.handle().unmountLazily();
        assertFalse(inProcMounts(t.root()), "detached from the namespace");
        assertEquals("still here", new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8), "open files keep working");
        assertTrue(t.handle().isMounted(), "the session serves the open file");
        Os.close(fd);
        assertTrue(t.handle().awaitUnmount(Duration.ofSeconds(20)));
        assertFalse(t.handle().isMounted());
    }

    /** A process inside a system call on the mount pins it: the kernel refuses the unmount. */
    @Test
    void closeWhileACallerIsInsideASystemCallReportsBusyAndTheCallCompletes() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int statfs(String path, StatVfs st) {
                entered.countDown();
                await(release);
                return super.statfs(path, st);
            }
        };
        TestMount t = TestMount.mount(fs);
        cleanup.add(t);
        CompletableFuture<Long> client = CompletableFuture.supplyAsync(() -> Os.statvfs(t.root()).blocks());
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        MountException busy = assertThrows(MountException.class, () -> t.handle().close());
        assertEquals(MountException.Reason.BUSY, busy.reason());
        assertTrue(t.handle().isMounted());
        release.countDown();
        assertEquals(1000L, client.get(20, TimeUnit.SECONDS));
        t.handle().close();
        assertFalse(t.handle().isMounted());
    }

    /**
     * A request nobody waits for (the RELEASE after the last close(2)) does not pin the mount:
     * the unmount succeeds at once, and close returns only after that request has returned.
     */
    @Test
    void closeWaitsForARequestStillRunningAfterTheUnmount() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean released = new AtomicBoolean();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int release(String path, FileInfo fi) {
                entered.countDown();
                await(release);
                int rc = super.release(path, fi);
                released.set(true);
                return rc;
            }
        };
        TestMount t = TestMount.mount(fs);
        cleanup.add(t);
        Files.writeString(t.path("f"), "x"); // its RELEASE arrives after close(2) has returned
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        CompletableFuture<Boolean> closer = CompletableFuture.supplyAsync(() -> {
            try {
                t.handle().close();
                return released.get(); // what close saw of the request when it returned
            } catch (MountException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inProcMounts(t.root()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertFalse(inProcMounts(t.root()), "the kernel let go of the mount at once");
        assertFalse(closer.isDone(), "close waits while the request runs");
        release.countDown();
        assertTrue(closer.get(20, TimeUnit.SECONDS), "close returned after the request had");
        assertFalse(t.handle().isMounted());
    }

    /** A close with its own timeout gives up on a request that does not return, and says so. */
    @Test
    void closeWithATimeoutReportsARequestThatOutlivesIt() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int release(String path, FileInfo fi) {
                entered.countDown();
                await(release);
                return super.release(path, fi);
            }
        };
        TestMount t = TestMount.mount(fs);
        cleanup.add(t);
        cleanup.add(release::countDown);
        Files.writeString(t.path("f"), "x"); // its RELEASE arrives after close(2) has returned, and hangs
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        long start = System.nanoTime();
        MountException e = assertThrows(MountException.class, () -> t.handle().close(Duration.ofMillis(300)));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(MountException.Reason.BUSY, e.reason());
        assertTrue(waited >= 300 && waited < 5_000, "waited " + waited + " ms");
        assertTrue(e.getMessage().contains("PT0.3S"), e.getMessage());
        assertFalse(inProcMounts(t.root()), "unmounted all the same");
        release.countDown();
        assertTrue(t.handle().awaitUnmount(Duration.ofSeconds(20)));
    }

    /** forceClose ends a mount a process still uses: that process's calls fail, nothing waits for it. */
    @Test
    void forceCloseEndsAMountInUseAtOnceAndItsUsersGetErrors() throws Exception {
        TestMount t = TestMount.mount(new ScratchFileSystem());
        cleanup.add(t);
        Files.writeString(t.path("f"), "secret");
        int fd = Os.open(t.path("f"), Posix.O_RDONLY);
        try {
            assertTrue(t.handle().forceClose(Duration.ofSeconds(10)), "the session ended");
            assertFalse(t.handle().isMounted());
            assertFalse(inProcMounts(t.root()));
            Os.OsException e = assertThrows(Os.OsException.class, () -> Os.pread(fd, 100, 0));
            assertEquals(Errno.ENOTCONN, e.errno);
        } finally {
            Os.close(fd);
        }
        t.handle().close(); // a no-op now
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void closingFromInsideAFilesystemCallIsRefusedNotADeadlock() throws Exception {
        AtomicReference<Mount> self = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public synchronized int statfs(String path, StatVfs st) {
                try {
                    self.get().close();
                } catch (Throwable e) {
                    thrown.set(e);
                }
                return super.statfs(path, st);
            }
        };
        TestMount t = TestMount.mount(fs);
        cleanup.add(t);
        self.set(t.handle());
        Os.statvfs(t.root());
        assertInstanceOf(IllegalStateException.class, thrown.get());
        assertTrue(t.handle().isMounted());
    }

    @Test
    void twoMountsAtOnceAreIndependent() throws Exception {
        TestMount a = TestMount.mount(new ScratchFileSystem());
        cleanup.add(a);
        TestMount b = TestMount.mount(new ScratchFileSystem());
        cleanup.add(b);
        Files.writeString(a.path("only-in-a"), "A");
        Files.writeString(b.path("only-in-b"), "B");
        assertFalse(Files.exists(b.path("only-in-a")));
        a.handle().close();
        assertEquals("B", Files.readString(b.path("only-in-b")), "b still serves after a closed");
        assertFalse(inProcMounts(a.root()));
    }

    /** Every other mount sets the struct fuse_config fields memfs and the mirror set, whose offsets vary by release. */
    @Test
    void mountingManyTimesInOneJvmLeaksNothingVisible() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("again"));
        PathOptions configured = PathOptions.builder().hardRemove(true).nullPathOk(true).useIno(true).build();
        for (int i = 0; i < 20; i++) {
            try (FuseMount m = Fuse.mount(new ScratchFileSystem(), dir, MountOptions.defaults(), i % 2 == 0 ? PathOptions.defaults() : configured)) {
                Files.writeString(dir.resolve("f" + i), "x");
            }
        }
        assertFalse(inProcMounts(dir));
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count(), "files lived in the filesystem, not the directory");
        }
    }

    @Test
    void anUnmountFromOutsideEndsTheSessionAndCloseIsThenANoOp() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("external"));
        FuseMount m = Fuse.mount(new ScratchFileSystem(), dir);
        Process p = new ProcessBuilder("umount", dir.toString()).inheritIO().start();
        assertEquals(0, p.waitFor());
        assertTrue(m.awaitUnmount(Duration.ofSeconds(20)));
        assertFalse(m.isMounted());
        m.close();
    }

    @Test
    void mountFailuresSayWhatIsWrong() throws Exception {
        Path missing = tmp.resolve("missing");
        MountException e = assertThrows(MountException.class, () -> Fuse.mount(new ScratchFileSystem(), missing));
        assertEquals(MountException.Reason.MOUNTPOINT_MISSING, e.reason());
        assertTrue(e.getMessage().contains("mkdir -p " + missing), e.getMessage());

        Path file = Files.writeString(tmp.resolve("file"), "");
        e = assertThrows(MountException.class, () -> Fuse.mount(new ScratchFileSystem(), file));
        assertEquals(MountException.Reason.NOT_A_DIRECTORY, e.reason());

        TestMount busy = TestMount.mount(new ScratchFileSystem());
        cleanup.add(busy);
        e = assertThrows(MountException.class, () -> Fuse.mount(new ScratchFileSystem(), busy.root()));
        assertEquals(MountException.Reason.ALREADY_MOUNTED, e.reason());
        assertTrue(e.getMessage().contains("already a mount point"), e.getMessage());

        Path dir = Files.createDirectory(tmp.resolve("badopt"));
        e = assertThrows(MountException.class,
                () -> Fuse.mount(new ScratchFileSystem(), dir, MountOptions.builder().option("no_such_option_xyz").build()));
        assertEquals(MountException.Reason.INVALID_OPTIONS, e.reason());
        assertTrue(e.getMessage().contains("no_such_option_xyz"), e.getMessage());
        assertFalse(inProcMounts(dir));
    }

    @Test
    void aStaleMountIsRecognisedAndExplained() throws Exception {
        TestMount t = TestMount.mount(new ScratchFileSystem());
        cleanup.add(t);
        TestMount.ensureFusectl();
        String device = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .map(l -> l.split(" ")).filter(f -> f[4].equals(t.root().toString())).findFirst().orElseThrow()[2];
        Files.writeString(Path.of("/sys/fs/fuse/connections", device.split(":")[1], "abort"), "1");
        assertTrue(t.handle().awaitUnmount(Duration.ofSeconds(20)), "an aborted connection ends the session");
        assertTrue(inProcMounts(t.root()), "the kernel mount stays, stale, as after a crash");
        MountException e = assertThrows(MountException.class, () -> Fuse.mount(new ScratchFileSystem(), t.root()));
        assertEquals(MountException.Reason.STALE_MOUNT, e.reason());
        assertTrue(e.getMessage().contains("fusermount3 -u " + t.root()), e.getMessage());
        t.handle().close(); // unmounts the stale mount
        assertFalse(inProcMounts(t.root()));
    }

    @Test
    void aFailingInitFailsTheMountAndLeavesNothingMounted() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("init"));
        ScratchFileSystem fs = new ScratchFileSystem() {
            @Override
            public void init(ConnectionInfo connection, FuseConfig config) {
                throw new IllegalStateException("cannot open the vault");
            }
        };
        MountException e = assertThrows(MountException.class, () -> Fuse.mount(fs, dir));
        assertEquals(MountException.Reason.INIT_FAILED, e.reason());
        assertTrue(e.getMessage().contains("cannot open the vault"), e.getMessage());
        assertFalse(inProcMounts(dir));
    }

    @Test
    void aJvmThatExitsWithoutClosingUnmounts() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("exit"));
        Process p = new ProcessBuilder(ChildJvm.command(ExitWithoutClose.class, dir.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("mounted"), out);
        assertFalse(inProcMounts(dir), "the exit hook unmounted: " + out);
    }

    /**
     * A mount closed while its process has every descriptor in use unmounts, and the process
     * lives: libfuse cancels its worker threads at the end of a session, and glibc's
     * pthread_cancel first loads libgcc_s.so.1, which it cannot open without a free descriptor and
     * then aborts the process ("libgcc_s.so.1 must be installed for pthread_cancel to work"). In
     * a child JVM of its own (this one may have loaded libgcc_s already) with a limit of 1,024.
     */
    @ParameterizedTest(name = "{0} API")
    @ValueSource(strings = {"path", "inode"})
    void aMountClosedWithEveryDescriptorInUseUnmountsAndTheJvmLives(String api) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(Emulation.active(),
                "qemu-user's own descriptors share the limit this test uses up; what it checks is glibc's, the same on every architecture");
        Path dir = Files.createDirectory(tmp.resolve("limit-" + api));
        List<String> command = new ArrayList<>(List.of("prlimit", "--nofile=1024:1024", "--"));
        command.addAll(ChildJvm.command(CloseAtTheDescriptorLimit.class, api, dir.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertFalse(out.contains("libgcc_s"), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("descriptors exhausted: EMFILE"), out);
        assertTrue(out.contains("closed at the limit"), out);
        assertFalse(inProcMounts(dir), out);
    }

    /** Mounts, uses every descriptor the process may have, closes the mount at that limit, then frees them. */
    public static final class CloseAtTheDescriptorLimit {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[1]);
            AutoCloseable mount = args[0].equals("path") ? Fuse.mount(new ScratchFileSystem(), dir)
                    : Fuse.mount(new FlatInodeFileSystem(), dir);
            Files.list(dir).close(); // served: libfuse's workers are running
            loadEveryClassOfTheClassPathsDirectories();
            List<Integer> held = new ArrayList<>();
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment devNull = arena.allocateFrom("/dev/null");
                while (true) {
                    int fd = Libc.openat(Libc.AT_FDCWD, devNull,
                            Posix.O_RDONLY | Posix.O_CLOEXEC, 0);
                    if (fd < 0) {
                        System.out.println("descriptors exhausted: " + Errno.name(-fd) + " after " + held.size());
                        break;
                    }
                    held.add(fd);
                }
                mount.close();
                System.out.println("closed at the limit");
            } finally {
                for (int fd : held) Libc.close(fd);
            }
        }

        /**
         * Classes still to load at the limit could not be read from a directory of the class path
         * (a jar's stays open): this run's modules are such directories, an application's are jars.
         */
        private static void loadEveryClassOfTheClassPathsDirectories() throws IOException {
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                Path root = Path.of(entry);
                if (!Files.isDirectory(root)) continue;
                try (var classes = Files.walk(root)) {
                    for (Path c : (Iterable<Path>) classes.filter(f -> f.toString().endsWith(".class"))::iterator) {
                        String name = root.relativize(c).toString().replace('/', '.').replaceAll("\\.class$", "");
                        try {
                            Class.forName(name, false, CloseAtTheDescriptorLimit.class.getClassLoader());
                        } catch (LinkageError | ClassNotFoundException e) {
                            // a test class whose optional dependency is absent: not on the close path
                        }
                    }
                }
            }
            Errno.name(Errno.EMFILE);
        }
    }

    @Test
    void aJvmOfAnArchitectureWithoutKnownLayoutsRefusesToMountAndSaysWhy() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("arch"));
        Process p = new ProcessBuilder(ChildJvm.command(List.of("-Dos.arch=ppc64le"), System.getProperty("java.class.path"),
                MountOnAnyArchitecture.class, dir.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("constants readable: O_DIRECTORY " + 0200000), "the generic tables, not an error: " + out);
        assertTrue(out.contains("UNSUPPORTED_ARCHITECTURE: fuse-panama supports Linux on x86-64, aarch64, riscv64; "
                + "this JVM is ppc64le (os.arch)"), out);
        assertFalse(inProcMounts(dir));
    }

    /** Reads a constant, tries to mount, and prints the MountException's reason and message. */
    public static final class MountOnAnyArchitecture {
        public static void main(String[] args) {
            System.out.println("constants readable: O_DIRECTORY " + Posix.O_DIRECTORY);
            try (FuseMount m = Fuse.mount(new ScratchFileSystem(), Path.of(args[0]))) {
                System.out.println("mounted " + m);
                System.exit(1);
            } catch (MountException e) {
                System.out.println(e.reason() + ": " + e.getMessage());
            }
        }
    }

    /** Mounts, touches a file, and exits without closing. */
    public static final class ExitWithoutClose {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Fuse.mount(new ScratchFileSystem(), dir);
            Files.writeString(dir.resolve("f"), "x");
            System.out.println("mounted " + dir);
            System.exit(0);
        }
    }
}
