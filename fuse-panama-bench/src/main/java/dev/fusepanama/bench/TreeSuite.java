package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench tree ({@link BenchTree}) on every binding, with the same settings and logic:
 * fuse-panama, jnr-fuse, C on libfuse 3 and on libfuse 2, and fuse-panama with its own defaults,
 * whose heap allocation per upcall is counted after the timed rounds ({@link AllocationStats}).
 */
final class TreeSuite implements Suite {
    static final String PANAMA = "fuse-panama";
    static final String DEFAULTS = "fuse-panama defaults";
    static final String JNR = "jnr-fuse";
    static final String C3 = "C libfuse3";
    static final String C2 = "C libfuse2";

    /** Where the defaults filesystem answers {@link AllocationStats} commands. */
    private final Path stats;
    private final List<Filesystem> filesystems;

    private TreeSuite(Path stats, List<Filesystem> filesystems) {
        this.stats = stats;
        this.filesystems = filesystems;
    }

    /**
     * The command of a fuse-panama bench filesystem's JVM, {@code main} with {@code args}. The heap's
     * live set is about 1 MiB plus the 10,000 names; SerialGC commits whatever maximum it is given
     * under allocation churn, so the maximum sets most of the heap's share of RSS.
     */
    static List<String> panamaJvm(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx16m", Compare.FIXED_COMPILER_THREADS,
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static TreeSuite open(Cleanup cleanup) throws Exception {
        Path stats = AllocationStats.socket(cleanup);
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path c = Compare.repo().resolve("native/build");
        return new TreeSuite(stats, List.of(
                new Filesystem(PANAMA, panamaJvm(PanamaBenchFs.class), "w"),
                new Filesystem(DEFAULTS, panamaJvm(PanamaBenchFs.class, "--defaults", "--stats", stats.toString()), "w"),
                new Filesystem(JNR, List.of(java, "-XX:+UseSerialGC", "-Xmx32m", Compare.FIXED_COMPILER_THREADS, "-cp",
                        System.getProperty("java.class.path"), JnrBenchFs.class.getName()), "w"),
                new Filesystem(C3, List.of(c.resolve("benchfs3").toString()), "w"),
                new Filesystem(C2, List.of(c.resolve("benchfs2").toString()), "w")));
    }

    @Override
    public String heading() {
        return "## Bench tree: fuse-panama, jnr-fuse and C (`--suite tree`)";
    }

    @Override
    public String settings() {
        return "Identical settings on fuse-panama, jnr-fuse 0.5.7 (libfuse 2.9) and C (native/benchfs.c) on libfuse 3 and 2: "
                + "timeouts 0, libfuse's default multi-threaded loop and capabilities. \"fuse-panama defaults\": fuse-panama's "
                + "default options (no auto_inval_data) and /big listed in offset mode. JVMs: -XX:+UseSerialGC, -Xmx16m "
                + "(fuse-panama) or -Xmx32m (jnr-fuse). Rows run by this JVM, \"C client\" rows by native/fsclient. \"best C\": "
                + "the C filesystem with the better median on the row.";
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
        List<Column> c = medians();
        c.add(ratio("panama / C3", PANAMA, C3));
        c.add(ratio("panama / jnr", PANAMA, JNR));
        c.add(ratio("defaults / best C", DEFAULTS, C3, C2));
        c.add(ratio("defaults / jnr", DEFAULTS, JNR));
        return c;
    }

    @Override
    public List<Column> cpuColumns() {
        List<Column> c = medians();
        c.add(ratio("panama / C3", PANAMA, C3));
        c.add(ratio("defaults / best C", DEFAULTS, C3, C2));
        return c;
    }

    private List<Column> medians() {
        List<Column> c = new ArrayList<>();
        for (Filesystem f : filesystems) c.add(new Column.Median(f.name()));
        return c;
    }

    /** Counts the defaults filesystem's heap allocation per upcall ({@link AllocationStats#perMetric}). */
    @Override
    public String afterRounds(List<FsProcess> running, double scale) throws Exception {
        FsProcess defaults = running.stream().filter(r -> r.name().equals(DEFAULTS)).findFirst().orElseThrow();
        return AllocationStats.table(DEFAULTS, List.of(new AllocationStats.Column.Calls("getattr"), new AllocationStats.Column.Calls("readdir"),
                new AllocationStats.Column.PerEntry("per readdir entry", List.of("readdir")), new AllocationStats.Column.Calls("read")),
                AllocationStats.perMetric(stats, defaults, metrics(), scale));
    }
}
