package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A Cryptomator vault mounted the two ways the Cryptomator application can mount one on Linux:
 * through fuse-panama-cryptomator's MountService (the NIO adapter on the inode API) and through
 * fuse-nio-adapter 5.1.0's LinuxFuseMountProvider (jfuse 0.7.3 on libfuse's high-level API).
 * Each filesystem process ({@code dev.fusepanama.cryptomator.BenchHost}, from that module's test
 * class path) makes a fresh cryptofs 2.9.0 vault in /dev/shm and mounts it with the provider's
 * default flags. Rows: a 512 MiB write with fsync, reading it back with the page cache dropped,
 * 4 KiB random reads, unpacking a tar of /usr/include, find -ls and grep -r over it, twice.
 */
final class CryptomatorSuite implements Suite {
    static final String PANAMA = "fuse-panama";
    static final String FNA = "fuse-nio-adapter";
    private static final int BIG_MIB = 512;
    private static final int RANDOM_FILE_MIB = 64;
    private static final int RANDOM_READS = 20_000;
    private static final String ABSENT = "fuse-panama-bench: absent from every file";
    private static final String TREE = "tree";
    private static final String BIG = "big";
    private static final String RANDOM = "random";

    private final MemfsSuite.Tarball tarball;
    /** The command that runs the rows' work directly through cryptofs (DirectBench), but for its round count. */
    private final List<String> direct;
    private final List<Filesystem> pair;
    private final List<Metric> metrics;

    private CryptomatorSuite(MemfsSuite.Tarball tarball, List<String> direct, Filesystem panama, Filesystem fna) {
        this.tarball = tarball;
        this.direct = direct;
        this.pair = List.of(panama, fna);
        this.metrics = metrics(tarball.file());
    }

