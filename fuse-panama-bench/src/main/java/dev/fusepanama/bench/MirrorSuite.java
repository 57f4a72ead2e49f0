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
 * The Java mirror (fuse-panama-examples' {@code InodeMirror}) without kernel passthrough against
 * libfuse's own {@code passthrough_hp} without it, both on libfuse 3.18 (native/build-libfuse318.sh):
 * the mirror serving every read and write itself, against its C counterpart on the same low-level
 * API, with and without splice, over one tmpfs source. Needs root (the tmpfs mount).
 */
final class MirrorSuite implements Suite {
    private static final long DATA_BYTES = 1L << 30;

    static final String JAVA = "Java mirror";
    static final String HP = "passthrough_hp";
    static final String HP_NO_SPLICE = "passthrough_hp --nosplice";

    private final List<List<Filesystem>> pairs;
    private final String libfuse;

    private MirrorSuite(List<List<Filesystem>> pairs, String libfuse) {
        this.pairs = pairs;
        this.libfuse = libfuse;
    }

    /**
     * Mounts the source (a tmpfs of 3 GiB: the 1 GiB file {@code data}, a {@code file}, and a
     * scratch directory {@code w<i>} with a {@code file} in it per filesystem, where the 1 MiB
     * writes leave up to 256 MiB each) and describes the four filesystems over it.
     */
    static MirrorSuite open(Cleanup cleanup) throws Exception {
        Path src = tmpfsSource(cleanup);
        PassthroughSuite.Mirrors m = PassthroughSuite.Mirrors.onNewestLibfuse(Compare.repo());
        List<String> mirror = m.java("--no-passthrough");
        // Caches off as in the mirror (timeouts 0).
        List<String> c = m.passthroughHp("--foreground", "--nocache", "--nopassthrough");
        List<List<Filesystem>> groups = List.of(List.of(
                new Filesystem(JAVA, command(mirror, "", src), scratch(src, 0)),
                new Filesystem(HP, command(c, "", src), scratch(src, 1)),
                new Filesystem(HP_NO_SPLICE, command(c, "--nosplice", src), scratch(src, 2))));
        return new MirrorSuite(groups, m.version());
    }

    /**
     * A tmpfs of 3 GiB at a new directory, unmounted by {@code cleanup} once the filesystems that
     * hold it open have ended, with the 1 GiB file {@code data} of random bytes and a {@code file}.
     */
    static Path tmpfsSource(Cleanup cleanup) throws Exception {
        Path src = tmpfs(cleanup, "bench-mirror", "3g");
        writeRandom(src.resolve("data"), DATA_BYTES);
        Files.writeString(src.resolve("file"), "x\n");
        return src;
    }

    /**
     * An empty tmpfs of {@code size} named {@code name} at a new directory, unmounted by
     * {@code cleanup} once the filesystems that hold it open have ended. Needs root.
     */
    static Path tmpfs(Cleanup cleanup, String name, String size) throws Exception {
        Path work = Files.createTempDirectory(name + "-");
        cleanup.add(() -> deleteTree(work));
        Path src = Files.createDirectory(work.resolve("src"));
        run("mount", "-t", "tmpfs", "-o", "size=" + size, name, src.toString());
        // Unmounted once the filesystems, which hold it open, have ended (they are added later, so closed first).
        cleanup.add(() -> {
            if (!Files.readString(Path.of("/proc/self/mounts")).contains(" " + src + " ")) return;
            try {
                run("umount", src.toString());
            } catch (IOException busy) {
                run("umount", "-l", src.toString());
            }
        });
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
        if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed (the mirror suites need root): " + out);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @Override
    public String heading() {
        return "## Mirror against passthrough_hp, without kernel passthrough (`--suite mirror`)";
    }

    @Override
    public String libfuse() {
        return libfuse;
    }

    @Override
    public String settings() {
        return "libfuse " + libfuse + " (Debian sid's, built by scripts/libfuse-versions.sh) for both, over one tmpfs (a 1 GiB "
                + "file of random bytes), both on the low-level API with timeouts 0 and no kernel passthrough: the Java mirror "
                + "`Main mirror --no-passthrough` (reads and writes through its memory; -XX:+UseSerialGC -Xmx32m), "
                + "libfuse's passthrough_hp `--nocache --nopassthrough` (reads and writes spliced), and the same with "
                + "`--nosplice`. Client: native/fsclient; reads start uncached (`--uncached`); writes and the first create row "
                + "in each filesystem's own directory, the last row in the top directory. Java / C: throughput (higher is "
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
        return List.of(new Column.Median(JAVA), new Column.Median(HP), new Column.Median(HP_NO_SPLICE),
                ratio("Java / passthrough_hp", JAVA, HP), ratio("Java / passthrough_hp --nosplice", JAVA, HP_NO_SPLICE));
    }

    @Override
    public List<Column> cpuColumns() {
        return columns();
    }
}
