package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * fuse-panama's gocryptfs-compatible vault against gocryptfs itself, each serving a vault of its
 * own (made by its own {@code init}, scrypt cost 2^10 for a quick setup, one password file) in
 * /dev/shm. Both are started as a user starts them: the vault through the repository's launcher
 * ({@code ./fuse-panama vault --passfile}, its JVM options and class-data sharing archive
 * included), gocryptfs with {@code -fg -passfile}. The long-lived mount of each runs the rows
 * the way an application that keeps the vault mounted sees them (the cold rows drop the page
 * cache first); the start-up row and the read after it start a new process on a second
 * mountpoint of the same vault, as someone who runs the command and then reads a file does, so
 * the vault's row there includes starting and compiling a JVM. The vault is the only part of the
 * bench that runs vault code, and only through the launcher. Needs root (drop_caches), gocryptfs
 * and fio.
 */
final class VaultSuite implements Suite {
    static final String VAULT = "vault";
    static final String GOCRYPTFS = "gocryptfs";
    private static final int BIG_MIB = 1 << 10;
    private static final int RANDOM_FILE_MIB = 256;
    private static final String ABSENT = "fuse-panama-bench: absent from every file";
    private static final String TREE = "tree";
    private static final String BIG = "big";
    private static final String RANDOM = "random";
    static final String START_UP = "start-up: a new process, to the mount in /proc/mounts";
    static final String FRESH_READ = "the new process's first work: read the 1 GiB file (1 MiB reads)";

    private final MemfsSuite.Tarball tarball;
    private final List<Filesystem> pair;
    /** Per filesystem, the command that mounts its vault in a new process when given a mountpoint. */
    private final Map<String, Filesystem> fresh;
    private final double scale;
    /** The new processes, by the long-lived mount they repeat; also read by the shutdown's cleanup. */
    private final Map<Path, FsProcess> started = new ConcurrentHashMap<>();
    /** Each new process's peak RSS (VmHWM) when it ended, per filesystem. */
    private final Samples freshRss = new Samples();
    private final List<Metric> metrics;

    private VaultSuite(MemfsSuite.Tarball tarball, Map<String, Filesystem> fresh, List<Filesystem> pair, double scale) {
        this.tarball = tarball;
        this.fresh = fresh;
        this.pair = pair;
        this.scale = scale;
        this.metrics = workloads();
    }

    static VaultSuite open(Cleanup cleanup, double scale) throws Exception {
        MemfsSuite.requireTools("gocryptfs", "fio", "dd", "tar", "find", "grep");
        if (!Files.isWritable(Path.of("/proc/sys/vm/drop_caches"))) {
            throw new IOException("the vault suite drops the page cache before its cold reads: run it as root");
        }
        Path work = Files.createTempDirectory(Path.of("/dev/shm"), "bench-vault-");
        cleanup.add(() -> MemfsSuite.deleteTree(work));
        MemfsSuite.Tarball tarball = MemfsSuite.tarball(work, scale);
        Path password = Files.writeString(work.resolve("password"), "bench\n");
        String launcher = Compare.repo().resolve("fuse-panama").toString();
        Path ours = Files.createDirectory(work.resolve("vault"));
        Path theirs = Files.createDirectory(work.resolve("gocryptfs"));
        // The first run of the launcher builds what is stale, so no timed start-up does.
        MemfsSuite.exec(work, launcher, "vault", "init", "--passfile", password.toString(), "--scryptn", "10", ours.toString());
        MemfsSuite.exec(work, "gocryptfs", "-q", "-init", "-scryptn", "10", "-passfile", password.toString(), theirs.toString());
        List<String> vault = List.of(launcher, "vault", "--passfile", password.toString(), ours.toString());
        List<String> gocryptfs = List.of("gocryptfs", "-q", "-fg", "-passfile", password.toString(), theirs.toString());
        // The long-lived vault keeps its compiler threads, so that the CPU of every thread is in the readings.
        List<String> longLived = new ArrayList<>(List.of("env", "JAVA_TOOL_OPTIONS=" + Compare.FIXED_COMPILER_THREADS));
        longLived.addAll(vault);
        Map<String, Filesystem> fresh = Map.of(VAULT, new Filesystem(VAULT, vault, ""), GOCRYPTFS, new Filesystem(GOCRYPTFS, gocryptfs, ""));
        VaultSuite suite = new VaultSuite(tarball, fresh,
                List.of(new Filesystem(VAULT, longLived, ""), new Filesystem(GOCRYPTFS, gocryptfs, "")), scale);
        cleanup.add(suite::endStarted);
        return suite;
    }

