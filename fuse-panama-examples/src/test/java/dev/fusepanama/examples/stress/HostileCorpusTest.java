package dev.fusepanama.examples.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.examples.Main;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.StressSuite;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input corpus ({@code src/test/resources/hostile}, its README says what each input
 * is), each given to {@code fuse-panama} as a user would: vault configurations that are broken,
 * costly beyond bound or of settings not implemented; archives with entries no directory can
 * hold; a vault whose files were cut short; command lines whose values cannot be taken. A
 * refusal is one line and exit status 2, with nothing mounted; an archive is served without its
 * bad entries, one warning each; a cut file is EIO and its neighbours read.
 */
@Tag(StressSuite.TAG)
@MountTest
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileCorpusTest {
    private static final String PASSWORD = "corpus";

    @TempDir
    Path tmp;

    private static Path corpus() throws URISyntaxException {
        return Path.of(HostileCorpusTest.class.getResource("/hostile/cases.tsv").toURI()).getParent();
    }

    /** What a run printed and how it ended. */
    private record Run(int status, List<String> lines) {}

    private Run run(Path log, String... args) throws Exception {
        Process p = new ProcessBuilder(ChildJvm.command(Main.class, args)).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", args) + ": still running after 60 s: " + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList());
    }

    /** A refusal: exit 2, one line, the expected words in it, no Java names, nothing mounted. */
    private String refused(Run r, String expected, String what, Path mnt) throws IOException {
        List<String> problems = new ArrayList<>();
        if (r.status != 2) problems.add("exit status " + r.status);
        if (r.lines.size() != 1) problems.add(r.lines.size() + " lines");
        String line = r.lines.isEmpty() ? "" : r.lines.getLast();
        if (!line.contains(expected)) problems.add("no '" + expected + "'");
        if (line.contains("Exception") || line.contains("\tat ")) problems.add("a Java exception");
        if (mounted(mnt)) problems.add("something mounted");
        return problems.isEmpty() ? null : what + ": " + String.join(", ", problems) + ":\n    " + String.join("\n    ", r.lines);
    }

    private static boolean mounted(Path dir) throws IOException {
        return Files.readString(Path.of("/proc/self/mounts")).contains(" " + dir + " ");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    @Test
    void everyHostileInputIsRefusedInOneLineOrServedWithoutItsBadPart() throws Exception {
        Assumptions.assumeTrue(Libc.geteuid() == 0, "mounts as root, as the other suites do");
        Path corpus = corpus();
        Path pass = Files.writeString(tmp.resolve("pass"), PASSWORD + "\n");
        List<String> failed = new ArrayList<>();
        int vaults = 0;
        int archives = 0;
        int commandLines = 0;
        int cut = 0;
        int n = 0;
        for (String row : Files.readAllLines(corpus.resolve("cases.tsv"))) {
            if (row.startsWith("#") || row.isBlank()) continue;
            String[] f = row.split("\t");
            String kind = f[0];
            String input = f[1];
            String expected = f[2];
            Path mnt = tmp.resolve("mnt-" + ++n);
            Path log = tmp.resolve("run-" + n + ".log");
            switch (kind) {
                case "vault" -> {
                    Path dir = tmp.resolve("vault-" + n);
                    copy(corpus.resolve("vault").resolve(input), dir);
                    String problem = refused(run(log, "vault", dir.toString(), mnt.toString(), "--passfile", pass.toString()), expected,
                            "vault " + input, mnt);
                    if (problem != null) failed.add(problem);
                    vaults++;
                }
                case "command" -> {
                    String[] args = input.replace("{mnt}", mnt.toString()).replace("{tmp}", tmp.toString()).split(" ");
                    String problem = refused(run(log, args), expected, input, mnt);
                    if (problem != null) failed.add(problem);
                    commandLines++;
                }
                case "zip" -> {
                    String problem = archive(corpus.resolve("zip").resolve(input), expected, mnt, log);
                    if (problem != null) failed.add("zip " + input + ": " + problem);
                    archives++;
                }
                case "cipher" -> {
                    String problem = cutShort(corpus.resolve("cipher").resolve(input), expected, mnt, log, pass);
                    if (problem != null) failed.add("cipher " + input + ": " + problem);
                    cut++;
                }
                default -> failed.add("cases.tsv: no kind " + kind);
            }
        }
        assertEquals(List.of(), failed, "each hostile input answered as cases.tsv says");
        Path summary = Files.createDirectories(Path.of("target", "stress")).resolve(getClass().getSimpleName() + ".summary");
        Files.writeString(summary, String.format("hostile corpus: %d vault configurations, %d command lines refused in one line with"
                + " exit status 2; %d archives served without their bad entries, one warning each, or refused; %d vault of files"
                + " cut short: EIO, its other files read%n", vaults, commandLines, archives, cut),
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Serves {@code archive}: null if it lists {@code expected} ("NAMES | WARNINGS", or "refused: WORDS"). */
    private String archive(Path archive, String expected, Path mnt, Path log) throws Exception {
        if (expected.startsWith("refused: ")) {
            return refused(run(log, "zip", archive.toString(), mnt.toString()), expected.substring("refused: ".length()), "refused", mnt);
        }
        String[] want = expected.split(" \\| ");
        Process p = new ProcessBuilder(ChildJvm.command(Main.class, "zip", archive.toString(), mnt.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(mounted(mnt) && Files.readString(log).contains(" mounted at "))) {
                if (!p.isAlive()) return "exited " + p.exitValue() + " instead of serving: " + Files.readString(log);
                if (System.nanoTime() > deadline) return "not served within 60 s: " + Files.readString(log);
                Thread.sleep(50);
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 3; i++) { // listed again and again: still one warning per entry
                names.clear();
                list(mnt, "", names);
            }
            names.sort(null);
            if (!String.join(" ", names).equals(want[0])) return "lists " + names + ", expected " + want[0];
            if (Files.exists(mnt.resolve("good.txt")) && !Files.readString(mnt.resolve("good.txt")).equals("good\n")) {
                return "good.txt does not read back";
            }
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) return "did not stop cleanly: " + Files.readString(log);
            long warnings = Files.readAllLines(log).stream().filter(l -> l.contains(" WARN ")).count();
            if (warnings != Long.parseLong(want[1])) return warnings + " warnings, expected " + want[1] + ": " + Files.readString(log);
            return null;
        } finally {
            stop(p, mnt);
        }
    }

    /** Every name under {@code dir}, as paths relative to the top ({@code sub/inner.txt}), as {@code find} walks. */
    private static void list(Path top, String relative, List<String> names) {
        Path dir = relative.isEmpty() ? top : top.resolve(relative);
        for (byte[] b : Os.listBytes(dir)) {
            String s = new String(b, StandardCharsets.UTF_8);
            if (s.equals(".") || s.equals("..")) continue;
            String path = relative.isEmpty() ? s : relative + "/" + s;
            names.add(path);
            if (Files.isDirectory(top.resolve(path), LinkOption.NOFOLLOW_LINKS)) list(top, path, names);
        }
    }

    /** Serves the vault {@code dir}: the files named before "|" read, those after answer EIO. */
    private String cutShort(Path dir, String expected, Path mnt, Path log, Path pass) throws Exception {
        Path copy = tmp.resolve("cut-" + dir.getFileName());
        copy(dir, copy);
        String[] want = expected.split(" \\| ");
        Process p = new ProcessBuilder(ChildJvm.command(Main.class, "vault", copy.toString(), mnt.toString(), "--passfile",
                pass.toString())).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(mounted(mnt) && Files.readString(log).contains(" mounted at "))) {
                if (!p.isAlive()) return "exited " + p.exitValue() + " instead of serving: " + Files.readString(log);
                if (System.nanoTime() > deadline) return "not served within 60 s: " + Files.readString(log);
                Thread.sleep(50);
            }
            for (String name : want[0].split(" ")) {
                if (!Files.isReadable(mnt.resolve(name))) return name + " is not there";
                Files.readAllBytes(mnt.resolve(name));
            }
            for (String name : want[1].split(" ")) {
                int fd = Os.open(Os.bytes(mnt.resolve(name)), Posix.O_RDONLY, 0);
                if (fd >= 0) {
                    byte[] got;
                    try {
                        got = Os.pread(fd, 1 << 16, 0);
                    } catch (Os.OsException e) {
                        got = null;
                        if (e.errno != Errno.EIO) return name + ": " + Errno.name(e.errno) + ", expected EIO";
                    } finally {
                        Os.close(fd);
                    }
                    if (got != null) return name + " reads " + got.length + " bytes, expected EIO";
                } else if (fd != -Errno.EIO) {
                    return name + ": " + Errno.name(-fd) + ", expected EIO";
                }
            }
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) return "did not stop cleanly: " + Files.readString(log);
            long errors = Files.readAllLines(log).stream().filter(l -> l.contains(" ERROR ") && l.contains("cut short")).count();
            if (errors != want[1].split(" ").length) return errors + " log lines about files cut short: " + Files.readString(log);
            return null;
        } finally {
            stop(p, mnt);
        }
    }

    private static void stop(Process p, Path mnt) throws Exception {
        if (p.isAlive()) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        if (mounted(mnt)) {
            new ProcessBuilder("fusermount3", "-u", "-z", mnt.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
