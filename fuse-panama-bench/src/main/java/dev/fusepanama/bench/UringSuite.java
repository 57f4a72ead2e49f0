package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * FUSE-over-io_uring: the bench tree on fuse-panama and in C (native/benchfs.c built against
 * libfuse 3.18 as native/build/benchfs318), each over io_uring and over /dev/fuse, on the
 * libfuse 3.18 of the version matrix. The fuse module's {@code enable_uring} is turned on for the
 * run and put back after. Needs root.
 */
final class UringSuite implements Suite {
    static final String PANAMA_DEV = "fuse-panama /dev/fuse";
    static final String PANAMA_URING = "fuse-panama io_uring";
    static final String C_DEV = "C /dev/fuse";
    static final String C_URING = "C io_uring";
    private static final Path PARAMETER = Path.of("/sys/module/fuse/parameters/enable_uring");

    private final List<Filesystem> filesystems;
    private final String libfuse;

    private UringSuite(List<Filesystem> filesystems, String libfuse) {
        this.filesystems = filesystems;
        this.libfuse = libfuse;
    }

    static UringSuite open(Cleanup cleanup) throws Exception {
        String before = Files.readString(PARAMETER).trim();
        Files.writeString(PARAMETER, "1");
        cleanup.add(() -> Files.writeString(PARAMETER, before.equals("Y") ? "1" : before.equals("N") ? "0" : before));
        String[] sid = PassthroughSuite.newestLibfuse(Compare.repo());
        Path c = Compare.repo().resolve("native/build/benchfs318");
        if (!Files.isExecutable(c)) throw new IllegalStateException(c + " is missing: run native/build-libfuse318.sh");
        List<String> env = List.of("env", "FUSE_PANAMA_LIBFUSE=" + sid[1]);
        return new UringSuite(List.of(
                new Filesystem(PANAMA_DEV, concat(env, TreeSuite.panamaJvm(PanamaBenchFs.class)), "w"),
                new Filesystem(PANAMA_URING, concat(env, TreeSuite.panamaJvm(PanamaBenchFs.class, "--io-uring")), "w"),
                new Filesystem(C_DEV, List.of(c.toString()), "w"),
                new Filesystem(C_URING, List.of(c.toString(), "--io-uring"), "w")), sid[0]);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Override
    public String heading() {
        return "## FUSE over io_uring: the bench tree on libfuse 3.18 (`--suite uring`)";
    }

    @Override
    public String libfuse() {
        return libfuse;
    }

    @Override
    public String settings() {
        return "libfuse " + libfuse + " (Debian sid's, built by scripts/libfuse-versions.sh, with io_uring) for all four; the "
                + "fuse module's enable_uring on for the run. The bench tree's settings (timeouts 0, libfuse's default "
                + "multi-threaded loop and capabilities, auto_inval_data as libfuse 3 sets it) on fuse-panama "
                + "(PanamaBenchFs, -XX:+UseSerialGC -Xmx16m, `MountOptions.ioUring`) and C (native/benchfs.c as "
                + "native/build/benchfs318, `-o io_uring`), each with requests over io_uring and over /dev/fuse. libfuse "
                + "serves io_uring with one queue thread per CPU (2 here). The tree suite's rows, 4 KiB random O_DIRECT reads "
                + "(one request per read, one at a time: the round trip's latency), the same and lstat with the C client kept "
                + "on CPU 0, and 4 KiB random reads by 2 and 4 C clients at once.";
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(filesystems);
    }

    static final List<Metric> METRICS;

    static {
        List<Metric> m = new ArrayList<>(TreeWorkloads.METRICS);
        m.add(new Metric("C client: 4 KiB random read, O_DIRECT", "kIOPS", true, 0, 4000,
                (r, w, n) -> FsClient.run(false, "direct4k", r, n, "data.bin")));
        // The same requests with the client kept on one CPU: over io_uring the queue of the
        // client's CPU serves it, so where the scheduler moves the client between requests
        // decides how often a reply crosses CPUs; pinned, the rows show the filesystems' own cost.
        m.add(new Metric("C client on one CPU: lstat of one file", "us/op", false, 0, 2000,
                (r, w, n) -> FsClient.onCpu(0, "stat", r.resolve("small"), n, "file-3")));
        m.add(new Metric("C client on one CPU: 4 KiB random read, O_DIRECT", "kIOPS", true, 0, 4000,
                (r, w, n) -> FsClient.onCpu(0, "direct4k", r, n, "data.bin")));
        m.add(new Metric("C client: 4 KiB random read, 2 clients", "kIOPS", true, 0, 4000,
                (r, w, n) -> FsClient.parallel(2, "read4k", r, n, "data.bin")));
        m.add(new Metric("C client: 4 KiB random read, 4 clients", "kIOPS", true, 0, 8000,
                (r, w, n) -> FsClient.parallel(4, "read4k", r, n, "data.bin")));
        METRICS = List.copyOf(m);
    }

    @Override
    public List<Metric> metrics() {
        return METRICS;
    }

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(PANAMA_DEV), new Column.Median(PANAMA_URING), new Column.Median(C_DEV),
                new Column.Median(C_URING), ratio("panama uring / C uring", PANAMA_URING, C_URING),
                ratio("panama uring / panama /dev/fuse", PANAMA_URING, PANAMA_DEV), ratio("C uring / C /dev/fuse", C_URING, C_DEV));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
