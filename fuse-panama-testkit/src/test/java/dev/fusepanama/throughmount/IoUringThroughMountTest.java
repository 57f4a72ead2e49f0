package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.MountOptions;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.UringSwitch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * FUSE-over-io_uring ({@link MountOptions.Builder#ioUring}) through real mounts, on both APIs:
 * where libfuse is 3.18+, the module parameter is on and the kernel accepts the rings, requests
 * arrive on libfuse's ring threads and the mount says "transport io_uring"; with the parameter
 * off, an older libfuse, or a kernel that refuses the rings' registration (EOPNOTSUPP, {@link
 * UringSwitch#kernelRefusal(String)}), the same mount comes up over /dev/fuse and says why. As root the
 * test turns the parameter on and off itself and puts it back as it found it.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IoUringThroughMountTest {
    private static final MountOptions URING = MountOptions.builder().ioUring(true).build();

    /** Files written and read by several threads at once, and listed. */
    private static void exercise(Path root) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int n = t;
                done.add(pool.submit(() -> {
                    byte[] data = new byte[300_000 + n];
                    new Random(n).nextBytes(data);
                    Path f = root.resolve("f" + n);
                    for (int round = 0; round < 5; round++) {
                        Files.write(f, data);
                        assertArrayEquals(data, Files.readAllBytes(f));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        try (var names = Files.list(root)) {
            assertEquals(4, names.count());
        }
    }

    @Test
    void requestsTakeTheRingsWhereTheKernelAndLibfuseHaveThem() throws Exception {
        try (UringSwitch on = UringSwitch.set(true)) {
            String refusal;
            try (TestMount m = TestMount.mount(new ScratchFileSystem(), URING)) {
                String how = m.handle().describe();
                boolean rings = UringSwitch.ringsOf(how);
                exercise(m.root());
                if (rings) {
                    assertTrue(UringSwitch.ringThreads() > 0, "libfuse's fuse-ring threads serve the mount");
                } else {
                    assertTrue(how.contains("transport /dev/fuse (no io_uring: "), "says why not: " + how);
                }
                refusal = UringSwitch.kernelRefusal(how);
            }
            // The fallback was checked; what the rings would have shown, this kernel cannot.
            Assumptions.assumeTrue(refusal == null, refusal);
        }
    }

    @Test
    void theInodeApiTakesTheRingsToo() throws Exception {
        try (UringSwitch on = UringSwitch.set(true)) {
            FlatInodeFileSystem fs = new FlatInodeFileSystem();
            fs.put("hello", "over the rings");
            try (TestMount m = TestMount.mount(fs, URING)) {
                String how = m.handle().describe();
                boolean rings = UringSwitch.ringsOf(how);
                String refusal = UringSwitch.kernelRefusal(how);
                Assumptions.assumeTrue(rings || refusal == null, refusal);
                for (int i = 0; i < 50; i++) {
                    assertEquals("over the rings", Files.readString(m.path("hello")));
                }
            }
        }
    }

    @Test
    void withTheModuleParameterOffTheMountUsesDevFuseAndSaysWhy() throws Exception {
        try (UringSwitch off = UringSwitch.set(false)) {
            Assumptions.assumeFalse(UringSwitch.isOn(),
                    "the module parameter is on and only root can turn it off");
            try (TestMount m = TestMount.mount(new ScratchFileSystem(), URING)) {
                String how = m.handle().describe();
                String why = TestMount.libfuseAtLeast(3, 18) ? "enable_uring is off" : "has none (3.18+)";
                assertTrue(how.contains("transport /dev/fuse (no io_uring: ") && how.contains(why), how);
                exercise(m.root());
                assertEquals(0, UringSwitch.ringThreads(), "no ring threads without io_uring");
            }
        }
    }

    /**
     * Where the kernel refuses the rings (EOPNOTSUPP, as CI's kernel did) a mount over /dev/fuse
     * is what the tests accept, skipping what only the rings can show; a mount without rings for
     * any other reason fails them.
     */
    @Test
    void onlyTheKernelsRefusalExcusesAMountWithoutRings() {
        assertNotNull(UringSwitch.kernelRefusal("fuse-panama at /m: transport /dev/fuse (no io_uring: libfuse could not start "
                + "its queues (failed to start io-uring: Unknown error -95)), high-level API"));
        assertNotNull(UringSwitch.kernelRefusal("transport /dev/fuse (no io_uring: the kernel did not offer it in init)"));
        assertNull(UringSwitch.kernelRefusal("transport /dev/fuse (no io_uring: libfuse could not start its queues "
                + "(failed to start io-uring: Operation not permitted))"));
        assertNull(UringSwitch.kernelRefusal("transport /dev/fuse (no io_uring: the fuse module's enable_uring is off)"));
        assertNull(UringSwitch.kernelRefusal("transport io_uring"));
    }

    @Test
    void aMountWithoutRingsIsAcceptedOnlyForTheKernelsRefusal() throws Exception {
        try (UringSwitch on = UringSwitch.set(true)) {
            Assumptions.assumeTrue(TestMount.libfuseAtLeast(3, 18) && UringSwitch.isOn(), "needs libfuse 3.18+ and enable_uring");
            assertFalse(UringSwitch.ringsOf("transport /dev/fuse (no io_uring: libfuse could not start its queues "
                    + "(failed to start io-uring: Unknown error -95))"));
            assertThrows(AssertionError.class, () -> UringSwitch.ringsOf("transport /dev/fuse (no io_uring: libfuse could "
                    + "not start its queues (failed to start io-uring: Operation not permitted))"));
            assertTrue(UringSwitch.ringsOf("transport io_uring"));
        }
        try (UringSwitch off = UringSwitch.set(false)) {
            Assumptions.assumeFalse(UringSwitch.isOn(), "only root can turn the module parameter off");
            assertThrows(AssertionError.class, () -> UringSwitch.ringsOf("transport io_uring"));
            assertFalse(UringSwitch.ringsOf("transport /dev/fuse (no io_uring: the fuse module's enable_uring is off)"));
        }
    }

    private static final Path IO_URING_DISABLED = Path.of("/proc/sys/kernel/io_uring_disabled");

    /**
     * The kernel offers FUSE-over-io_uring but this process may not make an io_uring at all
     * (here: the {@code kernel.io_uring_disabled} sysctl; in a container, usually its seccomp
     * filter): the mount finds out before libfuse starts any queue thread, serves /dev/fuse and
     * says why.
     */
    @Test
    void whenThisProcessMayNotMakeAnIoUringTheMountSaysWhyAndUsesDevFuse() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(IO_URING_DISABLED), "needs root and a kernel with " + IO_URING_DISABLED);
        String before = Files.readString(IO_URING_DISABLED).trim();
        try (UringSwitch on = UringSwitch.set(true)) {
            // Whether the kernel would take the rings does not matter: they fail to start either way.
            Assumptions.assumeTrue(TestMount.libfuseAtLeast(3, 18) && UringSwitch.isOn(), "needs libfuse 3.18+ and enable_uring");
            TestMount m;
            Files.writeString(IO_URING_DISABLED, "2");
            try {
                m = TestMount.mount(new ScratchFileSystem(), URING);
            } finally {
                Files.writeString(IO_URING_DISABLED, before);
            }
            try (m) {
                String how = m.handle().describe();
                assertTrue(how.contains("transport /dev/fuse (no io_uring: this process cannot create an io_uring (io_uring_setup: EPERM"), how);
                exercise(m.root());
                assertEquals(0, UringSwitch.ringThreads(), "no ring threads serve the mount");
            }
        }
    }

    /**
     * io_uring is forbidden only after the mount checked (in the filesystem's init, which libfuse
     * calls just before it starts its queues), so libfuse's own queue threads fail: libfuse then
     * cancels them, one of them while it is logging its failure through the library, and serves
     * /dev/fuse with no more than a log line. The mount must not claim io_uring, and the JVM must
     * live: a thread cancelled while in Java used to crash it (about one mount in five). Several
     * mounts in a row, to meet that race.
     */
    @Test
    void whenLibfuseCannotStartItsQueuesTheMountSaysItUsesDevFuseAndTheJvmLives() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(IO_URING_DISABLED), "needs root and a kernel with " + IO_URING_DISABLED);
        String before = Files.readString(IO_URING_DISABLED).trim();
        try (UringSwitch on = UringSwitch.set(true)) {
            // Whether the kernel would take the rings does not matter: they fail to start either way.
            Assumptions.assumeTrue(TestMount.libfuseAtLeast(3, 18) && UringSwitch.isOn(), "needs libfuse 3.18+ and enable_uring");
            for (int round = 0; round < 20; round++) {
                ScratchFileSystem fs = new ScratchFileSystem() {
                    @Override
                    public void init(ConnectionInfo connection, FuseConfig config) throws java.io.IOException {
                        Files.writeString(IO_URING_DISABLED, "2");
                    }
                };
                TestMount m;
                try {
                    m = TestMount.mount(fs, URING);
                } finally {
                    // Only the queues' start needs it: put it back before anything can hang.
                    Files.writeString(IO_URING_DISABLED, before);
                }
                try (m) {
                    String how = m.handle().describe();
                    assertTrue(how.contains("transport /dev/fuse (no io_uring: libfuse could not start its queues"), how);
                    Files.writeString(m.path("f"), "over /dev/fuse");
                    assertEquals("over /dev/fuse", Files.readString(m.path("f")));
                    assertEquals(0, UringSwitch.ringThreads(), "no ring threads serve the mount");
                }
            }
        }
    }

    @Test
    void aMountThatDoesNotAskUsesDevFuse() throws Exception {
        try (UringSwitch on = UringSwitch.set(true);
                TestMount m = TestMount.mount(new ScratchFileSystem())) {
            assertTrue(m.handle().describe().contains("transport /dev/fuse,"), m.handle().describe());
        }
    }
}
