package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * pjdfstest, the public POSIX filesystem suite (FreeBSD's, in its Rust port: crates.io
 * {@code pjdfstest} 0.2.2, BSD-2-Clause), run inside your filesystem through a real mount. Its
 * checks are nobody's here: about 400 tests of chmod, chown, link, mkdir, mkfifo, mknod, open,
 * posix_fallocate, rename, rmdir, symlink, truncate, unlink and utimensat, with their errors.
 *
 * <pre>{@code
 * class MyFileSystemPjdfstest extends PjdfstestSuite {
 *     protected TestMount mountFilesystem() throws Exception {
 *         return TestMount.mount(new MyFileSystem(),
 *                 MountOptions.builder().allowOther(true).defaultPermissions(true).build());
 *     }
 *
 *     protected Map<String, String> knownFailures() {   // optional
 *         return Map.of("rename::exdev_target", "one line saying why",
 *                 "*::fifo", "a pattern: every test of that name, whatever the call");
 *     }
 * }
 * }</pre>
 *
 * <p>Mount with {@code allowOther}: pjdfstest switches to other users (nobody and daemon), whom a
 * FUSE mount otherwise keeps out. It runs as root, since half its checks make device nodes or
 * change owners; a test JVM that is not root skips it, saying so.
 *
 * <p><b>Known failures</b> are the tests your filesystem is known to fail, each as pjdfstest
 * names it with one line of reason, or as a pattern in which {@code *} stands for any run of
 * characters ({@code *::fifo}, {@code mknod::*}) for a whole kind of test a filesystem cannot
 * pass. The run fails when a test outside the list fails, and also when a test named exactly
 * passes or is not run at all, or a pattern matches no failure, so that a list that has gone
 * stale is noticed.
 *
 * <p><b>Features</b> pjdfstest makes optional are switched on unless {@link #unsupported()} names
 * them. Its cross-device checks get a directory on another filesystem (EXDEV). Its read-only
 * checks (EROFS) are skipped: they remount with mount(8), whose FUSE helper would try to start the
 * filesystem's program instead, and a read-only mount refuses writes in the kernel before any
 * request reaches the filesystem.
 *
 * <p><b>The binary</b> is the file {@value #ENVIRONMENT} names, else {@code pjdfstest} on the
 * {@code PATH} or in {@code ~/.cargo/bin}; install it with
 * {@code cargo install pjdfstest --version 0.2.2 --locked} (it links libacl: Debian's
 * {@code libacl1-dev}). Without one the test is skipped and says how to install it. The summary
 * line is logged and written, with the whole output, to {@code target/pjdfstest/CLASS.summary}
 * and {@code CLASS.log}. The suite has the JUnit tag {@value #TAG}, to leave it out of a run.
 */
@Tag(PjdfstestSuite.TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
public abstract class PjdfstestSuite {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected PjdfstestSuite() {}

    /** The JUnit tag of this suite. */
    public static final String TAG = "pjdfstest";
    /** Names the pjdfstest binary to run; when set, a missing binary fails the test instead of skipping it. */
    public static final String ENVIRONMENT = "FUSE_PANAMA_PJDFSTEST";
    /** The directory the summary and the output go to (default {@code target/pjdfstest}). */
    public static final String REPORTS_PROPERTY = "fusepanama.pjdfstest.reports";

    private static final Logger LOG = LoggerFactory.getLogger(PjdfstestSuite.class);
    private static final Pattern SUMMARY = Pattern.compile(
            "Summary: (\\d+) failed, (\\d+) skipped, (\\d+) passed, (\\d+) expected failures, (\\d+) total");
    /** A test's result line: its name, padded, then the outcome; what follows until the next one belongs to it. */
    private static final Pattern RESULT = Pattern.compile(
            "^(\\S+)\\s+(ok|FAILED|skipped|failed as expected|PASSED UNEXPECTEDLY)$");
    /** Users for its user switches, each with its own primary group, as pjdfstest requires; Debian has both. */
    private static final String USERS = "[[\"nobody\", \"nogroup\"], [\"daemon\", \"daemon\"]]";
    /** Seconds between changes whose timestamps are compared: above any FUSE filesystem's granularity (1 ns here). */
    private static final double NAPTIME = 0.01;

    /**
     * Mounts the filesystem under test at a fresh directory, with {@code allowOther}.
     *
     * @return the mount, which the suite closes when pjdfstest is done
     * @throws Exception if it cannot be mounted (the test fails), or a JUnit assumption to skip it
     */
    protected abstract TestMount mountFilesystem() throws Exception;

    /** pjdfstest's optional features ({@code pjdfstest -l}) that exist on Linux. */
    public enum Feature {
        /** {@code posix_fallocate(3)}. */
        POSIX_FALLOCATE("posix_fallocate"),
        /** {@code utimensat(2)}. */
        UTIMENSAT("utimensat"),
        /** {@code UTIME_NOW} in {@code utimensat(2)}. */
        UTIME_NOW("utime_now"),
        /** A rename changes the renamed file's ctime. */
        RENAME_CTIME("rename_ctime");

        /** Its name in pjdfstest's configuration. */
        public final String key;

        Feature(String key) {
            this.key = key;
        }
    }

    /**
     * The features this filesystem does not have; the tests that need them are skipped. None by default.
     *
     * @return the features to switch off in pjdfstest's configuration
     */
    protected Set<Feature> unsupported() {
        return Set.of();
    }

    /**
     * Tests known to fail, each with the reason; none by default. See the class description for
     * patterns and for how a stale entry fails the run.
     *
     * @return pjdfstest's names (e.g. {@code rename::exdev_target}) or patterns ({@code *::fifo}) to
     *     the one line that says why
     */
    protected Map<String, String> knownFailures() {
        return Map.of();
    }

    @Test
    void pjdfstestPassesExceptItsKnownFailures() throws Exception {
        Path binary = binary();
        Assumptions.assumeTrue(Libc.geteuid() == 0, "pjdfstest needs root: it makes device nodes and switches users");
        Path reports = Files.createDirectories(Path.of(System.getProperty(REPORTS_PROPERTY, "target/pjdfstest")));
        String name = getClass().getSimpleName();
        Path secondary = Files.createTempDirectory("pjdfstest-other-fs-");
        Path config = Files.createTempFile("pjdfstest-", ".toml");
        Path log = reports.resolve(name + ".log");
        try (TestMount mount = mountFilesystem()) {
            Files.writeString(config, config(secondary));
            ProcessBuilder pb = new ProcessBuilder(binary.toString(), "-c", config.toString(), "-p", mount.root().toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("NO_COLOR", "1");
            Process p = pb.start();
            if (!p.waitFor(480, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail("pjdfstest did not finish in 8 minutes; its output so far is in " + log.toAbsolutePath());
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            String summary = lines.stream().filter(l -> SUMMARY.matcher(l).find()).reduce((a, b) -> b)
                    .orElseThrow(() -> new AssertionError("pjdfstest printed no summary (exit status " + p.exitValue()
                            + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()))));
            Files.writeString(reports.resolve(name + ".summary"), summary.trim() + "\n");
            LOG.info("pjdfstest in {}: {}", name, summary.trim());
            check(lines, summary, p.exitValue(), log);
        } finally {
            Files.deleteIfExists(config);
            deleteTree(secondary);
        }
    }

    /** The configuration: features, the other filesystem, the known failures, the users. */
    private String config(Path secondary) {
        Set<Feature> on = EnumSet.allOf(Feature.class);
        on.removeAll(unsupported());
        StringBuilder c = new StringBuilder("[features]\n");
        c.append("secondary_fs = ").append(quote(secondary.toString())).append('\n');
        for (Feature f : on) c.append(f.key).append(" = {}\n");
        c.append("\n[settings]\nnaptime = ").append(NAPTIME).append("\nallow_remount = false\n");
        // Known failures are matched here, not by pjdfstest, which knows no patterns.
        c.append("expected_failures = []\n");
        c.append("\n[dummy_auth]\nentries = ").append(USERS).append('\n');
        return c.toString();
    }

    /** Fails with every unexpected result: a failure not listed, a listed test that passed or did not run. */
    private void check(List<String> lines, String summary, int status, Path log) {
        Map<String, String> known = knownFailures();
        List<String> problems = problems(lines, known);
        Matcher m = SUMMARY.matcher(summary);
        assertTrue(m.find());
        if (!problems.isEmpty()) {
            fail("pjdfstest in " + getClass().getSimpleName() + ": " + summary.trim() + "; whole output in "
                    + log.toAbsolutePath() + "\n" + String.join("\n", problems));
        }
        long knownFailed = failed(lines).stream().filter(t -> known(t, known) != null).count();
        LOG.info("pjdfstest in {}: {} known failures, none unexpected", getClass().getSimpleName(), knownFailed);
        assertEquals(String.valueOf(knownFailed), m.group(1), "failures beside the known ones; " + summary);
        assertEquals(knownFailed == 0 ? 0 : 1, status,
                "pjdfstest's exit status; " + summary + " (whole output: " + log.toAbsolutePath() + ")");
    }

    /** The known failure (exact name or pattern) that covers {@code test}, or null. */
    static String known(String test, Map<String, String> knownFailures) {
        if (knownFailures.containsKey(test)) return test;
        for (String k : new TreeSet<>(knownFailures.keySet())) {
            if (k.contains("*") && glob(k).matcher(test).matches()) return k;
        }
        return null;
    }

    private static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (!re.isEmpty()) re.append(".*");
            re.append(Pattern.quote(part));
        }
        return Pattern.compile(re.toString());
    }

    /** The tests that failed in pjdfstest's output. */
    private static List<String> failed(List<String> lines) {
        List<String> failed = new ArrayList<>();
        for (String line : lines) {
            Matcher r = RESULT.matcher(line.trim());
            if (r.matches() && r.group(2).equals("FAILED")) failed.add(r.group(1));
        }
        return failed;
    }

    /**
     * The unexpected results in pjdfstest's output {@code lines}, each with what it printed about
     * it: a failure no known failure covers, a test named exactly as a known failure that passed
     * or did not run, a pattern that matched no failure. Empty when the run went as
     * {@code knownFailures} says.
     */
    static List<String> problems(List<String> lines, Map<String, String> knownFailures) {
        List<String> problems = new ArrayList<>();
        Set<String> covering = new TreeSet<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher r = RESULT.matcher(lines.get(i).trim());
            if (!r.matches()) continue;
            String test = r.group(1);
            switch (r.group(2)) {
                case "ok" -> {
                    if (knownFailures.containsKey(test)) {
                        problems.add(test + " is a known failure (" + knownFailures.get(test) + ") but passed");
                    }
                }
                case "FAILED", "PASSED UNEXPECTEDLY", "failed as expected" -> {
                    String k = r.group(2).equals("FAILED") ? known(test, knownFailures) : null;
                    if (k != null) {
                        covering.add(k);
                        continue;
                    }
                    // The panic message and assert_eq!'s left/right lines, up to the next result or the summary.
                    StringBuilder p = new StringBuilder(r.group(1) + " " + r.group(2));
                    for (int j = i + 1; j < lines.size(); j++) {
                        String next = lines.get(j).trim();
                        if (RESULT.matcher(next).matches() || SUMMARY.matcher(next).find()) break;
                        if (!next.isEmpty()) p.append("\n    ").append(next);
                    }
                    problems.add(p.toString());
                }
                default -> { }
            }
        }
        for (String listed : new TreeSet<>(knownFailures.keySet())) {
            if (covering.contains(listed) || problems.stream().anyMatch(p -> p.startsWith(listed + " "))) continue;
            problems.add(listed.contains("*")
                    ? "known failures " + listed + " (" + knownFailures.get(listed) + ") match no failed test"
                    : listed + " is a known failure (" + knownFailures.get(listed) + ") but pjdfstest did not run it");
        }
        return problems;
    }

    /** The binary to run, or the test is skipped with how to install one. */
    private static Path binary() {
        String configured = System.getenv(ENVIRONMENT);
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            assertTrue(Files.isExecutable(p), ENVIRONMENT + " names " + p + ", which is not an executable file");
            return p;
        }
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty()) candidates.add(Path.of(dir, "pjdfstest"));
        }
        candidates.add(Path.of(System.getProperty("user.home"), ".cargo", "bin", "pjdfstest"));
        for (Path p : candidates) {
            if (Files.isExecutable(p)) return p;
        }
        Assumptions.abort("pjdfstest is not installed: cargo install pjdfstest --version 0.2.2 --locked "
                + "(needs Debian's libacl1-dev), or name its binary in " + ENVIRONMENT);
        throw new AssertionError();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** Removes the other filesystem's directory, with what a failed cross-device test may have left in it. */
    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
