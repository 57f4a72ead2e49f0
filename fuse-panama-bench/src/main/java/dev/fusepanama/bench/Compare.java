package dev.fusepanama.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison: mounts each filesystem of a {@link Suite} in a process of its own (this JVM is
 * only the client), warms them up, runs every workload on each of them in interleaved rounds, and
 * prints the suite's section of RESULTS.md: medians, ratios paired per round, the filesystem
 * processes' CPU per operation, peak RSS, idle libfuse workers and the JIT compiler's share.
 * Every mount it makes is gone when it ends, also on failure.
 *
 * <p>Usage: {@code Compare [--suite tree|mirror|everyday|memfs|inode|passthrough|uring|cryptomator|vault] [--rounds N] [--scale F] [--quick | --smoke]
 * [--write RESULTS.md] [--command TEXT]}. {@code --write} replaces the suite's section of the file
 * (not in a smoke run); {@code --command} is the command line recorded there.
 */
public final class Compare {
    /**
     * A fixed number of JIT compiler threads: with more CPUs than the JVM keeps busy it ends idle
     * ones, and the CPU of a thread that has exited is missing from the per-thread readings.
     */
    static final String FIXED_COMPILER_THREADS = "-XX:-UseDynamicNumberOfCompilerThreads";
    /**
     * One pass was not enough: C2 recompiled the mirror's request paths in the create rounds that
     * followed the reads and writes (up to a quarter of the process's CPU in those rounds), and
     * its threads are the filesystem process's CPU too.
     */
    static final int MAX_WARMUP_PASSES = 6;
    static final double QUIET_JIT_SHARE = 0.01;

    /** The suites, by the name {@code --suite} takes; the first is the default. */
    static final List<String> SUITES = List.of("tree", "mirror", "everyday", "memfs", "inode", "passthrough", "uring", "cryptomator", "vault");

    /**
     * The ratio columns each suite's headline in RESULTS.md keeps, by suite; a suite not named
     * keeps all its ratio columns. The values and the other ratios stay in results/SUITE.md.
     */
    static final Map<String, List<String>> HEADLINE_RATIOS = Map.of(
            "tree", List.of("panama / C3", "panama / jnr"),
            "memfs", List.of("memfs / passthrough_hp"),
            "passthrough", List.of("mirror / passthrough_hp"),
            "uring", List.of("panama uring / C uring"),
            "everyday", List.of("Java / better of passthrough_hp and go-fuse",
                    "Java, passthrough / better of passthrough_hp, passthrough and go-fuse"));

    record Options(String suite, int rounds, double scale, int maxWarmupPasses, boolean smoke, Path write, String command, boolean headlines) {}

