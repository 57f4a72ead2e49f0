package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.FileNames;
import dev.fusepanama.Posix;
import dev.fusepanama.Timespec;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * POSIX behaviour checked through the kernel, reusable for any filesystem (in the spirit of
 * go-fuse's posixtest): extend it and mount your filesystem in {@link #mountFilesystem()}.
 *
 * <pre>{@code
 * class MyFileSystemPosixTest extends PosixSuite {
 *     protected TestMount mountFilesystem() throws Exception {
 *         return TestMount.mount(new MyFileSystem(),
 *                 MountOptions.builder().allowOther(true).defaultPermissions(true).build());
 *     }
 *
 *     protected Set<Feature> unsupported() {   // optional: checks that need these are skipped
 *         return EnumSet.of(Feature.XATTRS, Feature.HARD_LINKS);
 *     }
 * }
 * }</pre>
 *
 * <p>It needs root (it mounts a tmpfs as its reference) and the tools of {@link #everydayToolsWork}
 * (tar, git, rsync, fio) and util-linux's {@code setpriv} and {@code flock}.
 *
 * <p>Mount with {@code allowOther}: without it the kernel keeps every other user out of a FUSE
 * mount, and the checks of non-root callers could not reach it. Those checks expect tmpfs's
 * permission rules: mount with {@code defaultPermissions} to have the kernel apply them from the
 * modes the filesystem reports, or check permissions in the filesystem itself, or declare
 * {@link Feature#PERMISSIONS} unsupported.
 *
 * <p>Each check is a JUnit test; a skipped one says which feature it needs in its skip reason
 * (in the test report). Run one check alone with surefire's
 * {@code -Dtest='MyFileSystemPosixTest#hardLinksShareOneFile'}.
 *
 * <p>Most checks are differential: the same script of system calls runs in the mount and in a
 * directory of a real kernel tmpfs, and every result (value, errno, content) must be the same.
 * Checks of what a reference cannot show (inode stability, readdir under change, tools) run on
 * the mount alone.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
public abstract class PosixSuite {
    /** Mounts the filesystem under test at a fresh directory. */
    protected abstract TestMount mountFilesystem() throws Exception;

    /** What a filesystem may choose not to support: the checks that need it are skipped, saying why. */
    public enum Feature {
        /** {@code link(2)}. */
        HARD_LINKS,
        /** {@code symlink(2)}, {@code readlink(2)}. */
        SYMLINKS,
        /** FIFOs and other nodes made by {@code mknod(2)}. */
        SPECIAL_FILES,
        /** {@code renameat2} with RENAME_NOREPLACE and RENAME_EXCHANGE. */
        RENAME_FLAGS,
        /** Extended attributes. */
        XATTRS,
        /** Names that are not UTF-8, kept byte for byte (a {@code java.nio.file.Path} holds text, not bytes). */
        NON_UTF8_NAMES,
        /**
         * A directory's link count is 2 plus its subdirectories, as on tmpfs; without it the
         * count of a directory is not compared (1, "not counted", as btrfs and many FUSE
         * filesystems answer).
         */
        DIRECTORY_LINK_COUNTS,
        /** chmod keeps the set-user-ID, set-group-ID and sticky bits (posix file permissions have none). */
        SET_ID_BITS,
        /**
         * A write by a caller outside a file's group clears its set-group-ID bit even when the file
         * is not group-executable, as Linux 6.2+ does for its own filesystems. A FUSE filesystem
         * that leaves the clearing to the kernel gets the older rule ({@code fuse_setattr} clears
         * set-group-ID only beside group-execute) unless it applies the rule itself
         * ({@code dev.fusepanama.inode.SetId}).
         */
        SETGID_CLEARED_OUTSIDE_GROUP,
        /** {@code link(2)} of a symbolic link links the link itself, as Linux does (Files.createLink may follow it). */
        HARD_LINKS_TO_SYMLINKS,
        /**
         * Extended attributes of a file whose path from the top is near PATH_MAX (4,089 bytes): a
         * pass-through that names such a file as {@code /proc/self/fd/N/PATH} (the mirror's private
         * mount without Linux 6.13's {@code getxattrat}) passes PATH_MAX and gets ENAMETOOLONG.
         */
        XATTRS_NEAR_PATH_MAX,
        /** Files that occupy blocks only where written: a file with a 10 MiB hole stays small. */
        SPARSE_FILES,
        /** {@code fallocate(2)} with KEEP_SIZE and PUNCH_HOLE. */
        FALLOCATE,
        /** {@code lseek(2)} with SEEK_DATA and SEEK_HOLE finding the real holes. */
        SEEK_HOLES,
        /** {@code copy_file_range(2)} within the mount. */
        COPY_FILE_RANGE,
        /** Times kept to the nanosecond (a zip archive keeps seconds). */
        EXACT_TIMES,
        /** A directory's modification time moves when an entry is added to it. */
        DIRECTORY_TIMES,
        /**
         * POSIX record locks and {@code flock(2)} between processes. A filesystem that implements
         * neither {@code lock} nor {@code flock} gets the kernel's local locks, which pass.
         */
        LOCKS,
        /** Permission checks for callers other than root (mounted with allow_other). */
        PERMISSIONS,
        /** Inode numbers that stay the same for the life of a file. */
        STABLE_INODES,
        /**
         * A file unlinked while open keeps its data until the last close, and its directory can
         * then be removed: mount with {@code hardRemove} (else libfuse renames the file to a
         * {@code .fuse_hidden*} name that keeps the directory non-empty) and serve reads, writes
         * and attributes from the file handle, since such calls arrive without a path.
         */
        UNLINKED_OPEN_FILES,
        /**
         * {@code fstat(2)} of an open file whose name is gone (unlinked, renamed over, or one of
         * its hard links removed) answers as on tmpfs. The kernel asks for such a file's
         * attributes by inode, without the file handle: libfuse's path API has no name left to
         * ask with and answers ESTALE, so a {@link dev.fusepanama.FuseFileSystem} declares this
         * unsupported; an {@link dev.fusepanama.inode.InodeFileSystem} answers by inode.
         */
        FSTAT_OF_REMOVED_FILES
    }

    /** The features this filesystem does not support; none by default. */
    protected Set<Feature> unsupported() {
        return Set.of();
    }

    /** Skips the calling check unless the filesystem supports every one of {@code features}. */
    protected final void requires(Feature... features) {
        for (Feature f : features) {
            Assumptions.assumeFalse(unsupported().contains(f), () -> "the filesystem does not support " + f);
        }
    }

    private boolean supports(Feature f) {
        return !unsupported().contains(f);
    }

    private static Path tmpfs;
    private TestMount mount;
    protected Path fs;
    protected Path ref;

    @BeforeAll
    static void mountReferenceTmpfs() throws Exception {
        tmpfs = Tmpfs.mount("posix-reference");
    }

    @AfterAll
    static void unmountReferenceTmpfs() throws Exception {
        Tmpfs.unmount(tmpfs);
    }

    @BeforeEach
    void mountBoth(TestInfo info) throws Exception {
        mount = null; // a mountFilesystem that skips the check leaves nothing to unmount
        mount = mountFilesystem();
        fs = mount.root();
        ref = Files.createDirectory(tmpfs.resolve(info.getTestMethod().orElseThrow().getName()));
    }

    @AfterEach
    void unmountBoth() throws Exception {
        try {
            if (mount != null) mount.close();
        } finally {
            afterUnmount();
        }
        try (Stream<Path> s = Files.walk(ref)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * After each check's unmount: close what {@link #mountFilesystem} opened for the filesystem
     * (a subclass's own {@code @AfterEach} would run before the unmount, while the kernel may
     * still send releases).
     */
    protected void afterUnmount() throws Exception {}

    // ---- differential harness -----------------------------------------------------------------

    private Log newLog() {
        return new Log(supports(Feature.DIRECTORY_LINK_COUNTS));
    }

    /** What a script observed, line by line. */
    protected static final class Log {
        final List<String> lines = new ArrayList<>();
        /** Whether a directory's link count is compared. */
        private final boolean directoryLinks;

        Log(boolean directoryLinks) {
            this.directoryLinks = directoryLinks;
        }

        /** A call's result: "ok" or the errno name. */
        long rc(String what, long result) {
            lines.add(what + " -> " + (result < 0 ? Errno.name((int) -result) : "ok"));
            return result;
        }

        void value(String what, Object value) {
            lines.add(what + " = " + (value instanceof byte[] b ? HexFormat.of().formatHex(b) : value));
        }

        /** lstat's comparable fields: type, permissions, size (not for directories), link count. */
        void stat(String what, byte[] path) {
            try {
                Os.StatResult st = Os.lstat(path);
                boolean dir = (st.mode() & Posix.S_IFMT) == Posix.S_IFDIR;
                lines.add(what + " = mode " + Integer.toOctalString(st.mode())
                        + (dir && !directoryLinks ? "" : " nlink " + st.nlink()) + (dir ? "" : " size " + st.size()));
            } catch (Os.OsException e) {
                lines.add(what + " -> " + Errno.name(e.errno));
            }
        }

        /** fstat's comparable fields, as {@link #stat}. */
        void fstat(String what, int fd) {
            try {
                Os.StatResult st = Os.fstat(fd);
                lines.add(what + " = mode " + Integer.toOctalString(st.mode()) + " nlink " + st.nlink() + " size " + st.size());
            } catch (Os.OsException e) {
                lines.add(what + " -> " + Errno.name(e.errno));
            }
        }

        void read(String what, byte[] path) {
            int fd = Os.open(path, Posix.O_RDONLY, 0);
            if (fd < 0) {
                rc(what, fd);
                return;
            }
            try {
                value(what, Os.pread(fd, 1 << 20, 0));
            } catch (Os.OsException e) {
                lines.add(what + " -> " + Errno.name(e.errno));
            } finally {
                Os.close(fd);
            }
        }

        void list(String what, Path dir) {
            try {
                Set<String> names = new TreeSet<>();
                for (byte[] n : Os.listBytes(dir)) names.add(HexFormat.of().formatHex(n));
                lines.add(what + " = " + names);
            } catch (Os.OsException e) {
                lines.add(what + " -> failed");
            }
        }
    }

    @FunctionalInterface
    protected interface Script {
        void run(Path base, Log log) throws Exception;
    }

    /** Runs {@code script} in the mount and in the reference tmpfs; the logs must be equal. */
    protected void same(Script script) throws Exception {
        Log expected = newLog();
        script.run(ref, expected);
        Log actual = newLog();
        script.run(fs, actual);
        assertEquals(String.join("\n", expected.lines), String.join("\n", actual.lines), "mount vs. kernel tmpfs");
    }

    protected static byte[] p(Path base, String relative) {
        return Os.bytes(base.resolve(relative));
    }

    protected static String sh(List<String> command, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) pb.directory(dir.toFile());
        Process proc = pb.start();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(proc.waitFor(240, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, proc.exitValue(), command + ":\n" + out);
        return out;
    }

    protected static int status(List<String> command, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        if (dir != null) pb.directory(dir.toFile());
        Process proc = pb.start();
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS));
        return proc.exitValue();
    }

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

    // ---- names and directories ----------------------------------------------------------------

    @Test
    void namesThatAreNotUtf8SurviveByteForByte() throws Exception {
        requires(Feature.NON_UTF8_NAMES);
        same((b, log) -> {
            byte[] odd = {(byte) 0xff, (byte) 0xfe, 'x'};
            log.rc("create odd", Os.close(Os.open(Os.child(b, odd), Posix.O_CREAT | Posix.O_WRONLY, 0644)));
            log.list("listed", b);
            log.rc("rename odd", Os.renameat2(Os.child(b, odd), Os.child(b, new byte[] {'y', (byte) 0x80}), 0));
            log.list("renamed", b);
            log.rc("unlink odd", Os.unlink(Os.child(b, new byte[] {'y', (byte) 0x80})));
        });
    }

    @Test
    void namesOfUpTo255BytesAndNoMore() throws Exception {
        same((b, log) -> {
            byte[] max = "n".repeat(255).getBytes();
            log.rc("255 bytes", Os.close(Os.open(Os.child(b, max), Posix.O_CREAT | Posix.O_WRONLY, 0644)));
            log.rc("256 bytes", Os.open(Os.child(b, "n".repeat(256).getBytes()), Posix.O_CREAT | Posix.O_WRONLY, 0644));
            log.rc("256 byte mkdir", Os.mkdir(Os.child(b, "m".repeat(256).getBytes()), 0755));
            byte[] utf8max = "é".repeat(127).getBytes(StandardCharsets.UTF_8); // 254 bytes
            log.rc("multi-byte name", Os.mkdir(Os.child(b, utf8max), 0755));
        });
    }

    /** Every call that takes a name answers ENAMETOOLONG for one over 255 bytes, as tmpfs does (pjdfstest checks each). */
    @Test
    void everyCallTakingAnOverlongNameAnswersEnametoolong() throws Exception {
        same((b, log) -> {
            byte[] longName = Os.child(b, "x".repeat(256).getBytes());
            byte[] file = p(b, "file");
            Os.close(Os.open(file, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            Files.createDirectory(b.resolve("dir"));
            log.rc("open", Os.open(longName, Posix.O_RDONLY, 0));
            log.rc("create", Os.open(longName, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            log.stat("stat", longName);
            log.rc("chmod", Os.chmod(longName, 0600));
            log.rc("chown", Os.chown(longName, 0, 0));
            log.rc("truncate", Os.truncate(longName, 0));
            log.rc("unlink", Os.unlink(longName));
            log.rc("rmdir", Os.rmdir(longName));
            log.rc("mkdir", Os.mkdir(longName, 0755));
            log.rc("mknod", Os.mknod(longName, Posix.S_IFIFO | 0644, 0));
            log.rc("link to it", Os.link(file, longName));
            log.rc("symlink to it", Os.symlink("file".getBytes(), longName));
            log.rc("rename to it", Os.renameat2(file, longName, 0));
            log.rc("rename from it", Os.renameat2(longName, file, 0));
            log.rc("access", Os.access(longName, 0));
            log.stat("the file is untouched", file);
        });
    }

    /**
     * A listing ends even while entries are created faster than it reads, and lists every entry
     * that existed when it started exactly once (tmpfs's behaviour; POSIX leaves open only whether
     * entries created meanwhile appear). Each small getdents(2) is one readdir, and 30 entries are
     * created after each: a listing that chased new entries would never end.
     */
    @Test
    void aListingEndsWhileEntriesAreCreatedFasterThanItReads() throws Exception {
        Path dir = Files.createDirectory(fs.resolve("busy"));
        for (int i = 0; i < 200; i++) Os.close(Os.open(p(dir, "old-" + i), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        int fd = Os.open(Os.bytes(dir), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
        Map<String, Integer> seen = new HashMap<>();
        int created = 0;
        int calls = 0;
        List<byte[]> batch;
        try {
            while (!(batch = Os.getdents(fd, 512)).isEmpty() && ++calls < 1_000) {
                for (byte[] name : batch) seen.merge(new String(name, StandardCharsets.UTF_8), 1, Integer::sum);
                for (int k = 0; k < 30; k++) Os.close(Os.open(p(dir, "new-" + created++), Posix.O_CREAT | Posix.O_WRONLY, 0644));
            }
        } finally {
            Os.close(fd);
        }
        assertTrue(batch.isEmpty(), "the listing ended (" + calls + " getdents calls, " + created + " entries created meanwhile)");
        for (int i = 0; i < 200; i++) assertEquals(1, seen.get("old-" + i), "old-" + i + " listed once");
    }

    /** The root directory belongs to whoever mounted the filesystem, as every FUSE filesystem's and tmpfs's root does. */
    @Test
    void theRootBelongsToWhoeverMounted() throws Exception {
        Os.StatResult st = Os.lstat(Os.bytes(fs));
        assertEquals(dev.fusepanama.libc.Libc.geteuid(), st.uid(), "owner of the root");
        assertEquals(dev.fusepanama.libc.Libc.getegid(), st.gid(), "group of the root");
    }

    @Test
    void aDeepTreeCanBeBuiltWalkedAndRemoved() throws Exception {
        same((b, log) -> {
            Path d = b;
            for (int i = 0; i < 100; i++) {
                d = d.resolve("level" + i);
                log.rc("mkdir " + i, Os.mkdir(Os.bytes(d), 0755));
            }
            Files.writeString(d.resolve("leaf"), "deep");
            log.read("leaf", Os.bytes(d.resolve("leaf")));
            try (Stream<Path> s = Files.walk(b)) {
                log.value("walked", s.count());
            }
            log.rc("rmdir top", Os.rmdir(p(b, "level0")));
            try (Stream<Path> s = Files.walk(b.resolve("level0"))) {
                s.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
            }
            log.list("emptied", b);
        });
    }

    @Test
    void symlinksReadBackAndDangleLikeTmpfs() throws Exception {
        requires(Feature.SYMLINKS);
        same((b, log) -> {
            Files.writeString(b.resolve("f"), "data");
            log.rc("symlink", Os.symlink("f".getBytes(), p(b, "l")));
            log.value("readlink", new String(Os.readlink(p(b, "l"))));
            log.stat("symlink", p(b, "l"));
            log.read("through link", p(b, "l"));
            log.rc("symlink existing", Os.symlink("g".getBytes(), p(b, "l")));
            log.rc("dangling", Os.symlink("nowhere/at/all".getBytes(), p(b, "dl")));
            log.stat("dangling", p(b, "dl"));
            log.value("readlink dangling", new String(Os.readlink(p(b, "dl"))));
            try {
                Os.readlink(p(b, "f"));
                log.value("readlink of a file", "succeeded");
            } catch (Os.OsException e) {
                log.value("readlink of a file", Errno.name(e.errno));
            }
            log.rc("unlink link", Os.unlink(p(b, "l")));
            log.read("target stays", p(b, "f"));
        });
    }

    @Test
    void hardLinksShareOneFile() throws Exception {
        requires(Feature.HARD_LINKS);
        same((b, log) -> {
            Files.writeString(b.resolve("f"), "data");
            log.rc("link", Os.link(p(b, "f"), p(b, "h")));
            log.stat("linked", p(b, "f"));
            log.rc("link existing", Os.link(p(b, "f"), p(b, "h")));
            Files.createDirectory(b.resolve("d"));
            log.rc("link a directory", Os.link(p(b, "d"), p(b, "dh")));
            log.rc("unlink one", Os.unlink(p(b, "f")));
            log.stat("other name", p(b, "h"));
            log.read("other name's data", p(b, "h"));
        });
    }

    @Test
    void fifosAreMadeByMknod() throws Exception {
        requires(Feature.SPECIAL_FILES);
        same((b, log) -> {
            log.rc("fifo", Os.mknod(p(b, "pipe"), Posix.S_IFIFO | 0640, 0));
            log.stat("fifo", p(b, "pipe"));
            log.rc("fifo existing", Os.mknod(p(b, "pipe"), Posix.S_IFIFO | 0640, 0));
        });
    }

    @Test
    void renameFlagsAndEveryPosixErrorCase() throws Exception {
        requires(Feature.RENAME_FLAGS);
        same((b, log) -> {
            Files.writeString(b.resolve("f1"), "one");
            Files.writeString(b.resolve("f2"), "two");
            Files.createDirectories(b.resolve("d1/sub"));
            Files.createDirectory(b.resolve("d2"));
            Files.createDirectories(b.resolve("full/x"));
            log.rc("noreplace existing", Os.renameat2(p(b, "f1"), p(b, "f2"), Posix.RENAME_NOREPLACE));
            log.rc("exchange", Os.renameat2(p(b, "f1"), p(b, "f2"), Posix.RENAME_EXCHANGE));
            log.read("f1 now", p(b, "f1"));
            log.rc("exchange file and dir", Os.renameat2(p(b, "f1"), p(b, "d2"), Posix.RENAME_EXCHANGE));
            log.stat("d2 is now a file", p(b, "d2"));
            log.rc("exchange with missing", Os.renameat2(p(b, "f2"), p(b, "none"), Posix.RENAME_EXCHANGE));
            log.rc("both flags", Os.renameat2(p(b, "f2"), p(b, "x"), Posix.RENAME_EXCHANGE | Posix.RENAME_NOREPLACE));
            log.rc("dir into own subtree", Os.renameat2(p(b, "d1"), p(b, "d1/sub/in"), 0));
            log.rc("dir over non-empty dir", Os.renameat2(p(b, "f1"), p(b, "full"), 0));
            log.rc("dir over non-empty dir 2", Os.renameat2(p(b, "d1"), p(b, "full"), 0));
            log.rc("dir over file", Os.renameat2(p(b, "d1"), p(b, "d2"), 0));
            log.rc("file over dir", Os.renameat2(p(b, "d2"), p(b, "full"), 0));
            log.rc("missing source", Os.renameat2(p(b, "none"), p(b, "x"), 0));
            log.rc("through a file", Os.renameat2(p(b, "d2/x"), p(b, "x"), 0));
            log.rc("dir over empty dir", Os.renameat2(p(b, "full/x"), p(b, "d1/sub"), 0));
            log.stat("d1", p(b, "d1"));
            log.rc("file over file", Os.renameat2(p(b, "f2"), p(b, "d2"), 0));
            log.read("replaced", p(b, "d2"));
            log.rc("onto itself", Os.renameat2(p(b, "d2"), p(b, "d2"), 0));
            log.list("top", b);
        });
    }

    @Test
    void aListingStaysCorrectWhileEntriesAreAddedAndRemoved() throws Exception {
        for (int i = 0; i < 2000; i++) Os.close(Os.open(p(fs, "keep-" + i), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        for (int i = 0; i < 500; i++) Os.close(Os.open(p(fs, "gone-" + i), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        List<String> seen = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(fs)) {
            Iterator<Path> it = s.iterator();
            for (int i = 0; i < 100 && it.hasNext(); i++) seen.add(it.next().getFileName().toString());
            for (int i = 0; i < 500; i++) {
                Os.unlink(p(fs, "gone-" + i));
                Os.close(Os.open(p(fs, "new-" + i), Posix.O_CREAT | Posix.O_WRONLY, 0644));
            }
            while (it.hasNext()) seen.add(it.next().getFileName().toString());
        }
        assertEquals(seen.size(), new HashSet<>(seen).size(), "no entry twice");
        for (int i = 0; i < 2000; i++) assertTrue(seen.contains("keep-" + i), "keep-" + i + " listed");
    }

    @Test
    void aHundredThousandEntryDirectoryLists() throws Exception {
        Path dir = Files.createDirectory(fs.resolve("many"));
        for (int i = 0; i < 100_000; i++) {
            assertEquals(0, Os.mknod(p(dir, "e" + i), Posix.S_IFREG | 0644, 0));
        }
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path q : s) names.add(q.getFileName().toString());
        }
        assertEquals(100_000, names.size());
    }

    @Test
    void concurrentCreateAndUnlinkInOneDirectory() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            int id = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < 400; i++) {
                    byte[] name = p(fs, "t" + id + "-" + i);
                    assertEquals(0, Os.close(Os.open(name, Posix.O_CREAT | Posix.O_EXCL | Posix.O_WRONLY, 0644)));
                    if (i % 2 == 0) assertEquals(0, Os.unlink(name));
                }
                return null;
            }));
        }
        for (Future<?> d : done) d.get();
        pool.shutdown();
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(fs)) {
            for (Path q : s) names.add(q.getFileName().toString());
        }
        assertEquals(6 * 200, names.size());
        for (int t = 0; t < 6; t++) for (int i = 1; i < 400; i += 2) assertTrue(names.contains("t" + t + "-" + i));
    }

    // ---- attributes ---------------------------------------------------------------------------

    @Test
    void chmodUtimensAndTimestampUpdates() throws Exception {
        same((b, log) -> {
            byte[] f = p(b, "f");
            Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0600));
            log.rc("chmod", Os.chmod(f, supports(Feature.SET_ID_BITS) ? 04751 : 0751));
            log.stat("mode", f);
            log.rc("utimens", Os.utimens(f, 1_000_000, 1, 2_000_000, 2));
            Os.StatResult st = Os.lstat(f);
            log.value("times", supports(Feature.EXACT_TIMES)
                    ? st.atimeSec() + "." + st.atimeNsec() + " " + st.mtimeSec() + "." + st.mtimeNsec()
                    : st.atimeSec() + " " + st.mtimeSec());
            log.rc("omit atime, now mtime", Os.utimens(f, 0, Timespec.UTIME_OMIT, 0, Timespec.UTIME_NOW));
            st = Os.lstat(f);
            log.value("atime kept, mtime now", st.atimeSec() == 1_000_000 && Math.abs(st.mtimeSec() - System.currentTimeMillis() / 1000) < 60);
            Os.utimens(f, 1_000_000, 0, 1_000_000, 0);
            int fd = Os.open(f, Posix.O_WRONLY, 0);
            Os.pwrite(fd, "x".getBytes(), 0);
            Os.close(fd);
            log.value("write moves mtime", Os.lstat(f).mtimeSec() > 1_000_000);
            log.stat("write clears nothing for root", f);
            if (supports(Feature.DIRECTORY_TIMES)) {
                Files.createDirectory(b.resolve("d"));
                Os.utimens(p(b, "d"), 1_000_000, 0, 1_000_000, 0);
                Files.writeString(b.resolve("d/new"), "");
                log.value("create moves dir mtime", Os.lstat(p(b, "d")).mtimeSec() > 1_000_000);
            }
        });
    }

    @Test
    void inodeNumbersAreStable() throws Exception {
        requires(Feature.STABLE_INODES);
        Files.writeString(fs.resolve("a"), "x");
        long ino = Os.lstat(p(fs, "a")).ino();
        if (supports(Feature.HARD_LINKS)) {
            assertEquals(0, Os.link(p(fs, "a"), p(fs, "b")), "link");
            assertEquals(ino, Os.lstat(p(fs, "b")).ino(), "hard links share the inode");
        }
        assertEquals(0, Os.renameat2(p(fs, "a"), p(fs, "c"), 0), "rename");
        assertEquals(ino, Os.lstat(p(fs, "c")).ino(), "rename keeps the inode");
        Files.createDirectory(fs.resolve("d"));
        assertTrue(Os.lstat(p(fs, "d")).ino() != ino);
    }

    @Test
    void extendedAttributesWithFlagsAndLimits() throws Exception {
        requires(Feature.XATTRS);
        same((b, log) -> {
            byte[] f = p(b, "f");
            Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            log.rc("set", Os.setxattr(f, "user.a", "1".getBytes(), 0));
            log.rc("create existing", Os.setxattr(f, "user.a", "2".getBytes(), Posix.XATTR_CREATE));
            log.rc("replace missing", Os.setxattr(f, "user.b", "2".getBytes(), Posix.XATTR_REPLACE));
            log.rc("replace", Os.setxattr(f, "user.a", "22".getBytes(), Posix.XATTR_REPLACE));
            log.value("size query", Os.getxattr(f, "user.a", 0).rc());
            log.value("get", Os.getxattr(f, "user.a", 100).data());
            log.value("too small", Os.getxattr(f, "user.a", 1).rc());
            log.value("missing", Os.getxattr(f, "user.none", 100).rc());
            log.value("empty value", Os.setxattr(f, "user.empty", new byte[0], 0));
            log.value("get empty", Os.getxattr(f, "user.empty", 10).rc());
            log.value("list (order is unspecified)", new TreeSet<>(Os.listxattr(f, 1000).names()));
            log.value("list too small", Os.listxattr(f, 3).rc());
            log.value("value too big", Os.setxattr(f, "user.big", new byte[65537], 0));
            log.value("name too long", Os.setxattr(f, "user." + "n".repeat(251), "v".getBytes(), 0));
            log.rc("remove", Os.removexattr(f, "user.a"));
            log.rc("remove again", Os.removexattr(f, "user.a"));
            log.value("unknown namespace", Os.setxattr(f, "nonsense.x", "v".getBytes(), 0));
        });
    }

    @Test
    void extendedAttributesBelowTheTopOnDirectoriesAndThroughLinks() throws Exception {
        requires(Feature.XATTRS, Feature.SYMLINKS);
        same((b, log) -> {
            Files.createDirectories(b.resolve("d/e"));
            byte[] f = p(b, "d/e/f");
            Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            log.rc("set below the top", Os.setxattr(f, "user.a", "deep".getBytes(), 0));
            log.value("get below the top", Os.getxattr(f, "user.a", 100).data());
            log.value("list below the top", Os.listxattr(f, 100).names());
            log.rc("remove below the top", Os.removexattr(f, "user.a"));
            log.value("get removed", Os.getxattr(f, "user.a", 100).rc());
            byte[] d = p(b, "d/e");
            log.rc("set on a directory", Os.setxattr(d, "user.d", "dir".getBytes(), 0));
            log.value("get on a directory", Os.getxattr(d, "user.d", 100).data());
            log.value("list on a directory", Os.listxattr(d, 100).names());
            Os.symlink("e/f".getBytes(), p(b, "d/link"));
            log.rc("set through a link", Os.setxattr(p(b, "d/link"), "user.l", "target".getBytes(), 0));
            log.value("the link's target has it", Os.getxattr(f, "user.l", 100).data());
            log.value("a missing file", Os.getxattr(p(b, "d/none"), "user.l", 100).rc());
            log.value("a file as a directory", Os.getxattr(p(b, "d/e/f/x"), "user.l", 100).rc());
        });
    }

    /**
     * A file whose path from the top is 4,089 bytes, reached through descriptors of its
     * directories: it fits PATH_MAX, but not behind a {@code /proc/self/fd/N/} prefix.
     */
    @Test
    void extendedAttributesOnAPathNearPathMax() throws Exception {
        requires(Feature.XATTRS, Feature.XATTRS_NEAR_PATH_MAX);
        same((b, log) -> {
            DeepTree tree = new DeepTree(b, 20, "d".repeat(200));
            byte[] f = tree.inDeepest("f".repeat(69));
            try {
                int fd = Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644);
                log.value("create", fd >= 0);
                Os.close(fd);
                log.rc("set", Os.setxattr(f, "user.deep", "v".getBytes(), 0));
                log.value("get", Os.getxattr(f, "user.deep", 10).rc());
                log.value("list", Os.listxattr(f, 100).rc());
                log.rc("remove", Os.removexattr(f, "user.deep"));
            } finally {
                Os.unlink(f);
                tree.remove();
            }
        });
    }

    @Test
    void permissionsHoldForNonRootCallers() throws Exception {
        requires(Feature.PERMISSIONS);
        same((b, log) -> {
            Files.writeString(b.resolve("secret"), "s");
            Os.chmod(p(b, "secret"), 0600);
            Files.writeString(b.resolve("public"), "p");
            Os.chmod(p(b, "public"), 0644);
            Files.createDirectory(b.resolve("locked"));
            Os.chmod(p(b, "locked"), 0700);
            Os.chmod(Os.bytes(b), 0777);
            List<String> nobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--");
            log.value("read secret", status(concat(nobody, "cat", b.resolve("secret").toString()), null));
            log.value("read public", status(concat(nobody, "cat", b.resolve("public").toString()), null));
            log.value("write public", status(concat(nobody, "sh", "-c", "echo x >> " + b.resolve("public")), null));
            log.value("list locked", status(concat(nobody, "ls", b.resolve("locked").toString()), null));
            log.value("create in 0777", status(concat(nobody, "touch", b.resolve("mine").toString()), null));
            log.stat("owned by nobody", p(b, "mine"));
            log.value("owner", Os.lstat(p(b, "mine")).uid());
            log.value("chown as nobody", status(concat(nobody, "chown", "0", b.resolve("mine").toString()), null));
        });
    }

    /**
     * A write, a truncate, a truncating open or an allocation by a caller without CAP_FSETID
     * clears the set-user-ID bit, and the set-group-ID bit of a group-executable file; a chown
     * clears them for everyone; root's own write keeps them.
     */
    @Test
    void setIdBitsAreClearedAsOnTmpfsWhenAnotherUserChangesTheFile() throws Exception {
        requires(Feature.PERMISSIONS);
        requires(Feature.SET_ID_BITS);
        same((b, log) -> {
            Os.chmod(Os.bytes(b), 0777);
            String[] names = {"write", "truncate", "otrunc", "fallocate", "sgid-no-gx", "root-write", "chown"};
            for (String n : names) {
                Files.writeString(b.resolve(n), "data");
                Os.chmod(p(b, n), n.equals("sgid-no-gx") ? 02767 : 06777);
            }
            List<String> nobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--");
            log.value("write as nobody", status(concat(nobody, "sh", "-c", "printf x >> " + b.resolve("write")), null));
            log.value("truncate as nobody", status(concat(nobody, "truncate", "-s", "1", b.resolve("truncate").toString()), null));
            log.value("O_TRUNC open as nobody", status(concat(nobody, "sh", "-c", ": > " + b.resolve("otrunc")), null));
            if (supports(Feature.FALLOCATE)) {
                log.value("fallocate as nobody", status(concat(nobody, "fallocate", "-l", "8192", b.resolve("fallocate").toString()), null));
            } else {
                Os.chmod(p(b, "fallocate"), 0777); // as tmpfs leaves it
            }
            if (supports(Feature.SETGID_CLEARED_OUTSIDE_GROUP)) {
                log.value("write sgid without g+x", status(concat(nobody, "sh", "-c", "printf x >> " + b.resolve("sgid-no-gx")), null));
            } else {
                Os.chmod(p(b, "sgid-no-gx"), 0767); // as tmpfs leaves it
            }
            log.value("write as root", status(List.of("sh", "-c", "printf x >> " + b.resolve("root-write")), null));
            log.rc("chown as root", Os.chown(p(b, "chown"), 0, 0));
            for (String n : names) {
                log.value(n + " mode", Integer.toOctalString(Os.lstat(p(b, n)).mode()));
            }
        });
    }

    /** Reads a directory stream to its end: the names, sorted (the order is the filesystem's). */
    private static List<String> readToEnd(int fd) {
        List<String> names = new ArrayList<>();
        List<byte[]> batch;
        while (!(batch = Os.getdents(fd, 4096)).isEmpty()) {
            for (byte[] n : batch) names.add(new String(n, StandardCharsets.UTF_8));
        }
        Collections.sort(names);
        return names;
    }

    /** rewinddir(3) (a seek to 0) on an open directory stream shows entries added and removed since it was opened. */
    @Test
    void aRewoundDirectoryStreamShowsWhatChangedSinceItOpened() throws Exception {
        same((b, log) -> {
            Files.createDirectory(b.resolve("d"));
            Files.writeString(b.resolve("d/old"), "");
            Files.writeString(b.resolve("d/gone"), "");
            int fd = Os.open(p(b, "d"), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
            try {
                log.value("first pass", readToEnd(fd));
                Files.writeString(b.resolve("d/new"), "");
                Files.delete(b.resolve("d/gone"));
                log.value("rewind", Os.lseek(fd, 0, Posix.SEEK_SET));
                log.value("after the rewind", readToEnd(fd));
            } finally {
                Os.close(fd);
            }
        });
    }

    /** A set-group-ID directory gives new entries its group, and new subdirectories its set-group-ID bit, whoever makes them. */
    @Test
    void aSetGroupIdDirectoryPassesItsGroupAndTheBitOn() throws Exception {
        requires(Feature.PERMISSIONS, Feature.SET_ID_BITS);
        same((b, log) -> {
            Os.chmod(Os.bytes(b), 0755); // whatever the filesystem's root is, others may pass through it
            Files.createDirectory(b.resolve("shared"));
            log.rc("chown", Os.chown(p(b, "shared"), 0, 100));
            log.rc("chmod", Os.chmod(p(b, "shared"), 02777));
            List<String> nobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--");
            log.value("mkdir as nobody", status(concat(nobody, "mkdir", b.resolve("shared/sub").toString()), null));
            log.value("touch as nobody", status(concat(nobody, "touch", b.resolve("shared/file").toString()), null));
            Files.createDirectory(b.resolve("shared/rootsub"));
            Files.writeString(b.resolve("shared/rootfile"), "");
            for (String n : new String[] {"sub", "file", "rootsub", "rootfile"}) {
                try {
                    Os.StatResult st = Os.lstat(p(b, "shared/" + n));
                    log.value(n, "uid " + st.uid() + " gid " + st.gid() + " mode " + Integer.toOctalString(st.mode()));
                } catch (Os.OsException e) {
                    log.value(n, dev.fusepanama.Errno.name(e.errno));
                }
            }
        });
    }

    static List<String> concat(List<String> prefix, String... rest) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(List.of(rest));
        return all;
    }

    @Test
    void locksAreHonouredBetweenProcesses() throws Exception {
        requires(Feature.LOCKS);
        Path f = Files.writeString(fs.resolve("lockfile"), "");
        int fd = Os.open(Os.bytes(f), Posix.O_RDWR, 0);
        try {
            assertEquals(0, Os.flock(fd, Posix.LOCK_EX));
            assertEquals(1, status(List.of("flock", "-n", "-E", "1", f.toString(), "true"), null), "flock conflict");
            assertEquals(0, Os.flock(fd, Posix.LOCK_UN));
            assertEquals(0, status(List.of("flock", "-n", f.toString(), "true"), null));
            assertEquals(0, Os.fcntlLock(fd, Posix.F_SETLK, Posix.F_WRLCK, 0, 0));
            assertEquals(1, FcntlProbe.tryLockInAnotherProcess(f), "another process sees the record lock");
            assertEquals(0, Os.fcntlLock(fd, Posix.F_SETLK, Posix.F_UNLCK, 0, 0));
            assertEquals(0, FcntlProbe.tryLockInAnotherProcess(f), "and gets it once released");
        } finally {
            Os.close(fd);
        }
    }

    // ---- tools --------------------------------------------------------------------------------

    @Test
    void everydayToolsWork() throws Exception {
        Path src = Path.of(System.getProperty("user.dir")).resolve("src");
        sh(List.of("cp", "-r", src.toString(), fs.resolve("copy").toString()), null);
        sh(List.of("diff", "-r", src.toString(), fs.resolve("copy").toString()), null);
        sh(List.of("sh", "-ec", "git init -q repo && cd repo && git config user.email t@t && git config user.name t"
                + " && cp -r ../copy . && git add -A && git commit -qm one && git mv copy moved && git commit -qm two"
                + " && git log --oneline | wc -l && git status --porcelain"), fs);
        Path tar = Files.createTempFile("posix", ".tar");
        try {
            sh(List.of("tar", "cf", tar.toString(), "-C", src.toString(), "."), null);
            Files.createDirectory(fs.resolve("untar"));
            sh(List.of("tar", "xf", tar.toString(), "-C", fs.resolve("untar").toString()), null);
            sh(List.of("diff", "-r", src.toString(), fs.resolve("untar").toString()), null);
        } finally {
            Files.deleteIfExists(tar);
        }
        sh(List.of("rsync", "-a", src + "/", fs.resolve("rsynced").toString()), null);
        sh(List.of("rsync", "-a", "--checksum", "--dry-run", "--itemize-changes", src + "/", fs.resolve("rsynced").toString()), null);
        sh(List.of("diff", "-r", src.toString(), fs.resolve("rsynced").toString()), null);
        String fio = sh(List.of("fio", "--name=posix", "--directory=" + fs, "--size=8m", "--bs=4k", "--rw=randrw",
                "--ioengine=psync", "--verify=crc32c", "--do_verify=1", "--verify_state_save=0", "--numjobs=2", "--group_reporting"), null);
        assertTrue(!fio.contains("verify: bad"), fio);
    }

    // ---- random operations against the kernel -------------------------------------------------

    /**
     * Seeds the CI runs: fixed, so a red build always means a reproducible divergence. 4692081394948
     * found hard-link attributes going stale through another name. {@code -Dposix.seed=N} replays
     * one seed; {@code -Dposix.seed=random} explores a new one.
     */
    private static long[] seeds() {
        String property = System.getProperty("posix.seed");
        if (property == null) return new long[] {20211L, 4692081394948L};
        return new long[] {property.equals("random") ? System.nanoTime() : Long.parseLong(property)};
    }

    @Test
    void aSeededRandomSequenceMatchesTheKernelStepByStep() throws Exception {
        for (long seed : seeds()) {
            randomSequence(seed, 3000);
            try (Stream<Path> s = Stream.concat(Files.list(fs), Files.list(ref))) {
                for (Path p : s.toList()) {
                    try (Stream<Path> walk = Files.walk(p)) {
                        walk.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
                    }
                }
            }
        }
    }

    private void randomSequence(long seed, int steps) throws Exception {
        Random rf = new Random(seed);
        Random rr = new Random(seed);
        ArrayDeque<String> history = new ArrayDeque<>();
        for (int step = 0; step < steps; step++) {
            Log a = newLog();
            Log e = newLog();
            randomStep(rr, ref, e);
            randomStep(rf, fs, a);
            if (!a.lines.equals(e.lines)) {
                throw new AssertionError("diverged at step " + step + " of seed " + seed
                        + " (rerun with -Dposix.seed=" + seed + ")\nkernel: " + e.lines + "\nmount:  " + a.lines
                        + "\nthe steps before:\n  " + String.join("\n  ", history));
            }
            history.addLast(step + ": " + e.lines);
            if (history.size() > 60) history.removeFirst();
        }
        Log a = newLog();
        Log e = newLog();
        listTree(ref, ref, e);
        listTree(fs, fs, a);
        assertEquals(e.lines, a.lines, "final trees, seed " + seed);
    }

    private static final String[] DIRS = {"", "x/", "x/y/", "z/"};
    private static final String[] NAMES = {"a", "b", "c", "x", "y", "z"};

    private static String pick(Random r) {
        return DIRS[r.nextInt(DIRS.length)] + NAMES[r.nextInt(NAMES.length)];
    }

    /** One random operation; both sides draw the same numbers, and skip the same unsupported features. */
    private void randomStep(Random r, Path b, Log log) throws Exception {
        String x = pick(r);
        String y = pick(r);
        byte[] px = p(b, x);
        int op = r.nextInt(14);
        if ((op == 8 && !supports(Feature.HARD_LINKS)) || (op == 9 && !supports(Feature.SYMLINKS))) {
            op = 10; // a stat instead
        }
        switch (op) {
            case 0 -> {
                int fd = Os.open(px, Posix.O_CREAT | Posix.O_WRONLY | (r.nextBoolean() ? Posix.O_EXCL : 0), 0644);
                log.rc("create " + x, fd);
                if (fd >= 0) Os.close(fd);
            }
            case 1 -> {
                byte[] data = new byte[r.nextInt(10_000)];
                r.nextBytes(data);
                long off = r.nextInt(20_000);
                int fd = Os.open(px, Posix.O_WRONLY, 0);
                log.rc("open for write " + x, fd);
                if (fd >= 0) {
                    log.value("pwrite " + x, Os.pwrite(fd, data, off));
                    Os.close(fd);
                }
            }
            case 2 -> log.read("read " + x, px);
            case 3 -> log.rc("truncate " + x, Os.truncate(px, r.nextInt(30_000)));
            case 4 -> log.rc("unlink " + x, Os.unlink(px));
            case 5 -> log.rc("mkdir " + x, Os.mkdir(px, 0755));
            case 6 -> log.rc("rmdir " + x, Os.rmdir(px));
            case 7 -> {
                int flags = new int[] {0, 0, Posix.RENAME_NOREPLACE, Posix.RENAME_EXCHANGE}[r.nextInt(4)];
                if (!supports(Feature.RENAME_FLAGS)) flags = 0;
                log.rc("rename " + x + " " + y + " " + flags, Os.renameat2(px, p(b, y), flags));
            }
            case 8 -> {
                if (!supports(Feature.HARD_LINKS_TO_SYMLINKS) && isSymlink(px)) {
                    log.value("link " + x + " " + y, "not asked: a symbolic link");
                } else {
                    log.rc("link " + x + " " + y, Os.link(px, p(b, y)));
                }
            }
            case 9 -> log.rc("symlink " + x + " " + y, Os.symlink(y.getBytes(), px));
            case 10, 11 -> log.stat("stat " + x, px);
            case 12 -> log.rc("chmod " + x, Os.chmod(px, 0600 + r.nextInt(0100)));
            default -> log.list("list " + DIRS[r.nextInt(DIRS.length)], b.resolve(DIRS[r.nextInt(DIRS.length)]));
        }
    }

    private static boolean isSymlink(byte[] path) {
        try {
            return (Os.lstat(path).mode() & Posix.S_IFMT) == Posix.S_IFLNK;
        } catch (Os.OsException missing) {
            return false;
        }
    }

    private static void listTree(Path root, Path dir, Log log) throws Exception {
        List<byte[]> names = Os.listBytes(dir);
        names.sort(Arrays::compare);
        for (byte[] n : names) {
            String name = new String(n, StandardCharsets.ISO_8859_1);
            if (name.equals(".") || name.equals("..")) continue;
            Path child = dir.resolve(name);
            String rel = root.relativize(child).toString();
            log.stat(rel, Os.bytes(child));
            Os.StatResult st = Os.lstat(Os.bytes(child));
            if ((st.mode() & Posix.S_IFMT) == Posix.S_IFDIR) listTree(root, child, log);
            else if ((st.mode() & Posix.S_IFMT) == Posix.S_IFREG) log.read(rel, Os.bytes(child));
        }
    }

    /** FileNames is part of what the suite relies on for odd names. */
    static String show(byte[] name) {
        return FileNames.fromBytes(name);
    }
}
