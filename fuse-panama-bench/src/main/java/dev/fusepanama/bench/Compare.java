package dev.fusepanama.bench;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The side-by-side comparison: mounts the bench tree on every binding (each filesystem in its
 * own process; this JVM is only the client), runs each workload on each of them in interleaved
 * rounds (A B C D E, then B C D E A, ...) so machine drift and order cancel, and prints medians, the filesystem
 * process's CPU time per operation, its peak RSS, and the ratios fuse-panama/C and
 * fuse-panama/jnr-fuse. {@code --write FILE} also writes the table as Markdown.
 *
 * <p>Usage: {@code Compare [--quick | --smoke] [--rounds N] [--write RESULTS.md] [--command TEXT]}
 */
public final class Compare {

    static final String PANAMA = "fuse-panama";
    static final String DEFAULTS = "fuse-panama defaults";
    static final String JNR = "jnr-fuse";
    static final String C3 = "C libfuse3";
    static final String C2 = "C libfuse2";

    /**
     * One filesystem under test: how to start it with a mountpoint; {@code stats}, if not null, is
     * the socket where it reports heap allocation per upcall ({@link AllocationStats}).
     */
    record Filesystem(String name, List<String> command, Path stats) {}

    /** One workload, timed by the caller: does some operations and returns how many. */
    interface Work {
        long run(Path root, int scale) throws Exception;
    }

    /** One workload that times itself (a client process): returns {operations, nanoseconds}. */
    interface TimedWork {
        long[] run(Path root, int scale) throws Exception;
    }

    /** A metric: per-operation latency (lower is better) or bytes per second (higher is better). */
    record Metric(String name, String unit, boolean throughput, long bytesPerOp, TimedWork work) {}

    /** A metric whose work this JVM times with the wall clock. */
    static Metric wall(String name, String unit, boolean throughput, long bytesPerOp, Work work) {
        return new Metric(name, unit, throughput, bytesPerOp, (r, s) -> {
            long t0 = System.nanoTime();
            long ops = work.run(r, s);
            return new long[] {ops, System.nanoTime() - t0};
        });
    }

    static final class Running implements AutoCloseable {
        final Filesystem fs;
        final Path mountpoint;
        final Process process;

        Running(Filesystem fs, Path mountpoint, Process process) {
            this.fs = fs;
            this.mountpoint = mountpoint;
            this.process = process;
        }