    static Path repo() {
        return Path.of(System.getProperty("fusepanama.repo", "..")).toAbsolutePath().normalize();
    }

    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        if (options.headlines()) {
            writeHeadlines(options.write());
            return;
        }
        Outcome outcome = run(options);
        String section = outcome.section();
        System.out.println(section);
        if (options.write() == null) return;
        if (options.smoke()) {
            System.err.println("a smoke run: " + options.write() + " is not written");
        } else {
            // The whole section goes to a file of the suite's own; RESULTS.md keeps its headline.
            String name = "results/" + options.suite() + ".md";
            Path full = options.write().toAbsolutePath().resolveSibling(name);
            Files.createDirectories(full.getParent());
            Report.write(full, section);
            Report.write(options.write(), Report.headline(section, name, HEADLINE_RATIOS.getOrDefault(options.suite(), List.of())));
            System.err.println("wrote the section \"" + section.lines().findFirst().orElseThrow() + "\" to " + full
                    + " and its headline to " + options.write());
        }
    }

    /** Rewrites every suite's headline in {@code results} from its whole section in results/SUITE.md, running nothing. */
    static void writeHeadlines(Path results) throws IOException {
        if (results == null) throw new IllegalArgumentException("--headlines needs --write RESULTS.md");
        for (String suite : SUITES) {
            String name = "results/" + suite + ".md";
            Path full = results.toAbsolutePath().resolveSibling(name);
            if (!Files.exists(full)) continue;
            Report.write(results, Report.headline(Files.readString(full), name, HEADLINE_RATIOS.getOrDefault(suite, List.of())));
            System.err.println("rewrote the headline of " + suite + " from " + full);
        }
    }

    static Options parse(String[] args) {
        String suite = SUITES.get(0);
        Integer rounds = null;
        Double scale = null;
        int maxWarmups = MAX_WARMUP_PASSES;
        boolean smoke = false;
        boolean headlines = false;
        Path write = null;
        String command = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (List.of("--suite", "--rounds", "--scale", "--write", "--command").contains(option) && i + 1 == args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            switch (option) {
                case "--suite" -> suite = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--scale" -> scale = Double.parseDouble(args[++i]);
                case "--quick" -> { rounds = 3; scale = 1.0; }
                case "--smoke" -> { rounds = 1; scale = 1 / 32.0; maxWarmups = 1; smoke = true; }
                case "--write" -> write = Path.of(args[++i]);
                case "--command" -> command = args[++i];
                case "--headlines" -> headlines = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: Compare [--suite " + String.join("|", SUITES) + "] [--rounds N] [--scale F] [--quick | --smoke | --headlines] [--write FILE] [--command TEXT]");
            }
        }
        if (!SUITES.contains(suite)) throw new IllegalArgumentException("unknown suite " + suite + ": one of " + String.join(", ", SUITES));
        if (command == null) command = "java ... " + Compare.class.getName() + " " + String.join(" ", args);
        // The default scale: 2 for the tree's workloads (tree, inode), 1 for the other suites.
        return new Options(suite, rounds == null ? 5 : rounds, scale == null ? (suite.equals("tree") || suite.equals("inode") || suite.equals("uring") ? 2 : 1) : scale,
                maxWarmups, smoke, write, command, headlines);
    }

    /** A suite's section of RESULTS.md. */
    record Outcome(String section) {}

    /** Runs the suite and returns its section of RESULTS.md. */
    static Outcome run(Options o) throws Exception {
        try (Cleanup cleanup = new Cleanup()) {
            Suite suite = switch (o.suite()) {
                case "tree" -> TreeSuite.open(cleanup);
                case "mirror" -> MirrorSuite.open(cleanup);
                case "everyday" -> EverydaySuite.open(cleanup, o.scale());
                case "memfs" -> MemfsSuite.open(cleanup, o.scale());
                case "inode" -> InodeSuite.open(cleanup);
                case "passthrough" -> PassthroughSuite.open(cleanup);
                case "uring" -> UringSuite.open(cleanup);
                case "cryptomator" -> CryptomatorSuite.open(cleanup, o.scale());
                case "vault" -> VaultSuite.open(cleanup, o.scale());
                default -> throw new IllegalArgumentException("unknown suite " + o.suite());
            };
            List<List<FsProcess>> groups = new ArrayList<>();
            List<FsProcess> running = new ArrayList<>();
            for (List<Suite.Filesystem> g : suite.groups()) {
                List<FsProcess> group = new ArrayList<>();
                for (Suite.Filesystem f : g) group.add(cleanup.add(FsProcess.start(f)));
                groups.add(group);
                running.addAll(group);
            }
            for (FsProcess fs : running) fs.awaitMount();
            int passes = warmUp(suite, running, o);

            Samples values = new Samples();
            Samples cpu = new Samples();
            // Process CPU at the start; CPU and JIT CPU summed over the timed runs; CPU of the untimed steps around them.
            Map<FsProcess, long[]> totals = new LinkedHashMap<>();
            for (FsProcess fs : running) totals.put(fs, new long[] {fs.processCpuNanos(), 0, 0, 0});
            for (int round = 0; round < o.rounds(); round++) {
                List<FsProcess> order = order(groups, round);
                for (Suite.Metric m : suite.metrics()) {
                    for (FsProcess fs : order) {
                        Map<String, Long> untimed0 = fs.cpuReading();
                        m.runBefore(fs, o.scale());
                        Map<String, Long> cpu0 = fs.cpuReading();
                        Map<String, Long> jit0 = fs.jitCpuReading();
                        long[] done = m.run(fs, o.scale());
                        Map<String, Long> cpu1 = fs.cpuReading();
                        long cpuNanos = FsProcess.cpuBetween(cpu0, cpu1);
                        long[] t = totals.get(fs);
                        t[1] += cpuNanos;
                        // The CPU of processes the workload started itself (the vault's start-up row), on its row only.
                        if (done.length > 2) cpuNanos += done[2];
                        t[2] += FsProcess.cpuBetween(jit0, fs.jitCpuReading());
                        m.runAfter(fs, o.scale());
                        t[3] += FsProcess.cpuBetween(untimed0, cpu0) + FsProcess.cpuBetween(cpu1, fs.cpuReading());
                        values.add(m.name(), fs.name(), m.value(done[0], done[1]));
                        cpu.add(m.name(), fs.name(), cpuNanos / 1000.0 / done[0]);
                    }
                }
                System.err.println("round " + (round + 1) + " of " + o.rounds() + " done");
            }

            List<Report.Process> processes = new ArrayList<>();
            for (FsProcess fs : running) {
                if (fs.filesystem().kernel()) continue;
                long[] t = totals.get(fs);
                // What the per-thread readings missed: the time between runs (small), and threads that exited.
                // /proc/PID/stat counts in clock ticks (10 ms), so below a second of CPU its 5 % is noise.
                double unseen = (fs.processCpuNanos() - t[0] - t[1] - t[3]) / (double) t[1];
                if (unseen > 0.05 && t[1] > 1_000_000_000L) {
                    System.err.printf(Locale.ROOT, "warning: %s used %.1f %% more CPU than its threads' readings show; threads may "
                            + "have exited, and its CPU column is too low%n", fs.name(), 100 * unseen);
                }
                processes.add(new Report.Process(fs.name(), fs.peakRssKiB(), fs.idleWorkers(), fs.hasJit(), t[2] / (double) t[1], unseen));
            }
            String extra = suite.afterRounds(running, o.scale());
            return new Outcome(Report.section(suite, o, passes, values, cpu, processes, extra));
        }
    }

    /**
     * The order of round {@code round}: the groups rotated by the round, and each group's members
     * rotated by the round plus the group's index, so that no filesystem always runs first after a
     * change of workload or right after the same neighbour, and which of a pair goes first
     * alternates from round to round.
     */
    static <T> List<T> order(List<List<T>> groups, int round) {
        List<T> order = new ArrayList<>();
        for (int k = 0; k < groups.size(); k++) {
            int q = (k + round) % groups.size();
            List<T> g = groups.get(q);
            for (int j = 0; j < g.size(); j++) order.add(g.get((j + round + q) % g.size()));
        }
        return order;
    }

    /**
     * Passes of every workload on every filesystem, until one in which the JIT compiler threads of
     * every Java filesystem used under 1 % of its CPU; returns the number of passes.
     */
    static int warmUp(Suite suite, List<FsProcess> running, Options o) throws Exception {
        List<FsProcess> jvms = new ArrayList<>();
        for (FsProcess fs : running) if (fs.hasJit()) jvms.add(fs);
        for (int pass = 1; ; pass++) {
            Map<FsProcess, List<Map<String, Long>>> before = new LinkedHashMap<>();
            for (FsProcess fs : jvms) before.put(fs, List.of(fs.cpuReading(), fs.jitCpuReading()));
            for (Suite.Metric m : suite.metrics()) for (FsProcess fs : running) m.runWithSteps(fs, o.scale());
            boolean quiet = true;
            List<String> shares = new ArrayList<>();
            for (FsProcess fs : jvms) {
                long cpu = FsProcess.cpuBetween(before.get(fs).get(0), fs.cpuReading());
                double share = cpu == 0 ? 0 : FsProcess.cpuBetween(before.get(fs).get(1), fs.jitCpuReading()) / (double) cpu;
                quiet &= share < QUIET_JIT_SHARE;
                shares.add(String.format(Locale.ROOT, "%s %.1f %%", fs.name(), 100 * share));
            }
            System.err.println("warm-up pass " + pass + ": JIT compiler threads' share of the CPU: " + String.join(", ", shares));
            if (quiet || pass >= o.maxWarmupPasses()) return pass;
        }
    }
}
