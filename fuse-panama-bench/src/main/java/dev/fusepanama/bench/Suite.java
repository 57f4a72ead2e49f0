package dev.fusepanama.bench;

import dev.fusepanama.Fuse;
import java.nio.file.Path;
import java.util.List;

/**
 * What one comparison measures: the filesystems, each mounted by a process of its own; the
 * workloads run on each of them; and the columns of its two tables. {@link Compare} runs every
 * suite the same way ({@link TreeSuite}, {@link MirrorSuite}, {@link MemfsSuite}, {@link InodeSuite}, {@link VaultSuite}, ...).
 */
interface Suite {
    /** The heading of the suite's section of RESULTS.md; the section is found by it. */
    String heading();

    /** What is compared and with which settings: a paragraph of the section. */
    String settings();

    /** The libfuse the suite's filesystems use, for the section's first line: this JVM's unless the suite says. */
    default String libfuse() throws Exception {
        return Fuse.libfuseVersion();
    }

    /**
     * The filesystems, in groups: within a round the members of a group run back to back, so a
     * ratio of two of them compares runs seconds apart (see {@link Compare#order}).
     */
    List<List<Filesystem>> groups();

    List<Metric> metrics();

    /** The table of results: filesystems' medians and ratios, in this order. */
    List<Column> columns();

    /** The table of the filesystem processes' CPU time per operation. */
    List<Column> cpuColumns();

    /**
     * Runs after the timed rounds, every filesystem still mounted, and returns Markdown printed
     * below the tables ("" for none).
     */
    default String afterRounds(List<FsProcess> running, double scale) throws Exception {
        return "";
    }

    /**
     * One filesystem under test: the command that mounts it when given a mountpoint, and its
     * writable scratch directory relative to the mount. A {@code kernel} filesystem (tmpfs) is
     * served by the kernel, its process only holds the mount: it has no CPU or process figures.
     */
    record Filesystem(String name, List<String> command, String scratch, boolean kernel) {
        Filesystem(String name, List<String> command, String scratch) {
            this(name, command, scratch, false);
        }
    }

    /**
     * Does {@code ops} operations in the mount {@code root}; returns {operations done, nanoseconds},
     * and a third value when the work started a process of its own that did the filesystem's part
     * (the vault suite's new mount): that process's CPU in ns, added to the row's CPU.
     */
    interface Work {
        long[] run(Path root, Path scratch, long ops) throws Exception;
    }

    /** An untimed step around a workload, given the same arguments. */
    interface Step {
        Step NOTHING = (r, w, n) -> {};

        void run(Path root, Path scratch, long ops) throws Exception;
    }

    /**
     * A workload and how it is reported: per-operation latency in us or ms (lower is better), or
     * throughput (higher is better) in MB/s when {@code bytesPerOp > 0}, else in thousands of
     * operations per second. {@code ops} is its count at scale 1. {@code before} and {@code after}
     * run untimed around every run of it, outside the readings of the filesystem's CPU too: what
     * the timed run repeats (a first read of a file the run reads again) or leaves behind.
     */
    record Metric(String name, String unit, boolean throughput, long bytesPerOp, long ops, Work work, Step before, Step after) {
        Metric(String name, String unit, boolean throughput, long bytesPerOp, long ops, Work work) {
            this(name, unit, throughput, bytesPerOp, ops, work, Step.NOTHING, Step.NOTHING);
        }

        long[] run(FsProcess fs, double scale) throws Exception {
            return work.run(fs.mountpoint(), scratch(fs), count(scale));
        }

        void runBefore(FsProcess fs, double scale) throws Exception {
            before.run(fs.mountpoint(), scratch(fs), count(scale));
        }

        void runAfter(FsProcess fs, double scale) throws Exception {
            after.run(fs.mountpoint(), scratch(fs), count(scale));
        }

        /** The untimed steps and the workload, as a warm-up pass runs them. */
        void runWithSteps(FsProcess fs, double scale) throws Exception {
            runBefore(fs, scale);
            run(fs, scale);
            runAfter(fs, scale);
        }

        private static Path scratch(FsProcess fs) {
            return fs.mountpoint().resolve(fs.filesystem().scratch());
        }

        private long count(double scale) {
            return Math.max(1, Math.round(ops * scale));
        }

        /** The value reported for {@code ops} operations done in {@code nanos}, in this metric's unit. */
        double value(long done, long nanos) {
            if (!throughput) return nanos / (double) done / (unit.startsWith("ms") ? 1e6 : 1e3);
            double perSecond = done / (nanos / 1e9);
            return bytesPerOp > 0 ? perSecond * bytesPerOp / 1e6 : perSecond / 1e3;
        }
    }

    /** A column of a table: one filesystem's median, or a ratio of two filesystems' values paired per round. */
    sealed interface Column {
        record Median(String filesystem) implements Column {}

        /**
         * {@code numerator / denominator} per round; with several candidate denominators, the one
         * with the better median on the row (not the better in each round, which would favour it
         * by the noise: the best of two noisy timings is better than either's typical value).
         */
        record Ratio(String header, String numerator, List<String> denominators) implements Column {}

        static Column ratio(String header, String numerator, String... denominators) {
            return new Ratio(header, numerator, List.of(denominators));
        }
    }
}
