package dev.fusepanama.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The Java client's workloads as JMH benchmarks against any mounted bench tree, whichever binding
 * serves it: start a filesystem (see the README), then
 * {@code java -cp ... org.openjdk.jmh.Main MountedTreeBench -p mount=MOUNTPOINT}. The filesystem
 * runs in its own process; this JVM is only the client. {@code compare} runs the same workloads in
 * interleaved rounds over all filesystems at once; this is for looking at one of them with JMH's
 * profilers ({@code -prof gc}, {@code -prof perfnorm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MountedTreeBench {
    /** The mountpoint of a bench tree filesystem. */
    @Param("")
    public String mount;

    Path root;
    private final AtomicLong names = new AtomicLong();

    @Setup(Level.Trial)
    public void check() throws IOException {
        root = Path.of(mount);
        if (mount.isEmpty() || !Files.isRegularFile(root.resolve("data.bin"))) {
            throw new IllegalStateException("-p mount=MOUNTPOINT must name a mounted bench tree, not '" + mount + "'");
        }
    }

    /** One reader per benchmark thread: an open data.bin and its own random offsets. */
    @State(Scope.Thread)
    public static class Reader {
        FileChannel data;
        final ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        final SplittableRandom random = new SplittableRandom(42);

        @Setup(Level.Trial)
        public void open(MountedTreeBench b) throws IOException {
            data = FileChannel.open(b.root.resolve("data.bin"), StandardOpenOption.READ);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            data.close();
        }
    }

    @Benchmark
    public long listSmall() throws IOException {
        return TreeWorkloads.listDir(root.resolve("small"), 1);
    }

    @Benchmark
    public long listBig() throws IOException {
        return TreeWorkloads.listDir(root.resolve("big"), 1);
    }

    @Benchmark
    public long lsLongBig() throws IOException {
        long size = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root.resolve("big"))) {
            for (Path p : s) size += Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size();
        }
        return size;
    }

    @Benchmark
    public BasicFileAttributes lstat() throws IOException {
        return Files.readAttributes(root.resolve("small/file-3"), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    @Benchmark
    public int randomRead4k(Reader r) throws IOException {
        r.buf.clear();
        return r.data.read(r.buf, (long) r.random.nextInt((int) (BenchTree.DATA_SIZE / 4096)) * 4096);
    }

    @Benchmark
    public void createWriteUnlink(Blackhole bh) throws IOException {
        // Distinct names across threads and iterations, as the other clients use.
        bh.consume(TreeWorkloads.createWriteUnlink(root.resolve("w"), 1, "jmh-" + names.incrementAndGet() + "-"));
    }
}
