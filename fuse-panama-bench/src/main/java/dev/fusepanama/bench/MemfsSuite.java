package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import dev.fusepanama.testkit.RequestTrace;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * memfs (fuse-panama-examples' {@code MemoryFileSystem}) on the inode API, with the kernel's
 * entry and attribute caches on, against libfuse's {@code passthrough_hp} over a tmpfs (the best
 * C FUSE filesystem, on the same libfuse: the anchor), tmpfs (the kernel alone: the limit) and
 * memfs as it was before the inode API ({@link #BEFORE_COMMIT}), on what people do with a tree of files:
 * unpack a tar, walk it, grep it, {@code git status}, {@code ls -l}, small writes, re-reading a
 * big file. Every row is the wall time of a command-line tool. After the timed rounds, one unpack
 * into a traced mount of each memfs counts the FUSE requests per entry. Needs root (the tmpfs),
 * git and strace.
 */
final class MemfsSuite implements Suite {
    static final String TMPFS = "tmpfs";
    static final String MEMFS = "memfs";
    static final String HP = "passthrough_hp";
    static final String BEFORE = "memfs before the inode API";
    /** The last commit before memfs moved to the inode API: what {@link #BEFORE} runs. */
    static final String BEFORE_COMMIT = "4ab35a6363a97f8cc0ca1f62e266d9a37d44435e";
    /** Each filesystem's capacity. */
    private static final String SIZE = "3G";
    /**
     * memfs keeps file data in 4 KiB heap arrays, 2 % over the data; at scale 1 about 1.5 GiB is
     * live at once (the 1 GiB file, the repository, an unpacked tree, the writes).
     */
    private static final String HEAP = "-Xmx4g";
    /** passthrough_hp's descriptor limit: room for every inode of the workloads at scale 2. */
    private static final int HP_DESCRIPTORS = 131_072;
    /** At scale 1; the tar and the repository hold a prefix of /usr/include's sorted entries. */
    private static final Path INCLUDE = Path.of("/usr/include");
    private static final int DIR_ENTRIES = 10_000;
    private static final int WRITE_BYTES = 10 << 10;
    private static final int WRITES_AT_SCALE_1 = 10 << 10;
    private static final int BIG_MIB = 1 << 10;
    /** A string in no header, so that grep reads every file to the end. */
    private static final String ABSENT = "fuse-panama-bench: absent from every file";
    private static final String TREE = "tree";
    private static final String REPO = "repo";
    private static final String DIR = "dir";
    private static final String WRITES = "writes";
    private static final String BIG = "big";

    private final Cleanup cleanup;
    private final Tarball tarball;
    private final Filesystem memfs;
    private final Filesystem before;
    private final List<Filesystem> filesystems;
    private final List<Metric> metrics;
    private final double scale;
    private final String libfuse;

    /** The tar the unpack rows extract: its entries and size. */
    record Tarball(Path file, int entries, long bytes) {}

    private MemfsSuite(Cleanup cleanup, Tarball tarball, List<Filesystem> filesystems, double scale, String libfuse) {
        this.cleanup = cleanup;
        this.tarball = tarball;
        this.filesystems = filesystems;
        this.memfs = named(filesystems, MEMFS);
        this.before = named(filesystems, BEFORE);
        this.metrics = metrics(tarball.file(), scale);
        this.scale = scale;
        this.libfuse = libfuse;
    }

    private static Filesystem named(List<Filesystem> filesystems, String name) {
        return filesystems.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    static MemfsSuite open(Cleanup cleanup, double scale) throws Exception {
        requireTools("git", "strace", "tar");
        Path work = Files.createTempDirectory("bench-memfs-");
        cleanup.add(() -> deleteTree(work));
        Tarball tarball = tarball(work, scale);
        // memfs and passthrough_hp on the same libfuse, the newest of the version matrix.
        PassthroughSuite.Mirrors newest = PassthroughSuite.Mirrors.onNewestLibfuse(Compare.repo());
        Path source = MirrorSuite.tmpfs(cleanup, "bench-memfs-hp", SIZE);
        // passthrough_hp holds a descriptor per inode the kernel knows (the tree, the repository and
        // the directory at once: about 37,000 at scale 1), so it needs a descriptor limit to match:
        // it raises its soft limit to the hard one, which is raised first where the machine lets
        // root (CAP_SYS_RESOURCE; where not, scale 0.5 fits a hard limit of 20,000).
        List<String> hp = new ArrayList<>(List.of("sh", "-c", "prlimit --pid $$ --nofile=" + HP_DESCRIPTORS + ":" + HP_DESCRIPTORS
                + " 2>/dev/null; exec \"$0\" \"$@\""));
        hp.addAll(newest.passthroughHp("--foreground", "--nopassthrough", source.toString()));
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> jvm = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", HEAP, Compare.FIXED_COMPILER_THREADS);
        List<String> memfsArgs = List.of("dev.fusepanama.examples.Main", "memfs", "--max-size", SIZE);
        List<String> memfs = new ArrayList<>(List.of("env", "FUSE_PANAMA_LIBFUSE=" + newest.library()));
        memfs.addAll(jvm);
        memfs.addAll(List.of("-cp", System.getProperty("java.class.path")));
        memfs.addAll(memfsArgs);
        List<String> before = new ArrayList<>(jvm);
        before.addAll(List.of("-cp", beforeClasspath()));
        before.addAll(memfsArgs);
        List<String> tmpfs = List.of(Compare.repo().resolve("fuse-panama-bench/hold-tmpfs").toString(), SIZE);
        return new MemfsSuite(cleanup, tarball, List.of(new Filesystem(TMPFS, tmpfs, "", true), new Filesystem(HP, hp, ""),
                new Filesystem(MEMFS, memfs, ""), new Filesystem(BEFORE, before, "")), scale, newest.version());
    }

    /**
     * A tar of the first {@code scale} of /usr/include's entries in sorted order (every entry's
     * parent sorts before it, so the prefix is a tree), all of them at scale 1 or more.
     */
    static Tarball tarball(Path work, double scale) throws Exception {
        List<String> entries;
        try (Stream<Path> all = Files.walk(INCLUDE)) {
            entries = all.map(p -> INCLUDE.getParent().relativize(p).toString()).sorted().toList();
        }
        int n = (int) Math.max(2, Math.min(entries.size(), Math.round(entries.size() * scale)));
        Path list = work.resolve("entries");
        Files.write(list, entries.subList(0, n));
        Path file = work.resolve("include.tar");
        exec(work, "tar", "-cf", file.toString(), "-C", INCLUDE.getParent().toString(), "--no-recursion", "--verbatim-files-from",
                "-T", list.toString());
        return new Tarball(file, n, Files.size(file));
    }

    /** The workloads, each run in the filesystem's root; {@code scale} sizes the directory, the writes and the file. */
    static List<Metric> metrics(Path tarball, double scale) {
        long dirEntries = atScale(DIR_ENTRIES, scale);
        return List.of(
                new Metric("tar -xf of /usr/include", "ms/op", false, 0, 1,
                        (r, w, n) -> timed(w, "tar", "-xf", tarball.toString(), "-C", TREE),
                        (r, w, n) -> Files.createDirectory(w.resolve(TREE)), Step.NOTHING),
                tool("find -ls, first after the unpack", "find", TREE, "-ls"),
                tool("find -ls again", "find", TREE, "-ls"),
                tool("du -s", "du", "-s", TREE),
                tool("grep -r (no match), first", "grep", "-r", "-F", ABSENT, TREE),
                tool("grep -r again", "grep", "-r", "-F", ABSENT, TREE),
                tool("rm -rf of the tree", "rm", "-rf", TREE),
                new Metric("git status (a repository of /usr/include), second run", "ms/op", false, 0, 1,
                        (r, w, n) -> timed(w.resolve(REPO), "git", "status"),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(REPO))) makeRepository(w.resolve(REPO), tarball);
                            exec(w.resolve(REPO), "git", "status");
                        }, Step.NOTHING),
                new Metric("ls -l of a 10,000-entry directory", "ms/op", false, 0, 1, (r, w, n) -> timed(w, "ls", "-l", DIR),
                        (r, w, n) -> {
                            if (Files.exists(w.resolve(DIR))) return;
                            Path dir = Files.createDirectory(w.resolve(DIR));
                            for (long i = 0; i < dirEntries; i++) Files.createFile(dir.resolve("file-" + i));
                        }, Step.NOTHING),
                new Metric("write 100 MiB in 10 KiB writes, then fsync", "MB/s", true, WRITE_BYTES, WRITES_AT_SCALE_1,
                        (r, w, n) -> dd(w, n, "if=/dev/zero", "of=" + WRITES, "bs=10k", "conv=fsync"),
                        Step.NOTHING, (r, w, n) -> Files.delete(w.resolve(WRITES))),
                new Metric("re-read a 1 GiB file (the second read; 1 MiB reads)", "MB/s", true, 1 << 20, BIG_MIB,
                        (r, w, n) -> dd(w, n, "if=" + BIG, "of=/dev/null", "bs=1M"),
                        (r, w, n) -> {
                            if (!Files.exists(w.resolve(BIG))) exec(w, "dd", "if=/dev/zero", "of=" + BIG, "bs=1M", "count=" + n, "status=none");
                            exec(w, "dd", "if=" + BIG, "of=/dev/null", "bs=1M", "count=" + n, "status=none");
                        }, Step.NOTHING));
    }

    /** {@code n} at {@code scale}, as {@link Metric} counts operations. */
    private static long atScale(long n, double scale) {
        return Math.max(1, Math.round(n * scale));
    }

    /** A row timing one run of a tool in the filesystem's root. */
    private static Metric tool(String name, String... cmd) {
        return new Metric(name, "ms/op", false, 0, 1, (r, w, n) -> timed(w, cmd));
    }

    /** {@code dd ARGS count=BLOCKS}, timed: {blocks, nanoseconds}. */
    static long[] dd(Path dir, long blocks, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("dd"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("count=" + blocks, "status=none"));
        return new long[] {blocks, timed(dir, cmd.toArray(String[]::new))[1]};
    }

    /** The tarball's files committed to a new repository at {@code repo}. */
    private static void makeRepository(Path repo, Path tarball) throws Exception {
        Files.createDirectory(repo);
        exec(repo, "tar", "-xf", tarball.toString());
        exec(repo, "git", "init", "-q");
        exec(repo, "git", "add", "-A");
        exec(repo, "git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-q", "-m", "bench");
    }

    /** One run of {@code cmd} in {@code dir}, its output discarded: {1, wall-clock nanoseconds from start to exit}. */
    static long[] timed(Path dir, String... cmd) throws Exception {
        long t0 = System.nanoTime();
        exec(dir, cmd);
        return new long[] {1, System.nanoTime() - t0};
    }

    /**
     * Runs {@code cmd} in {@code dir} with its output discarded, in the C locale and without the
     * user's or the system's git configuration; fails with its error output unless it exits with
     * 0 (or grep with 1, "nothing matched", which is what the grep rows look for).
     */
    static void exec(Path dir, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.put("LC_ALL", "C");
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        int status = p.waitFor();
        if (status != 0 && !(cmd[0].equals("grep") && status == 1)) {
            throw new IOException(String.join(" ", cmd) + " in " + dir + " exited with " + status + ": " + err);
        }
    }

    static void requireTools(String... tools) throws IOException {
        List<String> missing = new ArrayList<>();
        for (String t : tools) {
            boolean found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                    .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, t)));
            if (!found) missing.add(t);
        }
        if (!missing.isEmpty()) {
            throw new IOException("the suite runs " + String.join(" and ", missing) + ", which are not installed: apt-get install "
                    + String.join(" ", missing) + " (native/build-bench.sh does, as root)");
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    /**
     * memfs as of {@link #BEFORE_COMMIT}: the class path of its build in
     * {@code ~/.cache/fuse-panama/memfs-COMMIT} (or under {@code $XDG_CACHE_HOME}), made on first use
     * from {@code git archive} of the commit and reused after. An archive rather than a worktree:
     * it registers nothing in the repository, and deleting the cache leaves nothing stale.
     */
    static String beforeClasspath() throws Exception {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cacheHome = xdg == null || xdg.isEmpty() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
        Path cache = cacheHome.resolve("fuse-panama").resolve("memfs-" + BEFORE_COMMIT.substring(0, 7));
        if (!Files.isDirectory(cache)) buildBefore(cache);
        Path target = cache.resolve("fuse-panama-examples/target");
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "fuse-panama-examples-*.jar")) {
            for (Path jar : jars) {
                if (!jar.toString().endsWith("-sources.jar") && !jar.toString().endsWith("-tests.jar")) {
                    return jar + File.pathSeparator + target.resolve("lib") + File.separator + "*";
                }
            }
        }
        throw new IOException("no fuse-panama-examples jar in " + target + ": remove " + cache + " to build it again");
    }

    /** Builds the examples module of {@link #BEFORE_COMMIT} in a directory of its own, then moves it to {@code cache}. */
    private static void buildBefore(Path cache) throws Exception {
        Files.createDirectories(cache.getParent());
        Path tmp = Files.createTempDirectory(cache.getParent(), cache.getFileName() + ".");
        try {
            System.err.println("building memfs as of " + BEFORE_COMMIT.substring(0, 7) + " into " + cache + " (once)");
            List<Process> archive = ProcessBuilder.startPipeline(List.of(
                    new ProcessBuilder("git", "-C", Compare.repo().toString(), "archive", BEFORE_COMMIT)
                            .redirectError(ProcessBuilder.Redirect.INHERIT),
                    new ProcessBuilder("tar", "-x", "-C", tmp.toString()).redirectError(ProcessBuilder.Redirect.INHERIT)));
            for (Process p : archive) {
                if (p.waitFor() != 0) {
                    throw new IOException("git archive " + BEFORE_COMMIT + " | tar -x failed in " + Compare.repo()
                            + ": the commit must be in its history (a shallow clone needs git fetch --unshallow)");
                }
            }
            Process mvn = new ProcessBuilder("mvn", "-B", "-q", "-ntp", "-DskipTests", "package", "-pl", "fuse-panama-examples", "-am")
                    .directory(tmp.toFile()).redirectErrorStream(true).start();
            mvn.getInputStream().transferTo(System.err); // this process's output is the section
            if (mvn.waitFor() != 0) throw new IOException("building memfs as of " + BEFORE_COMMIT + " in " + tmp + " failed");
            try {
                Files.move(tmp, cache, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException builtMeanwhile) {
                deleteTree(tmp);
            }
        } catch (Exception e) {
            deleteTree(tmp);
            throw e;
        }
    }

    @Override
    public String heading() {
        return "## memfs on the inode API against passthrough_hp, tmpfs and before (`--suite memfs`)";
    }

    @Override
    public String libfuse() {
        return libfuse;
    }

    @Override
    public String settings() {
        return String.format(Locale.ROOT, "tmpfs (size=%s, mounted by fuse-panama-bench/hold-tmpfs); libfuse's passthrough_hp "
                + "(C++, low-level API) over another such tmpfs, `--nopassthrough` and otherwise as it comes (the kernel's "
                + "caches on, timeouts 1 day, the writeback cache) on libfuse %s (Debian sid's, native/build-libfuse318.sh); "
                + "memfs on the inode API on the same libfuse, the "
                + "kernel's entry and attribute caches on (timeouts 1 h), no writeback cache (each write(2) a WRITE memfs answers, so "
                + "that a full memfs refuses it); memfs before the inode API (commit %s: libfuse's "
                + "high-level API, attributes uncached, names cached 1 s, built once into ~/.cache/fuse-panama) on the system's libfuse; both "
                + "`dev.fusepanama.examples.Main memfs --max-size %s` with -XX:+UseSerialGC %s. The tar: %,d entries of "
                + "/usr/include, %.0f MB, unpacked (GNU tar) into a new directory every round and removed (rm -rf) after the grep rows; "
                + "git status in a repository of the same files, committed; ls -l of a directory of %,d empty files; dd of "
                + "/dev/zero into a new file, %s MiB in 10 KiB writes and an fsync (conv=fsync); a file of %,d MiB (dd bs=1M) read once, then timed. "
                + "Every row is the wall time of the tool's process, from its start to its exit, in the filesystem's root. "
                + "Ratios are of the row's values: below 1 is faster on the ms/op rows, above 1 on the MB/s rows. tmpfs is "
                + "the kernel's own: no process to measure, so no CPU or process columns.",
                SIZE, libfuse, BEFORE_COMMIT.substring(0, 7), SIZE, HEAP, tarball.entries(), tarball.bytes() / 1e6, atScale(DIR_ENTRIES, scale),
                Report.number(atScale(WRITES_AT_SCALE_1, scale) * (double) WRITE_BYTES / (1 << 20)), atScale(BIG_MIB, scale));
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(filesystems);
    }

    @Override
    public List<Metric> metrics() {
        return metrics;
    }

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(TMPFS), new Column.Median(HP), new Column.Median(MEMFS), new Column.Median(BEFORE),
                ratio("memfs / passthrough_hp", MEMFS, HP), ratio("memfs / tmpfs", MEMFS, TMPFS), ratio("memfs / before", MEMFS, BEFORE));
    }

    @Override
    public List<Column> cpuColumns() {
        return List.of(new Column.Median(HP), new Column.Median(MEMFS), new Column.Median(BEFORE),
                ratio("memfs / passthrough_hp", MEMFS, HP), ratio("memfs / before", MEMFS, BEFORE));
    }

    /**
     * The unpack's cost in requests: one unpack into a fresh mount of each memfs with libfuse's
     * request trace on ({@code --debug}), counted by operation; and, as the client's side, tar's
     * system calls in the same unpack into the tmpfs ({@code strace -c -f}).
     */
    @Override
    public String afterRounds(List<FsProcess> running, double scale) throws Exception {
        Map<String, Map<String, Long>> requests = new TreeMap<>();
        for (Filesystem f : List.of(memfs, before)) {
            List<String> traced = new ArrayList<>(f.command());
            traced.add("--debug");
            try (FsProcess fs = cleanup.add(FsProcess.start(new Filesystem(f.name() + " traced", traced, f.scratch())))) {
                fs.awaitMount();
                Files.createDirectory(fs.mountpoint().resolve(TREE));
                Map<String, Long> start = requestCounts(settled(fs));
                exec(fs.mountpoint(), "tar", "-xf", tarball.file().toString(), "-C", TREE);
                Map<String, Long> end = requestCounts(settled(fs));
                end.forEach((op, count) -> {
                    long n = count - start.getOrDefault(op, 0L);
                    if (n > 0) requests.computeIfAbsent(op, k -> new TreeMap<>()).put(f.name(), n);
                });
            }
        }
        FsProcess tmpfs = running.stream().filter(r -> r.name().equals(TMPFS)).findFirst().orElseThrow();
        Path strace = Files.createTempFile("bench-strace-", ".txt");
        Map<String, Long> syscalls;
        try {
            Path tree = Files.createDirectory(tmpfs.mountpoint().resolve("strace-" + TREE));
            exec(tmpfs.mountpoint(), "strace", "-c", "-f", "-o", strace.toString(), "tar", "-xf", tarball.file().toString(), "-C", tree.toString());
            deleteTree(tree);
            syscalls = straceCounts(Files.readString(strace));
        } finally {
            Files.deleteIfExists(strace);
        }
        return rowRequests() + "\n" + requestTable(requests) + "\n" + syscallTable(syscalls);
    }

    /**
     * What each row asks of memfs and of passthrough_hp: one pass of every row in order, with its
     * untimed steps, over a fresh mount of each, the timed part's requests counted by the kernel's
     * tracepoint (what the kernel sent, whoever answered it). 0 is the goal wherever the kernel
     * can answer by itself.
     */
    private String rowRequests() throws Exception {
        StringBuilder sb = new StringBuilder(Report.wrap("FUSE requests each row sends, in one pass of every row in order "
                + "over a fresh mount after the timed rounds, counted by the kernel's `fuse:fuse_request_send` tracepoint "
                + "(fuse-panama-testkit's `RequestTrace`):") + "\n\n");
        List<Filesystem> counted = List.of(memfs, named(filesystems, HP));
        List<Map<String, String>> cells = new ArrayList<>();
        for (Filesystem f : counted) {
            Map<String, String> byRow = new TreeMap<>();
            try (FsProcess fs = cleanup.add(FsProcess.start(new Filesystem(f.name() + " counted", f.command(), f.scratch())))) {
                fs.awaitMount();
                for (Metric m : metrics(tarball.file(), scale)) {
                    m.runBefore(fs, scale);
                    Map<String, Long> counts;
                    try (RequestTrace trace = RequestTrace.start(fs.mountpoint())) {
                        m.run(fs, scale);
                        Thread.sleep(300); // the kernel sends RELEASE after close(2) returns
                        counts = trace.counts();
                    }
                    m.runAfter(fs, scale);
                    long all = counts.values().stream().mapToLong(Long::longValue).sum();
                    List<Map.Entry<String, Long>> top = new ArrayList<>(counts.entrySet());
                    top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
                    String most = String.join(", ", top.stream().limit(4)
                            .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).toList());
                    byRow.put(m.name(), String.format(Locale.ROOT, "%,d | %s", all, most.isEmpty() ? "none" : most));
                }
            }
            cells.add(byRow);
        }
        sb.append("| row | ").append(MEMFS).append(" | the most frequent | ").append(HP).append(" | the most frequent |\n");
        sb.append("|---|---:|---|---:|---|\n");
        for (Metric m : metrics) {
            sb.append("| ").append(m.name()).append(" | ").append(cells.get(0).get(m.name())).append(" | ")
                    .append(cells.get(1).get(m.name())).append(" |\n");
        }
        return sb.toString();
    }

    /** The process's output once it has not grown for 300 ms (the kernel sends RELEASE after close returns), at most 10 s. */
    private static String settled(FsProcess fs) throws Exception {
        String last = fs.output();
        for (int i = 0; i < 33; i++) {
            Thread.sleep(300);
            String now = fs.output();
            if (now.length() == last.length()) return now;
            last = now;
        }
        return last;
    }

    private static final Pattern OPCODE = Pattern.compile("unique: \\d+, opcode: (\\w+) ");

    /** Requests by operation in libfuse's trace ("unique: 8, opcode: LOOKUP (1), nodeid: 1, ..."). */
    static Map<String, Long> requestCounts(String trace) {
        Map<String, Long> counts = new TreeMap<>();
        Matcher m = OPCODE.matcher(trace);
        while (m.find()) counts.merge(m.group(1), 1L, Long::sum);
        return counts;
    }

    /**
     * Calls by system call in {@code strace -c}'s summary: rows "% time, seconds, usecs/call,
     * calls, [errors,] syscall" between dashed lines, then a total.
     */
    static Map<String, Long> straceCounts(String summary) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : summary.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || !f[0].matches("[0-9.]+") || f[f.length - 1].equals("total")) continue;
            counts.put(f[f.length - 1], Long.parseLong(f[3]));
        }
        return counts;
    }

    private String requestTable(Map<String, Map<String, Long>> requests) {
        StringBuilder sb = new StringBuilder(Report.wrap(String.format(Locale.ROOT, "FUSE requests per entry of one unpack of the tar "
                + "(%,d entries) into a fresh mount of each memfs after the timed rounds, counted from libfuse's request trace "
                + "(`--debug`):", tarball.entries())) + "\n\n");
        sb.append("| request | ").append(MEMFS).append(" | ").append(BEFORE).append(" |\n|---|---:|---:|\n");
        long[] total = new long[2];
        // The most frequent first, by the larger of the two counts.
        List<Map.Entry<String, Map<String, Long>>> rows = new ArrayList<>(requests.entrySet());
        rows.sort(Comparator.comparingLong(e -> -Collections.max(e.getValue().values())));
        StringBuilder body = new StringBuilder();
        for (Map.Entry<String, Map<String, Long>> e : rows) {
            long a = e.getValue().getOrDefault(MEMFS, 0L);
            long b = e.getValue().getOrDefault(BEFORE, 0L);
            total[0] += a;
            total[1] += b;
            body.append("| ").append(e.getKey()).append(" | ").append(perEntry(a)).append(" | ").append(perEntry(b)).append(" |\n");
        }
        sb.append("| all | ").append(perEntry(total[0])).append(" | ").append(perEntry(total[1])).append(" |\n").append(body);
        return sb.toString();
    }

    private String syscallTable(Map<String, Long> syscalls) {
        StringBuilder sb = new StringBuilder(Report.wrap("The client's side: tar's system calls per entry in the same unpack into "
                + "the tmpfs (`strace -c -f`), those made at least 0.05 times per entry:") + "\n\n");
        sb.append("| system call | per entry |\n|---|---:|\n");
        long all = syscalls.values().stream().mapToLong(v -> v).sum();
        sb.append("| all | ").append(perEntry(all)).append(" |\n");
        syscalls.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .filter(e -> e.getValue() >= 0.05 * tarball.entries())
                .forEach(e -> sb.append("| ").append(e.getKey()).append(" | ").append(perEntry(e.getValue())).append(" |\n"));
        return sb.toString();
    }

    private String perEntry(long count) {
        return count == 0 ? "-" : Report.number(count / (double) tarball.entries());
    }
}
