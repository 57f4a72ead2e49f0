package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Posix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link PosixSuite}: regular files (holes, truncation, appends, unlinked open files, fallocate, SEEK_DATA/SEEK_HOLE, copy_file_range, large and concurrent writes). Extend {@link PosixSuite}, which runs every part; this
 * class only keeps the suite readable by theme.
 */
public abstract class PosixFileChecks extends PosixChecks {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected PosixFileChecks() {}

    // ---- regular files ------------------------------------------------------------------------

    @Test
    void sparseFilesReadZerosInHolesAndGrowOnlyWhereWritten() throws Exception {
        requires(Feature.SPARSE_FILES);
        same((b, log) -> {
            int fd = Os.open(p(b, "sparse"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            log.rc("pwrite far", Os.pwrite(fd, "end".getBytes(), 10 << 20));
            log.value("size", Os.fstat(fd).size());
            log.value("hole", Os.pread(fd, 16, 5 << 20));
            log.value("tail", Os.pread(fd, 16, (10 << 20) - 2));
            log.value("blocks below 64", Os.fstat(fd).blocks() < 64);
            Os.close(fd);
        });
    }

    @Test
    void holesReadAsZeros() throws Exception {
        same((b, log) -> {
            int fd = Os.open(p(b, "holey"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            log.rc("pwrite past the end", Os.pwrite(fd, "end".getBytes(), 100_000));
            log.value("size", Os.fstat(fd).size());
            log.value("hole", Os.pread(fd, 16, 50_000));
            log.value("tail", Os.pread(fd, 16, 99_998));
            Os.close(fd);
        });
    }

    @Test
    void truncateGrowsWithZerosAndShrinksDroppingData() throws Exception {
        same((b, log) -> {
            int fd = Os.open(p(b, "t"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            Os.pwrite(fd, "0123456789".repeat(1000).getBytes(), 0);
            log.rc("shrink", Os.ftruncate(fd, 5));
            log.rc("grow", Os.ftruncate(fd, 10_000));
            log.value("content", Os.pread(fd, 20, 0));
            log.value("size", Os.fstat(fd).size());
            log.rc("truncate by path", Os.truncate(p(b, "t"), 3));
            log.value("after", Os.pread(fd, 20, 0));
            log.rc("negative", Os.ftruncate(fd, -1));
            Os.close(fd);
        });
    }

    @Test
    void appendAndTruncateOnOpen() throws Exception {
        same((b, log) -> {
            byte[] f = p(b, "a");
            int one = Os.open(f, Posix.O_CREAT | Posix.O_WRONLY | Posix.O_APPEND, 0644);
            int two = Os.open(f, Posix.O_WRONLY | Posix.O_APPEND, 0);
            Os.write(one, "first ".getBytes());
            Os.write(two, "second ".getBytes());
            Os.pwrite(one, "third".getBytes(), 0); // O_APPEND ignores the offset on Linux
            Os.close(one);
            Os.close(two);
            log.read("appended", f);
            Os.close(Os.open(f, Posix.O_WRONLY | Posix.O_TRUNC, 0));
            log.read("truncated", f);
            log.rc("exclusive on existing", Os.open(f, Posix.O_CREAT | Posix.O_EXCL | Posix.O_WRONLY, 0644));
            log.rc("open missing", Os.open(p(b, "missing"), Posix.O_RDONLY, 0));
        });
    }

    @Test
    void aRunningProgramCannotBeOpenedForWritingNorTruncatedAndKeepsItsData() throws Exception {
        byte[] original = Files.readAllBytes(Path.of("/bin/sleep"));
        same((b, log) -> {
            Path program = b.resolve("program");
            Files.write(program, original);
            Os.chmod(Os.bytes(program), 0755);
            Process running = new ProcessBuilder(program.toString(), "60").start();
            try {
                for (int flags : new int[] {Posix.O_WRONLY, Posix.O_RDWR, Posix.O_RDONLY | Posix.O_TRUNC,
                        Posix.O_WRONLY | Posix.O_TRUNC}) {
                    int fd = Os.open(Os.bytes(program), flags, 0);
                    log.rc("open with flags 0" + Integer.toOctalString(flags), fd);
                    if (fd >= 0) Os.close(fd);
                }
                log.rc("truncate", Os.truncate(Os.bytes(program), 0));
                log.value("still running", running.isAlive());
                log.value("contents kept", Arrays.equals(original, Files.readAllBytes(program)));
            } finally {
                running.destroyForcibly().waitFor();
            }
        });
    }

    @Test
    void anUnlinkedOpenFileKeepsItsDataUntilTheLastClose() throws Exception {
        requires(Feature.UNLINKED_OPEN_FILES);
        same((b, log) -> {
            Files.createDirectory(b.resolve("d"));
            byte[] f = p(b, "d/f");
            int fd = Os.open(f, Posix.O_CREAT | Posix.O_RDWR, 0644);
            Os.pwrite(fd, "kept".getBytes(), 0);
            log.rc("unlink", Os.unlink(f));
            log.rc("rmdir parent", Os.rmdir(p(b, "d")));
            log.rc("write after unlink", Os.pwrite(fd, "!".getBytes(), 4));
            log.value("read after unlink", Os.pread(fd, 10, 0));
            // Not compared: fstat here. The kernel sends GETATTR without the file handle, and
            // libfuse's high-level API cannot find a removed node's path (ESTALE); see README.
            Os.close(fd);
        });
    }

    @Test
    void fstatAnswersForOpenFilesWhoseNameIsGone() throws Exception {
        requires(Feature.FSTAT_OF_REMOVED_FILES, Feature.UNLINKED_OPEN_FILES, Feature.HARD_LINKS);
        same((b, log) -> {
            byte[] unlinked = p(b, "unlinked");
            int a = Os.open(unlinked, Posix.O_CREAT | Posix.O_RDWR, 0640);
            Os.pwrite(a, "12345".getBytes(), 0);
            log.rc("unlink", Os.unlink(unlinked));
            log.fstat("fstat of the unlinked file", a);
            Os.pwrite(a, "678".getBytes(), 5);
            log.fstat("fstat after writing to it", a);

            byte[] replaced = p(b, "replaced");
            int r = Os.open(replaced, Posix.O_CREAT | Posix.O_RDWR, 0600);
            Os.pwrite(r, "old".getBytes(), 0);
            byte[] newer = p(b, "newer");
            Os.close(Os.open(newer, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            log.rc("rename over it", Os.renameat2(newer, replaced, 0));
            log.fstat("fstat of the renamed-over file", r);
            log.stat("the new file at its name", replaced);

            byte[] one = p(b, "one");
            byte[] two = p(b, "two");
            int l = Os.open(one, Posix.O_CREAT | Posix.O_RDWR, 0644);
            log.rc("link", Os.link(one, two));
            log.fstat("fstat with two names", l);
            log.rc("unlink one name", Os.unlink(one));
            log.fstat("fstat with one name left", l);
            log.stat("the other name", two);
            Os.close(a);
            Os.close(r);
            Os.close(l);
        });
    }

    @Test
    void fallocateKeepSizeAndPunchHole() throws Exception {
        requires(Feature.FALLOCATE);
        same((b, log) -> {
            int fd = Os.open(p(b, "f"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            byte[] ones = new byte[20_000];
            Arrays.fill(ones, (byte) 1);
            Os.pwrite(fd, ones, 0);
            log.rc("allocate", Os.fallocate(fd, 0, 0, 40_000));
            log.value("size", Os.fstat(fd).size());
            log.rc("keep size", Os.fallocate(fd, Posix.FALLOC_FL_KEEP_SIZE, 0, 100_000));
            log.value("size kept", Os.fstat(fd).size());
            log.rc("punch", Os.fallocate(fd, Posix.FALLOC_FL_PUNCH_HOLE | Posix.FALLOC_FL_KEEP_SIZE, 1000, 10_000));
            byte[] after = Os.pread(fd, 20_000, 0);
            log.value("punched zero", after[1000] == 0 && after[10_999] == 0 && after[999] == 1 && after[11_000] == 1);
            log.rc("punch without keep size", Os.fallocate(fd, Posix.FALLOC_FL_PUNCH_HOLE, 0, 10));
            Os.close(fd);
        });
    }

    @Test
    void seekDataAndSeekHole() throws Exception {
        requires(Feature.SEEK_HOLES);
        same((b, log) -> {
            int fd = Os.open(p(b, "s"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            Os.pwrite(fd, new byte[] {1}, 1 << 20);
            Os.pwrite(fd, new byte[] {2}, 0);
            for (long off : new long[] {0, 1, 4096, 500_000, 1 << 20, (1 << 20) + 1}) {
                log.value("data " + off, Os.lseek(fd, off, Posix.SEEK_DATA));
                log.value("hole " + off, Os.lseek(fd, off, Posix.SEEK_HOLE));
            }
            Os.close(fd);
        });
    }

    @Test
    void copyFileRangeCopiesBytes() throws Exception {
        requires(Feature.COPY_FILE_RANGE);
        same((b, log) -> {
            int in = Os.open(p(b, "in"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            Os.pwrite(in, "abcdefghij".repeat(10_000).getBytes(), 0);
            int out = Os.open(p(b, "out"), Posix.O_CREAT | Posix.O_RDWR, 0644);
            log.value("copied", Os.copyFileRange(in, 5, out, 100, 50_000));
            log.value("content", Os.pread(out, 200, 90));
            log.value("size", Os.fstat(out).size());
            Os.close(in);
            Os.close(out);
        });
    }

    @Test
    void aSixtyFourMebibyteFileKeepsItsContent() throws Exception {
        byte[] chunk = new byte[1 << 20];
        MessageDigest written = MessageDigest.getInstance("SHA-256");
        Random r = new Random(64);
        try (var out = Files.newOutputStream(fs.resolve("big"))) {
            for (int i = 0; i < 64; i++) {
                r.nextBytes(chunk);
                written.update(chunk);
                out.write(chunk);
            }
        }
        MessageDigest read = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(fs.resolve("big"))) {
            for (int n; (n = in.read(chunk)) > 0; ) read.update(chunk, 0, n);
        }
        assertArrayEquals(written.digest(), read.digest());
        assertEquals(64L << 20, Files.size(fs.resolve("big")));
    }

    @Test
    void concurrentWritersToDisjointRegionsLoseNothing() throws Exception {
        int threads = 8;
        int perThread = 256 * 1024;
        byte[] f = p(fs, "shared");
        Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            done.add(pool.submit(() -> {
                int fd = Os.open(f, Posix.O_WRONLY, 0);
                byte[] block = new byte[4096];
                Arrays.fill(block, (byte) (id + 1));
                for (int off = 0; off < perThread; off += block.length) {
                    assertEquals(block.length, Os.pwrite(fd, block, (long) id * perThread + off));
                }
                Os.close(fd);
                return null;
            }));
        }
        for (Future<?> d : done) d.get();
        pool.shutdown();
        byte[] all = Files.readAllBytes(fs.resolve("shared"));
        assertEquals(threads * perThread, all.length);
        for (int i = 0; i < all.length; i++) {
            if (all[i] != (byte) (i / perThread + 1)) throw new AssertionError("byte " + i + " is " + all[i]);
        }
    }

}
