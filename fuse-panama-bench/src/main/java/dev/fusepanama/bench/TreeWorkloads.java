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
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The workloads on a mounted bench tree ({@link BenchTree}): the Java client's, shared by the
 * comparison's suites and the JMH client ({@link MountedTreeBench}), each returning the number of
 * operations it did, and the list of them and native/fsclient's that the suites run ({@link #METRICS}).
 */
final class TreeWorkloads {
    private TreeWorkloads() {}

    /**
     * The workloads every suite of the bench tree runs ({@link TreeSuite}, {@link InodeSuite}),
     * this JVM's and native/fsclient's; counts are at scale 1.
     */
    static final List<Suite.Metric> METRICS = List.of(
            wall("Files.list /small (8 entries)", "us/op", false, 0, 200, (r, w, n) -> listDir(r.resolve("small"), n)),
            wall("Files.list /big (10,000 entries)", "ms/op", false, 0, 2, (r, w, n) -> listDir(r.resolve("big"), n)),
            wall("ls -l /big (readdir + lstat each)", "ms/op", false, 0, 1, (r, w, n) -> lsLong(r.resolve("big"), n)),
            wall("lstat of one file", "us/op", false, 0, 1000, (r, w, n) -> lstat(r.resolve("small/file-3"), n)),
            wall("sequential read 128 KiB, buffered", "MB/s", true, 128 << 10, 256,
                    (r, w, n) -> seqRead(r.resolve("data.bin"), 128 << 10, false, n)),
            wall("sequential read 1 MiB, buffered", "MB/s", true, 1 << 20, 32,
                    (r, w, n) -> seqRead(r.resolve("data.bin"), 1 << 20, false, n)),
            wall("sequential read 128 KiB, O_DIRECT", "MB/s", true, 128 << 10, 256,
                    (r, w, n) -> seqRead(r.resolve("data.bin"), 128 << 10, true, n)),
            wall("sequential read 1 MiB, O_DIRECT", "MB/s", true, 1 << 20, 32,
                    (r, w, n) -> seqRead(r.resolve("data.bin"), 1 << 20, true, n)),
            wall("4 KiB random read, 1 thread", "kIOPS", true, 0, 1000, (r, w, n) -> randomReads(r.resolve("data.bin"), 1, n)),
            wall("4 KiB random read, 2 threads", "kIOPS", true, 0, 1000, (r, w, n) -> randomReads(r.resolve("data.bin"), 2, n)),
            wall("create + write 4 KiB + close + unlink", "kops/s", true, 0, 100, (r, w, n) -> createWriteUnlink(w, n)),
            wall("sequential write 1 MiB", "MB/s", true, 1 << 20, 16, (r, w, n) -> seqWrite(w, n)),
            new Suite.Metric("C client: Files.list /small", "us/op", false, 0, 200, (r, w, n) -> FsClient.run(false, "list", r.resolve("small"), n, null)),
            new Suite.Metric("C client: lstat of one file", "us/op", false, 0, 2000, (r, w, n) -> FsClient.run(false, "stat", r.resolve("small"), n, "file-3")),
            new Suite.Metric("C client: sequential read 128 KiB, O_DIRECT", "MB/s", true, 128 << 10, 256,
                    (r, w, n) -> FsClient.run(false, "direct128", r, n, "data.bin")),
            new Suite.Metric("C client: 4 KiB random read", "kIOPS", true, 0, 2000, (r, w, n) -> FsClient.run(false, "read4k", r, n, "data.bin")),
            new Suite.Metric("C client: create + write 4 KiB + close + unlink", "kops/s", true, 0, 200,
                    (r, w, n) -> FsClient.run(false, "create", w, n, null)));

    /** A workload of this JVM's client, timed with the wall clock. */
    interface Counted {
        long run(Path root, Path scratch, long ops) throws Exception;
    }

    private static Suite.Metric wall(String name, String unit, boolean throughput, long bytesPerOp, long ops, Counted work) {
        return new Suite.Metric(name, unit, throughput, bytesPerOp, ops, (r, w, n) -> {
            long t0 = System.nanoTime();
            long done = work.run(r, w, n);
            return new long[] {done, System.nanoTime() - t0};
        });
    }

    static long listDir(Path dir, long times) throws IOException {
        for (long i = 0; i < times; i++) {
            try (Stream<Path> s = Files.list(dir)) {
                s.forEach(x -> { });
            }
        }
        return times;
    }

    /** {@code ls -l}: a listing and an lstat of every entry; one operation per listing. */
    static long lsLong(Path dir, long times) throws IOException {
        for (long i = 0; i < times; i++) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                for (Path p : s) Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
        }
        return times;
    }

    static long lstat(Path file, long times) throws IOException {
        for (long i = 0; i < times; i++) Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return times;
    }

    /** {@code chunks} reads of {@code chunk} bytes after one another, wrapping at the end of the data file. */
    static long seqRead(Path file, int chunk, boolean direct, long chunks) throws IOException {
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(chunk + 4096).alignedSlice(4096).limit(chunk) : ByteBuffer.allocateDirect(chunk);
        StandardOpenOption read = StandardOpenOption.READ;
        try (FileChannel ch = direct ? FileChannel.open(file, read, ExtendedOpenOption.DIRECT) : FileChannel.open(file, read)) {
            long done = 0;
            while (done < chunks * chunk) {
                buf.clear();
                int n = ch.read(buf, done % BenchTree.DATA_SIZE);
                if (n <= 0) break;
                done += n;
            }
            return done / chunk;
        }
    }

    /** 4 KiB reads at random aligned offsets, {@code ops} in all, shared by {@code threads} threads. */
    static long randomReads(Path file, int threads, long ops) throws Exception {
        long perThread = Math.max(1, ops / threads);
        Thread[] ts = new Thread[threads];
        Exception[] failure = new Exception[1];
        for (int t = 0; t < threads; t++) {
            int seed = t;
            ts[t] = Thread.ofPlatform().start(() -> {
                Random r = new Random(seed);
                ByteBuffer buf = ByteBuffer.allocateDirect(4096);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    for (long i = 0; i < perThread; i++) {
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
        return threads * perThread;
    }

    static long createWriteUnlink(Path dir, long times) throws IOException {
        return createWriteUnlink(dir, times, "cwu-");
    }

    /** Create, write 4 KiB, close, unlink, {@code times} times, with names starting with {@code prefix}. */
    static long createWriteUnlink(Path dir, long times, String prefix) throws IOException {
        ByteBuffer data = ByteBuffer.allocateDirect(4096);
        for (long i = 0; i < times; i++) {
            Path f = dir.resolve(prefix + i);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(data.clear());
            }
            Files.delete(f);
        }
        return times;
    }

    /** {@code mib} writes of 1 MiB to a new file, which is then removed. */
    static long seqWrite(Path dir, long mib) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        Path f = dir.resolve("seqwrite");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long i = 0; i < mib; i++) ch.write(chunk.clear());
        }
        Files.delete(f);
        return mib;
    }
}
