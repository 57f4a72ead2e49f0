package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.nio.file.Path;
import java.util.List;

/**
 * The bench tree on fuse-panama's inode API ({@link PanamaInodeBenchFs}) against C on libfuse's
 * low-level API (native/benchfs_ll.c), with the same logic and settings, on the tree suite's
 * workloads; the Java filesystem's heap allocation per upcall is counted after the timed rounds
 * ({@link AllocationStats}).
 */
final class InodeSuite implements Suite {
    static final String JAVA = "fuse-panama inode";
    static final String C = "C low-level";

    /** Where the Java filesystem answers {@link AllocationStats} commands. */
    private final Path stats;
    private final List<Filesystem> filesystems;

    private InodeSuite(Path stats, List<Filesystem> filesystems) {
        this.stats = stats;
        this.filesystems = filesystems;
    }

    static InodeSuite open(Cleanup cleanup) throws Exception {
        Path stats = AllocationStats.socket(cleanup);
        return new InodeSuite(stats, List.of(
                new Filesystem(JAVA, TreeSuite.panamaJvm(PanamaInodeBenchFs.class, "--stats", stats.toString()), "w"),
                new Filesystem(C, List.of(Compare.repo().resolve("native/build/benchfs3ll").toString()), "w")));
    }

    @Override
    public String heading() {
        return "## Bench tree on the inode API against C on the low-level API (`--suite inode`)";
    }

    @Override
    public String settings() {
        return "The bench tree on fuse-panama's inode API (PanamaInodeBenchFs) and in C on libfuse's low-level API "
                + "(native/benchfs_ll.c), with the same logic: fixed inode numbers, timeouts 0 in every reply, readdirplus with "
                + "each entry's attributes, reads answered from the pattern without a copy; libfuse's default multi-threaded loop "
                + "and capabilities (auto_inval_data on). JVM: -XX:+UseSerialGC, -Xmx16m; its allocation counter is off in the "
                + "timed rounds (a volatile read per upcall). The tree suite's workloads: rows run by this JVM, \"C client\" rows "
                + "by native/fsclient.";
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(filesystems);
    }

    @Override
    public List<Metric> metrics() {
        return TreeWorkloads.METRICS;
    }

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(JAVA), new Column.Median(C), ratio("Java / C", JAVA, C));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }

    /** Counts the Java filesystem's heap allocation per upcall ({@link AllocationStats#perMetric}). */
    @Override
    public String afterRounds(List<FsProcess> running, double scale) throws Exception {
        FsProcess java = running.stream().filter(r -> r.name().equals(JAVA)).findFirst().orElseThrow();
        return AllocationStats.table(JAVA, List.of(new AllocationStats.Column.Calls("lookup"), new AllocationStats.Column.Calls("getattr"),
                new AllocationStats.Column.Calls("readdirplus"), new AllocationStats.Column.Calls("readdir"),
                new AllocationStats.Column.PerEntry("per listed entry", List.of("readdirplus", "readdir")),
                new AllocationStats.Column.Calls("read")), AllocationStats.perMetric(stats, java, metrics(), scale));
    }
}
