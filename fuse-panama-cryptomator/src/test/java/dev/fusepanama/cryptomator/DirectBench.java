package dev.fusepanama.cryptomator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The ceiling of fuse-panama-bench's cryptomator suite: its rows' work done directly through
 * cryptofs's NIO API in this one JVM, no FUSE, on a fresh vault in /dev/shm. {@code DirectBench
 * ROUNDS} prints one line per row, {@code ROW name|unit|median|lowest|highest}: a 512 MiB write in
 * 1 MiB writes with force, reading it back through a new channel, 20,000 4 KiB random reads of a
 * 64 MiB file, a copy of /usr/include into the vault (what the unpack does: directories, files,
 * modification times), a walk reading every entry's posix attributes (find -ls) and reading
 * every file to its end (grep -r). A round runs every row once; the first round warms up.
 */
public final class DirectBench {
    private static final Path INCLUDE = Path.of("/usr/include");

    private DirectBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Path vault = Files.createTempDirectory(Path.of("/dev/shm"), "bench-direct-");
        String[] names = {"write 512 MiB (1 MiB writes, force)|MB/s", "read it back (1 MiB reads)|MB/s",
            "4 KiB random reads of a 64 MiB file|us/op", "copy /usr/include in (the unpack's work)|ms/op",
            "walk it, reading posix attributes (find -ls)|ms/op", "read every file of it (grep -r)|ms/op"};
        List<double[]> values = new ArrayList<>();
        try {
            Vaults.create(vault, "bench");
            try (FileSystem fs = Vaults.open(vault, "bench", false)) {
                for (int r = 0; r <= rounds; r++) {
                    double[] v = round(fs.getPath("/"));
                    if (r > 0) values.add(v);
                }
            }
        } finally {
            try (var walk = Files.walk(vault)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
        for (int row = 0; row < names.length; row++) {
            double[] v = new double[values.size()];
            for (int i = 0; i < v.length; i++) v[i] = values.get(i)[row];
            Arrays.sort(v);
            System.out.println("ROW " + names[row] + "|" + v[v.length / 2] + "|" + v[0] + "|" + v[v.length - 1]);
        }
    }

    private static double[] round(Path root) throws IOException {
        double[] v = new double[6];
        Path big = root.resolve("big");
        ByteBuffer mib = ByteBuffer.allocateDirect(1 << 20);
        long t = System.nanoTime();
        try (FileChannel c = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 512; i++) {
                mib.clear();
                while (mib.hasRemaining()) c.write(mib);
            }
            c.force(true);
        }
        v[0] = 512 * (1 << 20) / ((System.nanoTime() - t) / 1e9) / 1e6;
        t = System.nanoTime();
        try (FileChannel c = FileChannel.open(big, StandardOpenOption.READ)) {
            while (true) {
                mib.clear();
                if (c.read(mib) < 0) break;
            }
        }
        v[1] = 512 * (1 << 20) / ((System.nanoTime() - t) / 1e9) / 1e6;
        Files.delete(big);
        Path random = root.resolve("random");
        try (FileChannel c = FileChannel.open(random, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 64; i++) {
                mib.clear();
                while (mib.hasRemaining()) c.write(mib);
            }
        }
        ByteBuffer page = ByteBuffer.allocateDirect(4096);
        SplittableRandom rnd = new SplittableRandom(42);
        try (FileChannel c = FileChannel.open(random, StandardOpenOption.READ)) {
            t = System.nanoTime();
            for (int i = 0; i < 20_000; i++) {
                page.clear();
                c.read(page, rnd.nextLong(64 * 256) * 4096);
            }
            v[2] = (System.nanoTime() - t) / 20_000 / 1e3;
        }
        Files.delete(random);
        Path tree = root.resolve("tree");
        t = System.nanoTime();
        copyTree(INCLUDE, tree);
        v[3] = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        try (var walk = Files.walk(tree)) {
            walk.forEach(p -> {
                try {
                    Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        v[4] = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        try (var walk = Files.walk(tree)) {
            for (Path p : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                try (FileChannel c = FileChannel.open(p, StandardOpenOption.READ)) {
                    while (true) {
                        mib.clear();
                        if (c.read(mib) < 0) break;
                    }
                }
            }
        }
        v[5] = (System.nanoTime() - t) / 1e6;
        try (var walk = Files.walk(tree)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        return v;
    }

    /** What GNU tar does for each entry of /usr/include: a directory or a file with its data and its modification time. */
    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectory(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(file).toString());
                if (attrs.isSymbolicLink()) {
                    Files.createSymbolicLink(target, target.getFileSystem().getPath(Files.readSymbolicLink(file).toString()));
                } else if (attrs.isRegularFile()) {
                    Files.write(target, Files.readAllBytes(file));
                    Files.setLastModifiedTime(target, attrs.lastModifiedTime());
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