    static CryptomatorSuite open(Cleanup cleanup, double scale) throws Exception {
        MemfsSuite.requireTools("tar", "find", "grep", "dd");
        Path module = Compare.repo().resolve("fuse-panama-cryptomator/target");
        Path classpath = module.resolve("test-classpath.txt");
        if (!Files.exists(classpath) || !Files.isDirectory(module.resolve("test-classes"))) {
            throw new IOException("the cryptomator suite runs fuse-panama-cryptomator's BenchHost: build it first "
                    + "(mvn package -pl fuse-panama-cryptomator -am; fuse-panama-bench/compare does)");
        }
        Path work = Files.createTempDirectory("bench-cryptomator-");
        cleanup.add(() -> MemfsSuite.deleteTree(work));
        MemfsSuite.Tarball tarball = MemfsSuite.tarball(work, scale);
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = module.resolve("test-classes") + ":" + module.resolve("classes") + ":" + Files.readString(classpath).trim();
        List<String> jvm = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", Compare.FIXED_COMPILER_THREADS,
                "-cp", cp);
        List<String> host = with(jvm, "dev.fusepanama.cryptomator.BenchHost");
        return new CryptomatorSuite(tarball, with(jvm, "dev.fusepanama.cryptomator.DirectBench"),
                new Filesystem(PANAMA, with(host, "panama"), ""), new Filesystem(FNA, with(host, "fna"), ""));
    }

    private static List<String> with(List<String> command, String arg) {
        List<String> c = new ArrayList<>(command);
        c.add(arg);
        return c;
    }

    private static List<Metric> metrics(Path tarball) {
        return List.of(
                new Metric("write 512 MiB (dd, 1 MiB writes, fsync)", "MB/s", true, 1 << 20, BIG_MIB,
                        (r, w, n) -> MemfsSuite.dd(w, n, "if=/dev/zero", "of=" + BIG, "bs=1M", "conv=fsync"),
                        Step.NOTHING, Step.NOTHING),
                new Metric("read it back, page cache dropped (1 MiB reads)", "MB/s", true, 1 << 20, BIG_MIB,
                        (r, w, n) -> MemfsSuite.dd(w, n, "if=" + BIG, "of=/dev/null", "bs=1M"),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(BIG))) MemfsSuite.exec(w, "dd", "if=/dev/zero", "of=" + BIG, "bs=1M", "count=" + n, "status=none");
                            dropCaches();
                        },
                        (r, w, n) -> Files.delete(w.resolve(BIG))),
                new Metric("4 KiB random reads of a 64 MiB file", "us/op", false, 0, RANDOM_READS,
                        (r, w, n) -> randomReads(w.resolve(RANDOM), n),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(RANDOM))) {
                                MemfsSuite.exec(w, "dd", "if=/dev/urandom", "of=" + RANDOM, "bs=1M", "count=" + RANDOM_FILE_MIB, "status=none");
                            }
                        }, Step.NOTHING),
                new Metric("tar -xf of /usr/include", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "tar", "--no-same-owner", "-xf", tarball.toString(), "-C", TREE),
                        (r, w, n) -> Files.createDirectory(w.resolve(TREE)), Step.NOTHING),
                new Metric("find -ls over it", "ms/op", false, 0, 1, (r, w, n) -> MemfsSuite.timed(w, "find", TREE, "-ls")),
                new Metric("grep -r over it (no match)", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "grep", "-r", "-F", ABSENT, TREE)),
                new Metric("grep -r over it again", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "grep", "-r", "-F", ABSENT, TREE),
                        Step.NOTHING, (r, w, n) -> MemfsSuite.deleteTree(w.resolve(TREE))));
    }

    /** Drops the kernel's clean page cache (and dentries and inodes), so a read comes through the filesystem. */
    static void dropCaches() throws Exception {
        MemfsSuite.exec(Path.of("/"), "sync");
        Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }

    /** {@code n} reads of 4 KiB at random aligned offsets of {@code file}, one after another: {n, nanoseconds}. */
    private static long[] randomReads(Path file, long n) throws IOException {
        SplittableRandom r = new SplittableRandom(42);
        ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
            long blocks = c.size() / 4096;
            long t0 = System.nanoTime();
            for (long i = 0; i < n; i++) {
                buf.clear();
                c.read(buf, r.nextLong(blocks) * 4096);
            }
            return new long[] {n, System.nanoTime() - t0};
        }
    }

    /**
     * The ceiling: the rows' work done directly through cryptofs's NIO API in one JVM, no FUSE
     * (DirectBench, as many rounds after one warm-up as the suite has filesystems' rounds, here 5).
     */
    @Override
    public String afterRounds(List<FsProcess> running, double scale) throws Exception {
        Process p = new ProcessBuilder(with(direct, "5")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> rows = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith("ROW ")).toList();
        if (p.waitFor() != 0 || rows.size() != 6) throw new IOException("DirectBench failed (exit " + p.exitValue() + ")");
        StringBuilder sb = new StringBuilder(Report.wrap("The ceiling: the same work done directly through cryptofs's NIO API "
                + "in one JVM, no FUSE (`dev.fusepanama.cryptomator.DirectBench 5`: a fresh vault in /dev/shm, medians of 5 rounds "
                + "after one warm-up, [lowest-highest]). Its unpack row copies /usr/include into the vault (directories, files, "
                + "modification times: the tar's work without tar), its find row reads every entry's posix attributes, its grep "
                + "row reads every file to its end.")).append("\n\n| work | unit | directly through cryptofs |\n|---|---|---:|\n");
        for (String row : rows) {
            String[] f = row.substring(4).split("\\|");
            sb.append("| ").append(f[0]).append(" | ").append(f[1]).append(" | ")
                    .append(Report.number(Double.parseDouble(f[2]))).append(" [").append(Report.number(Double.parseDouble(f[3])))
                    .append("-").append(Report.number(Double.parseDouble(f[4]))).append("] |\n");
        }
        return sb.toString();
    }

    @Override
    public String heading() {
        return "## A Cryptomator vault: our provider against fuse-nio-adapter (`--suite cryptomator`)";
    }

    @Override
    public String settings() {
        return String.format(Locale.ROOT, "One fresh cryptofs 2.9.0 vault (SIV_GCM) in /dev/shm per filesystem process, mounted with "
                + "the provider's default flags as the Cryptomator application mounts it: fuse-panama-cryptomator's MountService "
                + "(`-o auto_unmount`; the NIO adapter, names and attributes cached 1 s) and fuse-nio-adapter 5.1.0's "
                + "LinuxFuseMountProvider (jfuse 0.7.3; `-oauto_unmount -ouid -ogid -oattr_timeout=5`), each in a JVM of its own "
                + "with -XX:+UseSerialGC. Rows: dd of /dev/zero into a new file, %d MiB in 1 MiB writes with conv=fsync; the same "
                + "file read back after `echo 3 > /proc/sys/vm/drop_caches`; %,d 4 KiB reads at random aligned offsets of a "
                + "%d MiB file, one after another, from this JVM; the tar (%,d entries of /usr/include, %.0f MB) unpacked with "
                + "GNU tar --no-same-owner into a new directory; find -ls and grep -r over it, then grep -r again. "
                + "Ratios: fuse-panama's value over fuse-nio-adapter's, paired per round (below 1 is faster on the time rows, above 1 on the MB/s rows).",
                BIG_MIB, RANDOM_READS, RANDOM_FILE_MIB, tarball.entries(), tarball.bytes() / 1e6);
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(pair);
    }

    @Override
    public List<Metric> metrics() {
        return metrics;
    }

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(PANAMA), new Column.Median(FNA), ratio("fuse-panama / fuse-nio-adapter", PANAMA, FNA));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
