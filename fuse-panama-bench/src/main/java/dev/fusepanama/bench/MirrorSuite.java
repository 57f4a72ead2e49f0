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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The Java path-API mirror (fuse-panama-examples' {@code MirrorFileSystem}, {@code mirror --path-api}) against the C pass-through
 * (native/mirrorfs.c), in three pairs, over one tmpfs source. Needs root (the tmpfs mount).
 */
final class MirrorSuite implements Suite {
    private static final long DATA_BYTES = 1L << 30;

    private final List<List<Filesystem>> pairs;

    private MirrorSuite(List<List<Filesystem>> pairs) {
        this.pairs = pairs;
    }

    /**
     * Mounts the source (a tmpfs of 3 GiB: the 1 GiB file {@code data}, a {@code file}, and a
     * scratch directory {@code w<i>} with a {@code file} in it per filesystem, where the 1 MiB
     * writes leave up to 256 MiB each) and describes the six filesystems over it.
     */
    static MirrorSuite open(Cleanup cleanup) throws Exception {
        Path src = tmpfsSource(cleanup);

        String java = ProcessHandle.current().info().command().orElseThrow();
        // The Java mirror runs as root, so its default containment is the private mount; it is asked
        // for explicitly, so that a run fails rather than measure something else.
        List<String> mirror = List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx32m",
                Compare.FIXED_COMPILER_THREADS, "-cp", System.getProperty("java.class.path"), "dev.fusepanama.examples.Main", "mirror", "--path-api");
        String c = Compare.repo().resolve("native/build/mirrorfs3").toString();
        String[][] pairs = {
            // --no-passthrough: the splice path is what this suite compares, whatever libfuse is loaded.
            {"Java splice", "--containment PRIVATE_MOUNT --no-passthrough", "C splice", ""},
            {"Java no splice", "--containment PRIVATE_MOUNT --no-splice", "C no splice", "--no-splice"},
            // The containment a mirror without CAP_SYS_ADMIN gets, in Java and in C.
            {"Java openat2 splice", "--containment OPENAT2 --no-passthrough", "C openat2 splice", "--contained"},
        };
        List<List<Filesystem>> groups = new ArrayList<>();
        int i = 0;
        for (String[] p : pairs) {
            groups.add(List.of(
                    new Filesystem(p[0], command(mirror, p[1], src), scratch(src, i++)),
                    new Filesystem(p[2], command(List.of(c), p[3], src), scratch(src, i++))));
        }
        return new MirrorSuite(groups);
    }

    /**
     * A tmpfs of 3 GiB at a new directory, unmounted by {@code cleanup} once the filesystems that
     * hold it open have ended, with the 1 GiB file {@code data} of random bytes and a {@code file}.
     */
    static Path tmpfsSource(Cleanup cleanup) throws Exception {
        Path work = Files.createTempDirectory("bench-mirror-");
        cleanup.add(() -> deleteTree(work));
        Path src = Files.createDirectory(work.resolve("src"));
        run("mount", "-t", "tmpfs", "-o", "size=3g", "bench-mirror", src.toString());
        // Unmounted once the filesystems, which hold it open, have ended (they are added later, so closed first).
        cleanup.add(() -> {
            if (!Files.readString(Path.of("/proc/self/mounts")).contains(" " + src + " ")) return;
            try {
                run("umount", src.toString());
            } catch (IOException busy) {
                run("umount", "-l", src.toString());
            }
        });
        writeRandom(src.resolve("data"), DATA_BYTES);
        Files.writeString(src.resolve("file"), "x\n");
        return src;
    }

    private static List<String> command(List<String> program, String options, Path src) {
        List<String> cmd = new ArrayList<>(program);
        if (!options.isEmpty()) cmd.addAll(List.of(options.split(" ")));
        cmd.add(src.toString());
        return cmd;
    }

    /** Filesystem {@code i}'s own scratch directory {@code w<i>}, with a {@code file} in it. */
    static String scratch(Path src, int i) throws IOException {
        Path w = Files.createDirectory(src.resolve("w" + i));
        Files.writeString(w.resolve("file"), "x\n");
        return w.getFileName().toString();
    }

    private static void writeRandom(Path file, long bytes) throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < bytes; done += chunk.length) {
                ThreadLocalRandom.current().nextBytes(chunk);
                ch.write(ByteBuffer.wrap(chunk));
            }
        }
    }

    private static void run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed (the mirror suite needs root): " + out);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @Override
    public String heading() {
        return "## Mirror against the C pass-through (`--suite mirror`)";
    }

    @Override
    public String settings() {
        return "Over one tmpfs (a 1 GiB file of random bytes), both with default_permissions, timeouts 0, hard_remove, "
                + "nullpath_ok, use_ino and auto_inval_data; the Java mirror with -XX:+UseSerialGC -Xmx32m. Pairs: splice "
                + "(read_buf/write_buf), Java with `--containment PRIVATE_MOUNT`, C without containment; the same with "
                + "`--no-splice`; splice with openat2 containment (Java `--containment OPENAT2`, C `--contained`). Client: "
                + "native/fsclient; reads start uncached (`--uncached`); writes and the first create row in each filesystem's "
                + "own directory, the last row in the top directory (no containment to pay). Java / C: throughput (higher is "
                + "better) or CPU (lower is better).";
    }

    @Override
    public List<List<Filesystem>> groups() {
        return pairs;
    }

    @Override
    public List<Metric> metrics() {
        return METRICS;
    }

    /** The workloads; counts are at scale 1. */
    static final List<Metric> METRICS = List.of(
            new Metric("sequential read 1 MiB", "MB/s", true, 1 << 20, 1024, (r, w, n) -> FsClient.run(true, "seqread", r, n, null)),
            new Metric("sequential write 1 MiB", "MB/s", true, 1 << 20, 1024, (r, w, n) -> FsClient.run(false, "seqwrite", w, n, null)),
            new Metric("4 KiB random read", "kops/s", true, 0, 20000, (r, w, n) -> FsClient.run(true, "read4k", r, n, null)),
            new Metric("create + write 4 KiB + close + unlink", "kops/s", true, 0, 3000, (r, w, n) -> FsClient.run(false, "create", w, n, null)),
            new Metric("the same in the top directory", "kops/s", true, 0, 3000, (r, w, n) -> FsClient.run(false, "create", r, n, null)));

    @Override
    public List<Column> columns() {
        List<Column> c = new ArrayList<>();
        for (List<Filesystem> pair : pairs) {
            c.add(new Column.Median(pair.get(0).name()));
            c.add(new Column.Median(pair.get(1).name()));
            c.add(ratio("Java / C", pair.get(0).name(), pair.get(1).name()));
        }
        return c;
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