    private List<Metric> workloads() {
        return List.of(
                new Metric("write 1 GiB (dd, 1 MiB writes, fsync)", "MB/s", true, 1 << 20, BIG_MIB,
                        (r, w, n) -> MemfsSuite.dd(w, n, "if=/dev/zero", "of=" + BIG, "bs=1M", "conv=fsync")),
                new Metric("read it back, page cache dropped (1 MiB reads)", "MB/s", true, 1 << 20, BIG_MIB,
                        (r, w, n) -> MemfsSuite.dd(w, n, "if=" + BIG, "of=/dev/null", "bs=1M"),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(BIG))) MemfsSuite.exec(w, "dd", "if=/dev/zero", "of=" + BIG, "bs=1M", "count=" + n, "conv=fsync", "status=none");
                            CryptomatorSuite.dropCaches();
                        }, Step.NOTHING),
                // Each new process lives only through its own row: the other filesystem's never runs beside it.
                new Metric(START_UP, "ms/op", false, 0, 1, (r, w, n) -> startAnother(r), Step.NOTHING,
                        (r, w, n) -> endAnother(r, false)),
                new Metric(FRESH_READ, "MB/s", true, 1 << 20, BIG_MIB, (r, w, n) -> readThroughAnother(r, n),
                        (r, w, n) -> startAnother(r), (r, w, n) -> {
                            endAnother(r, true);
                            Files.delete(w.resolve(BIG));
                        }),
                new Metric("4 KiB random reads (fio, psync, 1 job, each block once) of a 256 MiB file, page cache dropped", "kIOPS", true, 0, RANDOM_FILE_MIB,
                        (r, w, n) -> fio(w.resolve(RANDOM), n),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(RANDOM))) MemfsSuite.exec(w, "dd", "if=/dev/urandom", "of=" + RANDOM, "bs=1M", "count=" + n, "conv=fsync", "status=none");
                            CryptomatorSuite.dropCaches();
                        }, Step.NOTHING),
                new Metric("tar -xf of /usr/include", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "tar", "-xf", tarball.file().toString(), "-C", TREE),
                        (r, w, n) -> Files.createDirectory(w.resolve(TREE)), Step.NOTHING),
                new Metric("find -ls over it, second run", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "find", TREE, "-ls"),
                        (r, w, n) -> MemfsSuite.exec(w, "find", TREE, "-ls"), Step.NOTHING),
                new Metric("grep -r over it (no match), second run", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "grep", "-r", "-F", ABSENT, TREE),
                        (r, w, n) -> MemfsSuite.exec(w, "grep", "-r", "-F", ABSENT, TREE),
                        (r, w, n) -> MemfsSuite.deleteTree(w.resolve(TREE))));
    }

    /** The long-lived filesystem whose mount is {@code root}: the one of the pair whose process serves it. */
    private String nameOf(Path root) {
        String dir = root.getFileName().toString();
        for (Filesystem f : pair) if (dir.startsWith(FsProcess.mountpointPrefix(f))) return f.name();
        throw new IllegalStateException("no filesystem of the suite is mounted at " + root);
    }

    /**
     * Starts the filesystem of {@code root} again in a new process, on a mountpoint of its own over
     * the same vault: {1, nanoseconds from the start to the mount, the new process's CPU so far}.
     */
    private long[] startAnother(Path root) throws Exception {
        if (started.containsKey(root)) throw new IllegalStateException("a second process already serves the vault of " + root);
        long t0 = System.nanoTime();
        FsProcess p = FsProcess.start(fresh.get(nameOf(root)));
        started.put(root, p);
        p.awaitMount();
        long nanos = System.nanoTime() - t0;
        return new long[] {1, nanos, FsProcess.cpuBetween(Map.of(), p.cpuReading())};
    }

    /** Reads the big file through the new process's mount: {MiB read, nanoseconds, that process's CPU meanwhile}. */
    private long[] readThroughAnother(Path root, long mib) throws Exception {
        FsProcess p = started.get(root);
        if (p == null) throw new IllegalStateException("the start-up row runs before this one");
        Map<String, Long> before = p.cpuReading();
        long[] done = MemfsSuite.dd(p.mountpoint(), mib, "if=" + BIG, "of=/dev/null", "bs=1M");
        return new long[] {done[0], done[1], FsProcess.cpuBetween(before, p.cpuReading())};
    }

    /** Ends the new process of {@code root}'s filesystem, keeping its peak RSS if {@code rss} (after its first read). */
    private void endAnother(Path root, boolean rss) throws Exception {
        FsProcess p = started.remove(root);
        if (p == null) return;
        try (p) {
            if (rss) freshRss.add("peak RSS", p.name(), p.peakRssKiB() / 1024.0);
        }
    }

    private void endStarted() throws Exception {
        for (Path root : List.copyOf(started.keySet())) endAnother(root, false);
    }

    /**
     * fio's 4 KiB random reads of {@code file} ({@code mib} MiB), psync, one job, each block read
     * once (fio's random map), so that every read misses the page cache the step before dropped:
     * {reads done, nanoseconds}.
     */
    private long[] fio(Path file, long mib) throws Exception {
        Process p = new ProcessBuilder("fio", "--name=r", "--filename=" + file, "--rw=randread", "--bs=4k", "--ioengine=psync",
                "--numjobs=1", "--size=" + mib + "m", "--io_size=" + mib + "m", "--output-format=terse", "--terse-version=3")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IOException("fio on " + file + " exited with " + p.exitValue() + ": " + out);
        // terse version 3: ...;6 read KiB;7 read bandwidth;8 read IOPS;9 read runtime in ms;...
        String[] f = out.lines().reduce((a, b) -> b).orElseThrow().split(";");
        return new long[] {Long.parseLong(f[5]) / 4, Long.parseLong(f[8]) * 1_000_000L};
    }

    @Override
    public String afterRounds(List<FsProcess> running, double scale) {
        StringBuilder sb = new StringBuilder(Report.wrap("The new processes of the first-read row (warm-up passes included), each "
                + "ended after its read: peak RSS (VmHWM, read before it ends), median [lowest-highest]:"))
                .append("\n\n| new process | ");
        sb.append(VAULT).append(" | ").append(GOCRYPTFS).append(" |\n|---|---:|---:|\n| peak RSS (MiB) |");
        for (String name : List.of(VAULT, GOCRYPTFS)) sb.append(' ').append(freshRss.range("peak RSS", name)).append(" |");
        return sb.append('\n').toString();
    }

    @Override
    public String heading() {
        return "## Vault: fuse-panama's gocryptfs-compatible vault against gocryptfs (`--suite vault`)";
    }

    @Override
    public String settings() {
        return String.format(Locale.ROOT, "gocryptfs %s. Each filesystem serves a vault of its own in /dev/shm, made by its own init "
                + "(scrypt cost 2^10), the same password from a file: the vault through the launcher (`./fuse-panama vault "
                + "--passfile`: its JVM options and class-data sharing archive; the long-lived one also with %s), gocryptfs "
                + "`-fg -passfile`. Rows: dd of /dev/zero into a new file, %d MiB in 1 MiB writes with conv=fsync; read back "
                + "after `echo 3 > /proc/sys/vm/drop_caches`; a new process of the same filesystem started on a second mountpoint of "
                + "the same vault, timed from its start to its mount in /proc/mounts (polled every 2 ms), and ended; another such "
                + "process, alone too, reading the same file through its mount (its CPU, not the long-lived process's, in the CPU "
                + "table); fio's 4 KiB random reads of a %d MiB file of random bytes (psync, 1 job, each block read once, page "
                + "cache dropped first); the tar (%,d "
                + "entries of /usr/include, %.0f MB) unpacked as root into a new directory; find -ls and grep -r over it, each run "
                + "once untimed first. Ratios: the vault's value over gocryptfs's, paired per round (below 1 is faster on the "
                + "time rows, above 1 on the MB/s and kIOPS rows).",
                gocryptfsVersion(), Compare.FIXED_COMPILER_THREADS, atScale(BIG_MIB), atScale(RANDOM_FILE_MIB), tarball.entries(), tarball.bytes() / 1e6);
    }

    private long atScale(long n) {
        return Math.max(1, Math.round(n * scale));
    }

    private static String gocryptfsVersion() {
        try {
            Process p = new ProcessBuilder("gocryptfs", "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor();
            // "gocryptfs 2.3; go-fuse 2.2.0; 2023-01-09 go1.19.8 linux/amd64"
            return out.lines().findFirst().orElse("?").split(";")[0].replaceFirst("^gocryptfs ", "");
        } catch (IOException | InterruptedException e) {
            return "?";
        }
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
        return List.of(new Column.Median(VAULT), new Column.Median(GOCRYPTFS), ratio("vault / gocryptfs", VAULT, GOCRYPTFS));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