        /** CPU time of every live thread of the process, in ns (schedstat; threads that exit are lost). */
        long cpuNanos() throws IOException {
            long total = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(process.pid()), "task"))) {
                for (Path t : tasks) {
                    try {
                        total += Long.parseLong(Files.readString(t.resolve("schedstat")).split(" ")[0]);
                    } catch (IOException | NumberFormatException gone) {
                        // the thread ended between listing and reading
                    }
                }
            }
            return total;
        }

        long peakRssKiB() throws IOException {
            for (String l : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("\\D", ""));
            }
            return -1;
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            if (Files.readString(Path.of("/proc/self/mounts")).contains(" " + mountpoint + " ")) {
                new ProcessBuilder("fusermount3", "-u", "-z", mountpoint.toString()).start().waitFor();
            }
            Files.deleteIfExists(mountpoint);
            Files.deleteIfExists(log(mountpoint));
        }
    }

    /** The filesystem's output; kept only when it fails to mount, for the error message. */
    static Path log(Path mountpoint) {
        return mountpoint.resolveSibling(mountpoint.getFileName() + ".log");
    }

    static Running start(Filesystem fs) throws Exception {
        Path mnt = Files.createTempDirectory("bench-" + fs.name().replaceAll("\\W", "") + "-");
        List<String> cmd = new ArrayList<>(fs.command());
        cmd.add(mnt.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(log(mnt).toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(Path.of("/proc/self/mounts")).contains(" " + mnt + " ")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                Files.deleteIfExists(mnt);
                throw new IllegalStateException(fs.name() + " did not mount; its output is in " + log(mnt));
            }
            Thread.sleep(20);
        }
        return new Running(fs, mnt, p);
    }

    // ---- workloads ------------------------------------------------------------------------------

    static long listDir(Path dir, int times) throws IOException {
        for (int i = 0; i < times; i++) {
            try (Stream<Path> s = Files.list(dir)) {
                s.forEach(x -> { });
            }
        }
        return times;
    }

    static long lsLong(Path dir, int times) throws IOException {
        long ops = 0;
        for (int i = 0; i < times; i++) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                for (Path p : s) {
                    Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    ops++;
                }
            }
        }
        return times;
    }

    static long seqRead(Path file, int chunk, boolean direct, long bytes) throws IOException {
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(chunk + 4096).alignedSlice(4096).limit(chunk) : ByteBuffer.allocateDirect(chunk);
        StandardOpenOption read = StandardOpenOption.READ;
        try (FileChannel ch = direct ? FileChannel.open(file, read, ExtendedOpenOption.DIRECT) : FileChannel.open(file, read)) {
            long done = 0;
            while (done < bytes) {
                buf.clear();
                int n = ch.read(buf, done % BenchTree.DATA_SIZE);
                if (n <= 0) break;
                done += n;
            }
            return done / chunk;
        }
    }

    static long randomReads(Path file, int threads, int opsPerThread) throws Exception {
        Thread[] ts = new Thread[threads];
        Exception[] failure = new Exception[1];
        for (int t = 0; t < threads; t++) {
            int seed = t;
            ts[t] = Thread.ofPlatform().start(() -> {
                Random r = new Random(seed);
                ByteBuffer buf = ByteBuffer.allocateDirect(4096);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    for (int i = 0; i < opsPerThread; i++) {
                        buf.clear();
                        ch.read(buf, (long) r.nextInt((int) (BenchTree.DATA_SIZE / 4096)) * 4096);
                    }
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
        }
        for (Thread t : ts) t.join();
        if (failure[0] != null) throw failure[0];
        return (long) threads * opsPerThread;
    }

    static long createWriteUnlink(Path dir, int times) throws IOException {
        return createWriteUnlink(dir, times, "cwu-");
    }

    static long createWriteUnlink(Path dir, int times, String prefix) throws IOException {
        ByteBuffer data = ByteBuffer.allocateDirect(4096);
        for (int i = 0; i < times; i++) {
            Path f = dir.resolve(prefix + i);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(data.clear());
            }
            Files.delete(f);
        }
        return times;
    }

    static long seqWrite(Path dir, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        Path f = dir.resolve("seqwrite");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0; done < bytes; done += 1 << 20) ch.write(chunk.clear());
        }
        Files.delete(f);
        return bytes >> 20;
    }

    /**
     * Runs native/fsclient (no JVM on the client side, so the client adds nothing of its own to
     * what is measured) and returns its count and time.
     */
    static long[] fsclient(String op, Path dir, long n, String name) throws IOException, InterruptedException {
        Path client = Path.of(System.getProperty("fusepanama.repo", "..")).toAbsolutePath().normalize().resolve("native/build/fsclient");
        List<String> cmd = new ArrayList<>(List.of(client.toString(), op, dir.toString(), Long.toString(n)));
        if (name != null) cmd.add(name);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IOException("fsclient " + String.join(" ", cmd) + " failed: " + out);
        String[] f = out.split(" ");
        long ops = Long.parseLong(f[1]);
        return new long[] {ops, Math.round(Double.parseDouble(f[2]) * ops)};
    }

    static List<Metric> metrics() {
        return List.of(
                wall("Files.list /small (8 entries)", "us/op", false, 0, (r, s) -> listDir(r.resolve("small"), 200 * s)),
                wall("Files.list /big (10,000 entries)", "ms/op", false, 0, (r, s) -> listDir(r.resolve("big"), 2 * s)),
                wall("ls -l /big (readdir + lstat each)", "ms/op", false, 0, (r, s) -> lsLong(r.resolve("big"), s)),
                wall("lstat of one file", "us/op", false, 0, (r, s) -> {
                    Path f = r.resolve("small/file-3");
                    for (int i = 0; i < 1000 * s; i++) Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    return 1000L * s;
                }),
                wall("sequential read 128 KiB, buffered", "MB/s", true, 128 << 10, (r, s) -> seqRead(r.resolve("data.bin"), 128 << 10, false, (32L << 20) * s)),
                wall("sequential read 1 MiB, buffered", "MB/s", true, 1 << 20, (r, s) -> seqRead(r.resolve("data.bin"), 1 << 20, false, (32L << 20) * s)),
                wall("sequential read 128 KiB, O_DIRECT", "MB/s", true, 128 << 10, (r, s) -> seqRead(r.resolve("data.bin"), 128 << 10, true, (32L << 20) * s)),
                wall("sequential read 1 MiB, O_DIRECT", "MB/s", true, 1 << 20, (r, s) -> seqRead(r.resolve("data.bin"), 1 << 20, true, (32L << 20) * s)),
                wall("4 KiB random read, 1 thread", "kIOPS", true, -1, (r, s) -> randomReads(r.resolve("data.bin"), 1, 1000 * s)),
                wall("4 KiB random read, 2 threads", "kIOPS", true, -1, (r, s) -> randomReads(r.resolve("data.bin"), 2, 500 * s)),
                wall("create + write 4 KiB + close + unlink", "kops/s", true, -1, (r, s) -> createWriteUnlink(r.resolve("w"), 100 * s)),
                wall("sequential write 1 MiB", "MB/s", true, 1 << 20, (r, s) -> seqWrite(r.resolve("w"), (16L << 20) * s)),
                new Metric("C client: Files.list /small", "us/op", false, 0, (r, s) -> fsclient("list", r.resolve("small"), 200L * s, null)),
                new Metric("C client: lstat of one file", "us/op", false, 0, (r, s) -> fsclient("stat", r.resolve("small"), 2000L * s, "file-3")),
                new Metric("C client: sequential read 128 KiB, O_DIRECT", "MB/s", true, 128 << 10,
                        (r, s) -> fsclient("direct128", r, 256L * s, "data.bin")),
                new Metric("C client: 4 KiB random read", "kIOPS", true, -1, (r, s) -> fsclient("read4k", r, 2000L * s, "data.bin")),
                new Metric("C client: create + write 4 KiB + close + unlink", "kops/s", true, -1,
                        (r, s) -> fsclient("create", r.resolve("w"), 200L * s, null)));
    }

    /** Latency in the metric's unit, or throughput in its unit, from ops done in nanos. */
    static double value(Metric m, long ops, long nanos) {
        double seconds = nanos / 1e9;
        if (!m.throughput()) {
            double perOp = nanos / (double) ops;
            return m.unit().startsWith("ms") ? perOp / 1e6 : perOp / 1e3;
        }
        if (m.bytesPerOp() > 0) return ops * (double) m.bytesPerOp() / seconds / 1e6;
        return ops / seconds / 1e3;
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    public static void main(String[] args) throws Exception {
        int rounds = 5;
        int scale = 1;
        Path write = null;
        String command = "java ... dev.fusepanama.bench.Compare " + String.join(" ", args);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { rounds = 3; scale = 1; }
                case "--smoke" -> { rounds = 1; scale = 0; }
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--scale" -> scale = Integer.parseInt(args[++i]);
                case "--write" -> write = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path repo = Path.of(System.getProperty("fusepanama.repo", "..")).toAbsolutePath().normalize();
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = System.getProperty("java.class.path");
        Path stats = Files.createTempDirectory("bench-stats-").resolve("allocation.sock");
        // The heap's live set is about 1 MiB plus the 10,000 names; SerialGC commits whatever maximum
        // it is given under allocation churn, so the maximum sets most of the heap's share of RSS.
        List<String> panama = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx16m", "-cp", cp,
                PanamaBenchFs.class.getName());
        List<String> defaults = new ArrayList<>(panama);
        defaults.addAll(List.of("--defaults", "--stats", stats.toString()));
        List<Filesystem> filesystems = List.of(
                new Filesystem(PANAMA, panama, null),
                new Filesystem(DEFAULTS, defaults, stats),
                new Filesystem(JNR, List.of(java, "-XX:+UseSerialGC", "-Xmx32m", "-cp", cp, JnrBenchFs.class.getName()), null),
                new Filesystem(C3, List.of(repo.resolve("native/build/benchfs3").toString()), null),
                new Filesystem(C2, List.of(repo.resolve("native/build/benchfs2").toString()), null));
        List<Metric> metrics = metrics();
        Map<String, Map<String, List<Double>>> results = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> cpu = new LinkedHashMap<>();
        Map<String, Long> rss = new LinkedHashMap<>();
        Map<String, Map<String, long[]>> allocation = new LinkedHashMap<>();
        List<Running> running = new ArrayList<>();
        try {
            for (Filesystem fs : filesystems) running.add(start(fs));
            int effectiveScale = Math.max(1, scale);
            // warm-up: one pass of everything (JIT, page cache of nothing: the tree is generated)
            for (Metric m : metrics) for (Running r : running) m.work().run(r.mountpoint, 1);
            for (int round = 0; round < rounds; round++) {
                for (Metric m : metrics) {
                    // Rotated each round (A B C D E, B C D E A, ...): no filesystem always runs first
                    // after a change of workload, or right after the same neighbour.
                    for (int slot = 0; slot < running.size(); slot++) {
                        Running r = running.get((slot + round) % running.size());
                        long cpu0 = r.cpuNanos();
                        long[] done = m.work().run(r.mountpoint, effectiveScale);
                        long ops = done[0];
                        long nanos = done[1];
                        long cpuNanos = r.cpuNanos() - cpu0;
                        results.computeIfAbsent(m.name(), k -> new LinkedHashMap<>()).computeIfAbsent(r.fs.name(), k -> new ArrayList<>())
                                .add(value(m, ops, nanos));
                        cpu.computeIfAbsent(m.name(), k -> new LinkedHashMap<>()).computeIfAbsent(r.fs.name(), k -> new ArrayList<>())
                                .add(cpuNanos / 1000.0 / ops);
                    }
                }
            }
            for (Running r : running) rss.put(r.fs.name(), r.peakRssKiB());
            // Allocation is counted in a pass of its own after the timed rounds, so that counting
            // costs the timed rounds nothing; one untimed pass first lets each worker thread set up.
            for (Running r : running) {
                if (r.fs.stats() == null) continue;
                AllocationStats.command(r.fs.stats(), '+');
                for (Metric m : metrics) m.work().run(r.mountpoint, 1);
                for (Metric m : metrics) {
                    Map<String, long[]> before = AllocationStats.read(r.fs.stats());
                    long[] done = m.work().run(r.mountpoint, effectiveScale);
                    Map<String, long[]> counted = AllocationStats.minus(AllocationStats.read(r.fs.stats()), before);
                    counted.put("client operations", new long[] {done[0], 0});
                    allocation.put(m.name(), counted);
                }
                AllocationStats.command(r.fs.stats(), '-');
            }
        } finally {
            for (Running r : running) r.close();
            Files.deleteIfExists(stats);
            Files.deleteIfExists(stats.getParent());
        }
        String table = table(filesystems, metrics, results, cpu, rss, rounds) + allocationTable(metrics, allocation);
        System.out.println(table);
        if (write != null) {
            // The hand-written analysis below the table survives a re-run.
            String analysis = "";
            if (Files.exists(write)) {
                String old = Files.readString(write);
                int at = old.indexOf("\n## Analysis");
                if (at >= 0) analysis = old.substring(at);
            }
            Files.writeString(write, report(command, rounds, scale, table) + analysis);
            System.out.println("wrote " + write);
        }
    }

    /**
     * The better of the two C filesystems on a row: the one with the better median over all rounds.
     * (Taking the better of the two in each round would favour C by the noise: the minimum of two
     * noisy timings of equally fast filesystems is lower than either's typical value.)
     */
    static String bestC(Map<String, List<Double>> row, boolean higherIsBetter) {
        double c3 = median(row.get(C3));
        double c2 = median(row.get(C2));
        return (higherIsBetter ? c3 >= c2 : c3 <= c2) ? C3 : C2;
    }

    /**
     * The ratio {@code a / b} of one round's values, per round (rounds are interleaved, so each
     * pair ran under the same machine conditions). Printed as the median with the smallest and
     * largest round in brackets, which shows how much of a ratio is noise.
     */
    static String pairedRatio(Map<String, List<Double>> row, String a, String b) {
        List<Double> ratios = new ArrayList<>();
        List<Double> num = row.get(a);
        for (int i = 0; i < num.size(); i++) ratios.add(num.get(i) / row.get(b).get(i));
        if (ratios.size() == 1) return String.format(Locale.ROOT, "%.2f", ratios.get(0));
        double lo = ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double hi = ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", median(ratios), lo, hi);
    }

    static String table(List<Filesystem> filesystems, List<Metric> metrics, Map<String, Map<String, List<Double>>> results,
                        Map<String, Map<String, List<Double>>> cpu, Map<String, Long> rss, int rounds) {
        StringBuilder sb = new StringBuilder();
        sb.append("| metric | unit |");
        for (Filesystem f : filesystems) sb.append(' ').append(f.name()).append(" |");
        sb.append(" panama / C3 | panama / jnr | defaults / best C | defaults / jnr |\n|---|---|");
        sb.append("---:|".repeat(filesystems.size() + 4)).append('\n');
        for (Metric m : metrics) {
            Map<String, List<Double>> row = results.get(m.name());
            sb.append("| ").append(m.name()).append(" | ").append(m.unit()).append(m.throughput() ? " (higher is better)" : "").append(" |");
            for (Filesystem f : filesystems) sb.append(String.format(Locale.ROOT, " %.3g |", median(row.get(f.name()))));
            sb.append(' ').append(pairedRatio(row, PANAMA, C3)).append(" | ").append(pairedRatio(row, PANAMA, JNR))
                    .append(" | ").append(pairedRatio(row, DEFAULTS, bestC(row, m.throughput()))).append(" | ")
                    .append(pairedRatio(row, DEFAULTS, JNR)).append(" |\n");
        }
        sb.append("\nFilesystem-process CPU time per operation (us, medians, from /proc/PID/task/*/schedstat; lower is better):\n\n| metric |");
        for (Filesystem f : filesystems) sb.append(' ').append(f.name()).append(" |");
        sb.append(" panama / C3 | defaults / best C |\n|---|").append("---:|".repeat(filesystems.size() + 2)).append('\n');
        for (Metric m : metrics) {
            Map<String, List<Double>> row = cpu.get(m.name());
            sb.append("| ").append(m.name()).append(" |");
            for (Filesystem f : filesystems) sb.append(String.format(Locale.ROOT, " %.3g |", median(row.get(f.name()))));
            sb.append(' ').append(pairedRatio(row, PANAMA, C3)).append(" | ")
                    .append(pairedRatio(row, DEFAULTS, bestC(row, false))).append(" |\n");
        }
        sb.append("\nPeak RSS of the filesystem process (VmHWM): ");
        rss.forEach((k, v) -> sb.append(k).append(' ').append(v / 1024).append(" MiB; "));
        sb.append("\n\nMedians of ").append(rounds).append(" interleaved rounds after one warm-up pass. Ratios are taken ")
                .append("per round (both ran in the same round, in rotated order) and given as the median [lowest-highest round]; \"best C\" ")
                .append("is the C filesystem with the better median on that row. ")
                .append("\"C client\" rows are driven by native/fsclient, the others by this JVM.\n");
        return sb.toString();
    }

    /**
     * Heap bytes per upcall in the fuse-panama defaults filesystem, by operation, over every round
     * of each metric (see {@link AllocationStats}).
     */
    static String allocationTable(List<Metric> metrics, Map<String, Map<String, long[]>> allocation) {
        if (allocation.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("\nHeap allocated by the fuse-panama defaults filesystem per upcall, counted on its "
                + "worker threads while the kernel drove it, in one pass after the timed rounds (bytes per call, with calls "
                + "per client operation in parentheses; readdir also per entry listed):\n\n| metric | getattr | readdir | per readdir entry | read | other upcalls |\n"
                + "|---|---:|---:|---:|---:|---:|\n");
        for (Metric m : metrics) {
            Map<String, long[]> a = allocation.get(m.name());
            if (a == null) continue;
            double ops = Math.max(1, a.get("client operations")[0]);
            long[] other = new long[2];
            a.forEach((k, v) -> {
                if (!List.of("getattr", "readdir", "read", "readdir-entries", "client operations").contains(k)) {
                    other[0] += v[0];
                    other[1] += v[1];
                }
            });
            long[] entries = a.get("readdir-entries");
            long[] readdir = a.get("readdir");
            sb.append("| ").append(m.name()).append(" | ").append(perCall(a.get("getattr"), ops)).append(" | ")
                    .append(perCall(readdir, ops)).append(" | ")
                    .append(entries[0] == 0 ? "-" : String.format(Locale.ROOT, "%.1f", readdir[1] / (double) entries[0])).append(" | ")
                    .append(perCall(a.get("read"), ops)).append(" | ").append(perCall(other, ops)).append(" |\n");
        }
        return sb.toString();
    }

    private static String perCall(long[] callsAndBytes, double clientOps) {
        if (callsAndBytes == null || callsAndBytes[0] == 0) return "-";
        return String.format(Locale.ROOT, "%.1f (%.3g)", callsAndBytes[1] / (double) callsAndBytes[0], callsAndBytes[0] / clientOps);
    }

    static String report(String command, int rounds, int scale, String table) throws Exception {
        String cpuModel = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.replaceAll(".*: ", "")).orElse("unknown");
        String kernel = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        return "# fuse-panama bench results\n\n"
                + "Command: `" + command + "`\n\n"
                + "Measured " + LocalDateTime.now().withNano(0) + " on " + Runtime.getRuntime().availableProcessors() + " cores ("
                + cpuModel + "), kernel " + kernel + ", JDK " + Runtime.version() + ", libfuse " + dev.fusepanama.Fuse.libfuseVersion()
                + " (fuse-panama, C libfuse3) and 2.9 (jnr-fuse, C libfuse2). Rounds " + rounds + ", scale " + scale + ".\n\n"
                + "Identical settings on fuse-panama, jnr-fuse and both C filesystems: attr/entry/negative timeouts 0, "
                + "libfuse's default multi-threaded loop and capabilities, same tree and logic (native/benchfs.c, "
                + "PanamaBenchFs, JnrBenchFs). \"fuse-panama defaults\" is the same tree with fuse-panama's default "
                + "options (timeouts still 0; no auto_inval_data) and /big listed in offset mode (PanamaBenchFs --defaults); "
                + "its allocation is counted in a separate pass. The Java filesystems run with -XX:+UseSerialGC, fuse-panama with -Xmx16m, jnr-fuse with -Xmx32m.\n\n" + table;
    }
}
