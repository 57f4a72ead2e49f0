package dev.fusepanama.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Fuse;
import dev.fusepanama.FuseMount;
import dev.fusepanama.testkit.MountTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Proves every benchmark still runs: every suite of the comparison but cryptomator in smoke mode
 * (every filesystem, every workload, one tiny round; the mirror, memfs, passthrough, uring and
 * vault suites only as root), each JMH benchmark of the binding for one short iteration, and the
 * JMH client against a mounted tree. Asserts no timing.
 */
@MountTest
@Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BenchSmokeTest {
    static Path repo() {
        return Path.of(System.getProperty("fusepanama.repo", "..")).toAbsolutePath().normalize();
    }

    @Test
    void theTreeSuiteRunsOnEveryFilesystem() throws Exception {
        buildNative();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "tree", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, TreeWorkloads.METRICS);
        assertTrue(section.contains("Heap allocated by the fuse-panama defaults filesystem per upcall"), "the allocation table");
        assertNothingLeftMounted();
    }

    @Test
    void theInodeSuiteRunsBothFilesystems() throws Exception {
        buildNative();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "inode", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, TreeWorkloads.METRICS);
        assertTrue(section.contains("Heap allocated by the fuse-panama inode filesystem per upcall"), "the allocation table");
        assertNothingLeftMounted();
    }

    @Test
    void theMirrorSuiteRunsEveryFilesystem() throws Exception {
        assumeTrue(root(), "the mirror suite mounts a tmpfs: root only");
        buildNative();
        buildLibfuse318();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "mirror", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, MirrorSuite.METRICS);
        assertNothingLeftMounted();
    }

    @Test
    void theEverydaySuiteRunsEveryFilesystemAndTheFreshnessTable() throws Exception {
        assumeTrue(root(), "the everyday suite mounts a tmpfs: root only");
        buildNative();
        buildLibfuse318();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "everyday", "--smoke"})).section();
        System.out.println(section);
        assertTrue(section.contains("| write inside a cached file |"), section);
        assertNothingLeftMounted();
    }

    @Test
    void theMemfsSuiteRunsOnTmpfsAndBothMemfs() throws Exception {
        assumeTrue(root(), "the memfs suite mounts a tmpfs: root only");
        buildNative();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "memfs", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, MemfsSuite.metrics(Path.of("unused"), 1));
        assertTrue(section.contains("FUSE requests per entry of one unpack"), "the requests table");
        assertTrue(section.contains("| openat | "), "tar's system calls");
        assertNothingLeftMounted();
    }

    @Test
    void thePassthroughSuiteRunsTheMirrorPassthroughHpAndTmpfs() throws Exception {
        assumeTrue(root(), "the passthrough suite mounts a tmpfs and passes files through: root only");
        buildNative();
        buildLibfuse318();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "passthrough", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, PassthroughSuite.METRICS);
        assertNothingLeftMounted();
    }

    @Test
    void theUringSuiteRunsBothTransportsInJavaAndC() throws Exception {
        assumeTrue(root(), "the uring suite turns the fuse module's enable_uring on: root only");
        buildNative();
        buildLibfuse318();
        String before = Files.readString(Path.of("/sys/module/fuse/parameters/enable_uring")).trim();
        String section = Compare.run(Compare.parse(new String[] {"--suite", "uring", "--smoke"})).section();
        System.out.println(section);
        assertEveryRowMeasured(section, UringSuite.METRICS);
        assertEquals(before, Files.readString(Path.of("/sys/module/fuse/parameters/enable_uring")).trim(), "the parameter is put back");
        assertNothingLeftMounted();
    }

    @Test
    void theVaultSuiteRunsTheVaultAndGocryptfs() throws Exception {
        assumeTrue(root(), "the vault suite drops the page cache: root only");
        String section = Compare.run(Compare.parse(new String[] {"--suite", "vault", "--smoke"})).section();
        System.out.println(section);
        for (String row : List.of(VaultSuite.START_UP, VaultSuite.FRESH_READ)) {
            assertEquals(2, section.lines().filter(l -> l.startsWith("| " + row + " |")).count(), "a row in each table for " + row);
        }
        assertTrue(section.contains("| peak RSS (MiB) |"), "the new processes' table");
        assertNothingLeftMounted();
    }

    private static boolean root() throws Exception {
        return new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().equals("0");
    }

    /** passthrough_hp and benchfs318 against the version matrix's libfuse 3.18. */
    private static void buildLibfuse318() throws Exception {
        Process build = new ProcessBuilder(repo().resolve("native/build-libfuse318.sh").toString()).redirectErrorStream(true).start();
        String built = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, build.waitFor(), built);
    }

    private static void buildNative() throws Exception {
        Process build = new ProcessBuilder(repo().resolve("native/build-bench.sh").toString()).redirectErrorStream(true).start();
        String built = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, build.waitFor(), built);
    }

    /** Both tables have a row per metric, none with a missing value, and the table of the processes follows. */
    private static void assertEveryRowMeasured(String section, List<Suite.Metric> metrics) {
        int processes = section.indexOf("\n| filesystem process |");
        assertTrue(processes > 0, section);
        String tables = section.substring(0, processes);
        for (Suite.Metric m : metrics) {
            List<String> rows = tables.lines().filter(l -> l.startsWith("| " + m.name() + " |")).toList();
            assertEquals(2, rows.size(), "a row in each table for " + m.name());
            for (String row : rows) {
                assertFalse(row.contains("NaN") || row.contains("Infinity") || row.contains("| - |"), row);
            }
        }
        for (String row : List.of("| peak RSS", "| libfuse workers at the end", "| JIT compiler threads' share")) {
            assertTrue(section.contains(row), row);
        }
    }

    private static void assertNothingLeftMounted() throws Exception {
        String ours = " " + Path.of(System.getProperty("java.io.tmpdir")).toRealPath().resolve("bench-");
        assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(ours), "every mount of the run is gone");
    }

    @Test
    void everyJmhBenchmarkRuns() throws Exception {
        var results = new Runner(new OptionsBuilder().include(UpcallBench.class.getSimpleName())
                .include(LibcBench.class.getSimpleName()).forks(0)
                .warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .build()).run();
        assertEquals(5, results.size());
        for (RunResult r : results) assertTrue(r.getPrimaryResult().getScore() > 0, r.getParams().getBenchmark());
    }

    @Test
    void theJmhClientRunsAgainstAMountedTree() throws Exception {
        Path mnt = Files.createTempDirectory("bench-jmh-");
        try (FuseMount mount = Fuse.mount(new PanamaBenchFs(true, PanamaBenchFs.settings(false)), mnt, PanamaBenchFs.options(false))) {
            var results = new Runner(new OptionsBuilder().include(MountedTreeBench.class.getSimpleName()).forks(0)
                    .param("mount", mnt.toString()).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(200)).build()).run();
            assertEquals(6, results.size());
            for (RunResult r : results) assertTrue(r.getPrimaryResult().getScore() > 0, r.getParams().getBenchmark());
            try (var left = Files.list(mnt.resolve("w"))) {
                assertEquals(0, left.count(), "createWriteUnlink leaves nothing behind");
            }
        } finally {
            Files.deleteIfExists(mnt);
        }
    }
}
