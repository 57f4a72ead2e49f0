package dev.fusepanama.bench;

import static dev.fusepanama.bench.Suite.Column.ratio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The mirror as a user runs it instead of another pass-through, everyday work over one tmpfs
 * source, each filesystem at its own defaults: the Java mirror ({@code Main mirror}, watching its
 * source, caching what the watch covers), libfuse's {@code passthrough_hp} (a day's timeouts),
 * go-fuse's loopback example (a second's) and Debian's {@code bindfs}; kernel passthrough off for
 * the mirror and passthrough_hp, as on a libfuse before 3.17 or without root, and both again at
 * their real defaults as root on libfuse 3.17+, files passed through to the kernel. After the rounds, a
 * freshness table: how long each takes to show a change another process makes in the source.
 * Needs root (the tmpfs, drop_caches), go (go-fuse's example is installed into the cache) and
 * bindfs ({@code apt-get install bindfs}).
 */
final class EverydaySuite implements Suite {
    static final String JAVA = "Java mirror";
    static final String HP = "passthrough_hp";
    static final String JAVA_PT = "Java mirror, passthrough";
    static final String HP_PT = "passthrough_hp, passthrough";
    static final String GO = "go-fuse loopback";
    static final String BINDFS = "bindfs";
    static final String GO_FUSE = "github.com/hanwen/go-fuse/v2/example/loopback@v2.12.1";
    private static final String TREE = "t";
    private static final String MANY = "many";
    private static final String BIG = "big";
    private static final String ABSENT = "fuse-panama: a string no header has";
    private static final long WAIT_MILLIS = 3000;

    private final Path src;
    private final MemfsSuite.Tarball tarball;
    private final List<Filesystem> filesystems;
    private final String libfuse;

    private EverydaySuite(Path src, MemfsSuite.Tarball tarball, List<Filesystem> filesystems, String libfuse) {
        this.src = src;
        this.tarball = tarball;
        this.filesystems = filesystems;
        this.libfuse = libfuse;
    }

    static EverydaySuite open(Cleanup cleanup, double scale) throws Exception {
        Path src = MirrorSuite.tmpfs(cleanup, "bench-everyday", "3g");
        Path work = Files.createTempDirectory("bench-everyday-work-");
        cleanup.add(() -> MemfsSuite.deleteTree(work));
        MemfsSuite.Tarball tarball = MemfsSuite.tarball(work, scale);
        PassthroughSuite.Mirrors m = PassthroughSuite.Mirrors.onNewestLibfuse(Compare.repo());
        List<String> mirror = new ArrayList<>(m.java("--no-passthrough"));
        mirror.add(src.toString());
        List<String> hp = new ArrayList<>(m.passthroughHp("--foreground", "--nopassthrough"));
        hp.add(src.toString());
        // loopback takes the mountpoint first; FsProcess appends it last.
        List<String> go = List.of("sh", "-c", "exec \"$0\" \"$2\" \"$1\"", goFuseLoopback().toString(), src.toString());
        List<String> bindfs = List.of(onPath("bindfs", "apt-get install bindfs"), "-f", src.toString());
        // Both at their real defaults as root on libfuse 3.17+: files passed through to the kernel.
        List<String> mirrorPt = new ArrayList<>(m.java());
        mirrorPt.add(src.toString());
        List<String> hpPt = new ArrayList<>(m.passthroughHp("--foreground"));
        hpPt.add(src.toString());
        List<Filesystem> fs = new ArrayList<>();
        String[] names = {JAVA, HP, GO, BINDFS, JAVA_PT, HP_PT};
        List<List<String>> commands = List.of(mirror, hp, go, bindfs, mirrorPt, hpPt);
        for (int i = 0; i < names.length; i++) {
            String scratch = MirrorSuite.scratch(src, i);
            Path many = Files.createDirectory(src.resolve(scratch).resolve(MANY));
            for (int k = 0; k < 10_000; k++) Files.createFile(many.resolve(String.format(Locale.ROOT, "f%05d", k)));
            fs.add(new Filesystem(names[i], commands.get(i), scratch));
        }
        return new EverydaySuite(src, tarball, fs, m.version());
    }

    /** go-fuse's loopback example, installed into the cache by {@code go install} the first time. */
    static Path goFuseLoopback() throws Exception {
        Path bin = Path.of(System.getProperty("user.home"), ".cache", "fuse-panama", "go-fuse-v2.12.1");
        Path loopback = bin.resolve("loopback");
        if (Files.isExecutable(loopback)) return loopback;
        Files.createDirectories(bin);
        ProcessBuilder pb = new ProcessBuilder(onPath("go", "a Go toolchain"), "install", GO_FUSE).redirectErrorStream(true);
        pb.environment().put("GOBIN", bin.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || !Files.isExecutable(loopback)) throw new IOException("go install " + GO_FUSE + " failed: " + out);
        return loopback;
    }

    private static String onPath(String program, String install) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/local/go/bin:/usr/bin:/usr/sbin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(p)) return p.toString();
        }
        throw new IllegalStateException(program + " is not installed: the everyday suite needs it (" + install + ")");
    }

    @Override
    public List<Metric> metrics() {
        String tar = tarball.file().toString();
        return List.of(
                new Metric("tar -xf of /usr/include", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "tar", "-xf", tar, "-C", TREE),
                        (r, w, n) -> Files.createDirectory(w.resolve(TREE)), Step.NOTHING),
                new Metric("find -ls, first (caches dropped)", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "find", TREE, "-ls"),
                        (r, w, n) -> CryptomatorSuite.dropCaches(), Step.NOTHING),
                new Metric("find -ls again", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "find", TREE, "-ls"),
                        (r, w, n) -> MemfsSuite.exec(w, "find", TREE, "-ls"), Step.NOTHING),
                new Metric("grep -r, first (caches dropped)", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "grep", "-r", "-F", ABSENT, TREE),
                        (r, w, n) -> CryptomatorSuite.dropCaches(), Step.NOTHING),
                new Metric("grep -r again", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "grep", "-r", "-F", ABSENT, TREE),
                        (r, w, n) -> MemfsSuite.exec(w, "grep", "-r", "-F", ABSENT, TREE), Step.NOTHING),
                new Metric("ls -l of 10,000 entries, second run", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "ls", "-l", MANY),
                        (r, w, n) -> MemfsSuite.exec(w, "ls", "-l", MANY), Step.NOTHING),
                new Metric("100 MiB in 10 KiB writes + fsync (dd)", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "dd", "if=/dev/zero", "of=" + BIG, "bs=10k", "count=10240", "conv=fsync", "status=none"),
                        (r, w, n) -> Files.deleteIfExists(w.resolve(BIG)), Step.NOTHING),
                new Metric("re-read of that file (dd, 1 MiB reads)", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "dd", "if=" + BIG, "of=/dev/null", "bs=1M", "status=none")),
                new Metric("rm -rf of the tree", "ms/op", false, 0, 1,
                        (r, w, n) -> MemfsSuite.timed(w, "rm", "-rf", TREE)));
    }

    /** The freshness table: each change made in the source, and when each mount shows it. */
    @Override
    public String afterRounds(List<FsProcess> running, double scale) throws Exception {
        List<String> kinds = List.of("overwrite", "write inside a cached file", "create", "rename", "unlink", "chmod", "truncate");
        StringBuilder sb = new StringBuilder(Report.wrap("Freshness: a change made in the source by another process (sh), and the "
                + "time from its end until the mount shows it (polled every 2 ms, the file read and stat'ed through the mount "
                + "first so that the kernel holds it), median of 3 [lowest-highest] in ms; \"never\" where it was not seen within "
                + WAIT_MILLIS / 1000 + " s (a cache timeout longer than that)."))
                .append("\n\n| change |");
        for (FsProcess fs : running) sb.append(' ').append(fs.name()).append(" |");
        sb.append("\n|---|").append("---:|".repeat(running.size())).append('\n');
        for (String kind : kinds) {
            sb.append("| ").append(kind).append(" |");
            for (FsProcess fs : running) {
                List<Double> ms = new ArrayList<>();
                for (int i = 0; i < 3; i++) ms.add(freshness(fs, kind, i));
                sb.append(' ').append(range(ms)).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String range(List<Double> ms) {
        List<Double> sorted = ms.stream().sorted().toList();
        if (sorted.get(sorted.size() / 2) < 0) return "never";
        String low = sorted.get(0) < 0 ? "never" : String.format(Locale.ROOT, "%.0f", sorted.get(0));
        String high = sorted.get(sorted.size() - 1) < 0 ? "never" : String.format(Locale.ROOT, "%.0f", sorted.get(sorted.size() - 1));
        return String.format(Locale.ROOT, "%.0f [%s-%s]", sorted.get(sorted.size() / 2), low, high);
    }

    /** Milliseconds until {@code fs} shows a change of {@code kind}, or -1 if it does not within the wait. */
    private double freshness(FsProcess fs, String kind, int attempt) throws Exception {
        String name = "fresh-" + kind.replace(' ', '-') + "-" + attempt;
        Path inSource = src.resolve(fs.filesystem().scratch()).resolve(name);
        Path inMount = fs.mountpoint().resolve(fs.filesystem().scratch()).resolve(name);
        Files.writeString(inSource, "0123456789\n");
        Files.readString(inMount);
        Files.readAttributes(inMount, "unix:*");
        Files.readString(inMount);
        Path renamed = inSource.resolveSibling(name + "-renamed");
        Path renamedInMount = inMount.resolveSibling(name + "-renamed");
        Path created = inSource.resolveSibling(name + "-new");
        Path createdInMount = inMount.resolveSibling(name + "-new");
        Files.exists(createdInMount); // a miss the kernel may cache
        String command;
        Callable<Boolean> shown;
        switch (kind) {
            case "overwrite" -> {
                command = "printf 'new content\\n' > " + inSource;
                shown = () -> Files.readString(inMount).equals("new content\n");
            }
            case "write inside a cached file" -> {
                command = "printf XY | dd of=" + inSource + " bs=1 seek=3 conv=notrunc status=none";
                shown = () -> Files.readString(inMount).equals("012XY56789\n");
            }
            case "create" -> {
                command = "echo new > " + created;
                shown = () -> Files.exists(createdInMount);
            }
            case "rename" -> {
                command = "mv " + inSource + " " + renamed;
                shown = () -> Files.exists(renamedInMount) && !Files.exists(inMount);
            }
            case "unlink" -> {
                command = "rm " + inSource;
                shown = () -> !Files.exists(inMount);
            }
            case "chmod" -> {
                command = "chmod 600 " + inSource;
                shown = () -> PosixFilePermissions.toString(Files.getPosixFilePermissions(inMount)).equals("rw-------");
            }
            case "truncate" -> {
                command = "truncate -s 4 " + inSource;
                shown = () -> Files.size(inMount) == 4 && Files.readString(inMount).equals("0123");
            }
            default -> throw new IllegalArgumentException(kind);
        }
        Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
        if (p.waitFor() != 0) throw new IOException(command + " failed");
        long t0 = System.nanoTime();
        double result = -1;
        while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS)) {
            boolean ok;
            try {
                ok = shown.call();
            } catch (NoSuchFileException notYet) {
                ok = false;
            }
            if (ok) {
                result = (System.nanoTime() - t0) / 1e6;
                break;
            }
            Thread.sleep(2);
        }
        for (Path p2 : List.of(inSource, renamed, created)) Files.deleteIfExists(p2);
        return result;
    }

    @Override
    public String heading() {
        return "## The mirror at defaults against passthrough_hp, go-fuse and bindfs: everyday work (`--suite everyday`)";
    }

    @Override
    public String libfuse() {
        return libfuse;
    }

    @Override
    public String settings() {
        return "Each filesystem at its own defaults over one tmpfs: the Java mirror `Main mirror --no-passthrough` (libfuse "
                + libfuse + ", watching the source, caching for a day what the watch covers; -XX:+UseSerialGC -Xmx32m), libfuse's "
                + "passthrough_hp `--nopassthrough` (libfuse " + libfuse + ": timeouts of a day, keep_cache, cached listings, "
                + "the writeback cache), go-fuse's loopback example (" + GO_FUSE.substring(GO_FUSE.indexOf('@') + 1) + ": timeouts of "
                + "1 s; as root it passes files through to the kernel), bindfs (Debian's, libfuse's high-level API). Kernel "
                + "passthrough is off for the first mirror and passthrough_hp, as without root or before libfuse 3.17; the "
                + "last two columns are both at their real defaults as root on libfuse 3.17+, files passed through. Rows: the tar of /usr/include (" + tarball.entries() + " entries, "
                + String.format(Locale.ROOT, "%.0f MB", tarball.bytes() / 1e6) + ") unpacked into a new directory; find -ls and "
                + "grep -r over it, after `echo 3 > /proc/sys/vm/drop_caches` and again right after an untimed run; ls -l of a "
                + "directory of 10,000 empty files, after an untimed run; dd of 100 MiB in 10 KiB writes with conv=fsync, and "
                + "of the same file to /dev/null in 1 MiB reads; rm -rf of the tree. Times in ms, lower is better; ratios "
                + "paired per round, against the better median of passthrough_hp and go-fuse on the row (with passthrough: of "
                + "passthrough_hp with passthrough and go-fuse).";
    }

    @Override
    public List<List<Filesystem>> groups() {
        return List.of(filesystems);
    }

    @Override
    public List<Column> columns() {
        return List.of(new Column.Median(JAVA), new Column.Median(HP), new Column.Median(GO), new Column.Median(BINDFS),
                new Column.Median(JAVA_PT), new Column.Median(HP_PT),
                ratio("Java / better of passthrough_hp and go-fuse", JAVA, HP, GO), ratio("Java / bindfs", JAVA, BINDFS),
                ratio("Java, passthrough / better of passthrough_hp, passthrough and go-fuse", JAVA_PT, HP_PT, GO));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
