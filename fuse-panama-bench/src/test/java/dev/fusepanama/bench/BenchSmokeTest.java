package dev.fusepanama.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Fuse;
import dev.fusepanama.FuseMount;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Proves every benchmark still runs: the comparison in smoke mode (all five filesystems, every
 * workload, one tiny round), each JMH benchmark of the binding for one short iteration, and the JMH
 * client against a mounted tree. Asserts no timing.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BenchSmokeTest {
    static Path repo() {
        return Path.of(System.getProperty("fusepanama.repo", "..")).toAbsolutePath().normalize();
    }

    @Test
    void theComparisonRunsOnEveryFilesystem() throws Exception {
        Process build = new ProcessBuilder(repo().resolve("native/build-bench.sh").toString()).redirectErrorStream(true).start();
        String built = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, build.waitFor(), built);

        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Compare.main(new String[] {"--smoke"});
        } finally {
            System.setOut(original);
        }
        String table = captured.toString(StandardCharsets.UTF_8);
        original.println(table);
        for (Compare.Metric m : Compare.metrics()) {
            String row = table.lines().filter(l -> l.startsWith("| " + m.name() + " |")).findFirst().orElseThrow();
            assertFalse(row.contains("NaN"), row);
        }
        assertTrue(table.contains("Peak RSS"), table);
        assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains("benchfs"), "every bench filesystem unmounted");
    }

    @Test
    void everyJmhBenchmarkRuns() throws Exception {
        var results = new Runner(new OptionsBuilder().include(UpcallBench.class.getSimpleName()).forks(0)
                .warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .build()).run();
        assertEquals(3, results.size());
        for (RunResult r : results) assertTrue(r.getPrimaryResult().getScore() > 0, r.getParams().getBenchmark());
    }

    @Test
    void theJmhClientRunsAgainstAMountedTree() throws Exception {
        Path mnt = Files.createTempDirectory("bench-jmh-");
        try (FuseMount mount = Fuse.mount(new PanamaBenchFs(true), mnt, PanamaBenchFs.options(false))) {
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
