package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Kernel passthrough: the Java mirror (the inode mirror, as passthrough_hp is on libfuse's low-level API) on libfuse 3.18 (its files passed through) against libfuse's
 * own {@code passthrough_hp} with passthrough (native/build-libfuse318.sh) and against the
 * tmpfs it mirrors, bind-mounted (the kernel alone: the limit). Needs root (tmpfs, bind mount,
 * and passthrough itself) and the libfuse 3.18 that scripts/libfuse-versions.sh builds.
 */
final class PassthroughSuite implements Suite {
    static final String MIRROR = "mirror passthrough";
    static final String HP = "passthrough_hp";
    static final String TMPFS = "tmpfs";

    private final List<Filesystem> filesystems;
    private final String libfuse;

    private PassthroughSuite(List<Filesystem> filesystems, String libfuse) {
        this.filesystems = filesystems;
        this.libfuse = libfuse;
    }

    static PassthroughSuite open(Cleanup cleanup) throws Exception {
        Path src = MirrorSuite.tmpfsSource(cleanup);
        Path repo = Compare.repo();
        Mirrors m = Mirrors.onNewestLibfuse(repo);
        List<String> mirror = m.java(src.toString());
        // Caches off as in the mirror (timeouts 0); passthrough is passthrough_hp's default.
        List<String> c = m.passthroughHp("--foreground", "--nocache", src.toString());
        List<String> kernel = List.of(repo.resolve("fuse-panama-bench/hold-bind").toString(), src.toString());
        return new PassthroughSuite(List.of(
                new Filesystem(TMPFS, kernel, MirrorSuite.scratch(src, 0), true),
                new Filesystem(MIRROR, mirror, MirrorSuite.scratch(src, 1)),
                new Filesystem(HP, c, MirrorSuite.scratch(src, 2))), m.version());
    }

    /**
     * The Java mirror and libfuse's passthrough_hp on the newest libfuse of the version matrix:
     * the commands the mirror and passthrough suites start, before their own options.
     */
    record Mirrors(String version, String library, Path passthroughHp) {
        static Mirrors onNewestLibfuse(Path repo) throws IOException, InterruptedException {
            String[] sid = newestLibfuse(repo);
            Path hp = repo.resolve("native/build/passthrough_hp");
            if (!Files.isExecutable(hp)) {
                throw new IllegalStateException(hp + " is missing: run native/build-libfuse318.sh");
            }
            return new Mirrors(sid[0], sid[1], hp);
        }

        /** {@code Main mirror} with {@code options}, on this libfuse, in a JVM of the bench's settings. */
        List<String> java(String... options) {
            List<String> cmd = new ArrayList<>(List.of("env", "FUSE_PANAMA_LIBFUSE=" + library,
                    ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED",
                    "-XX:+UseSerialGC", "-Xmx32m", Compare.FIXED_COMPILER_THREADS, "-cp", System.getProperty("java.class.path"),
                    "dev.fusepanama.examples.Main", "mirror"));
            cmd.addAll(List.of(options));
            return cmd;
        }

        List<String> passthroughHp(String... options) {
            List<String> cmd = new ArrayList<>(List.of(passthroughHp.toString()));
            cmd.addAll(List.of(options));
            return cmd;
        }
    }

    /** {version, library} of the newest libfuse of the version matrix (the sid build). */
    static String[] newestLibfuse(Path repo) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(repo.resolve("scripts/libfuse-versions.sh").toString(), "--one", "sid")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || out.isEmpty()) throw new IOException("libfuse from Debian sid could not be had: " + out);
        String[] f = out.split(" ");
        return new String[] {f[0], f[1]};
    }

    @Override
    public String heading() {
        return "## Kernel passthrough: the mirror against passthrough_hp and tmpfs (`--suite passthrough`)";
    }

    @Override
    public String libfuse() {
        return libfuse;
    }

    @Override
    public String settings() {
        return "libfuse " + libfuse + " (Debian sid's, built by scripts/libfuse-versions.sh) for both FUSE filesystems, over "
                + "one tmpfs holding a 1 GiB file of random bytes. The Java mirror: `Main mirror` "
                + "(the inode mirror, files passed through, timeouts 0, -XX:+UseSerialGC -Xmx32m); passthrough_hp: libfuse's example "
                + "(native/build-libfuse318.sh), `--nocache` (timeouts 0, as the mirror), passthrough on; tmpfs: the same "
                + "tmpfs bind-mounted (fuse-panama-bench/hold-bind), the kernel alone. Client: native/fsclient, 4 KiB random "
                + "preads of the 1 GiB file by 1 and by 2 clients at once, 1 MiB sequential preads of it, 1 MiB pwrites over a "
                + "256 MiB file kept between runs (so no run allocates the file's memory), and the create cycle in each filesystem's own directory. Ratios of throughputs (higher is "
                + "better); tmpfs has no process, so no CPU columns.";
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(filesystems);
    }

    @Override
    public List<Metric> metrics() {
        return METRICS;
    }

    static final List<Metric> METRICS = List.of(
            new Metric("4 KiB random read, 1 client", "kops/s", true, 0, 400_000, (r, w, n) -> FsClient.run(false, "read4k", r, n, null)),
            new Metric("4 KiB random read, 2 clients", "kops/s", true, 0, 800_000, (r, w, n) -> FsClient.parallel(2, "read4k", r, n)),
            new Metric("sequential read 1 MiB", "MB/s", true, 1 << 20, 4096, (r, w, n) -> FsClient.run(false, "seqread", r, n, null)),
            new Metric("sequential write 1 MiB", "MB/s", true, 1 << 20, 2048, (r, w, n) -> FsClient.run(false, "rewrite", w, n, null)),
            new Metric("create + write 4 KiB + close + unlink", "kops/s", true, 0, 3000, (r, w, n) -> FsClient.run(false, "create", w, n, null)));

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(TMPFS), new Column.Median(MIRROR), new Column.Median(HP),
                ratio("mirror / tmpfs", MIRROR, TMPFS), ratio("passthrough_hp / tmpfs", HP, TMPFS), ratio("mirror / passthrough_hp", MIRROR, HP));
    }

    @Override
    public List<Column> cpuColumns() {
        return List.of(new Column.Median(MIRROR), new Column.Median(HP), ratio("mirror / passthrough_hp", MIRROR, HP));
    }
}
