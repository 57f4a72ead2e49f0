package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The harness of {@link PosixSuite}: the filesystem under test and a reference tmpfs mounted for
 * each check, the features a filesystem may lack, and the differential runner ({@link #same})
 * that runs one script of system calls in both and compares every result. Extend
 * {@link PosixSuite}; the themed parts between the two only keep the suite readable.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
public abstract class PosixChecks {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected PosixChecks() {}

    /**
     * Mounts the filesystem under test at a fresh directory, once for each check.
     *
     * @return the mount, which the harness closes after the check
     * @throws Exception if it cannot be mounted (the check fails), or a JUnit assumption to skip the check
     */
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

    /**
     * The features this filesystem does not support; none by default.
     *
     * @return the features whose checks are skipped, saying why
     */
    protected Set<Feature> unsupported() {
        return Set.of();
    }

    /**
     * Skips the calling check unless the filesystem supports every one of {@code features}.
     *
     * @param features what the check needs
     */
    protected final void requires(Feature... features) {
        for (Feature f : features) {
            Assumptions.assumeFalse(unsupported().contains(f), () -> "the filesystem does not support " + f);
        }
    }

    boolean supports(Feature f) {
        return !unsupported().contains(f);
    }

    static Path tmpfs;
    TestMount mount;
    /** The root of the filesystem under test, mounted for the current check. */
    protected Path fs;
    /** The current check's own directory in the reference tmpfs, empty at the start, to compare the mount with. */
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
     * still send releases). Does nothing by default.
     *
     * @throws Exception to fail the check
     */
    protected void afterUnmount() throws Exception {}

    // ---- differential harness -----------------------------------------------------------------

    Log newLog() {
        return new Log(supports(Feature.DIRECTORY_LINK_COUNTS));
    }

    /** What a script observed, line by line. */
    static final class Log {
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
    interface Script {
        void run(Path base, Log log) throws Exception;
    }

    /** Runs {@code script} in the mount and in the reference tmpfs; the logs must be equal. */
    void same(Script script) throws Exception {
        Log expected = newLog();
        script.run(ref, expected);
        Log actual = newLog();
        script.run(fs, actual);
        assertEquals(String.join("\n", expected.lines), String.join("\n", actual.lines), "mount vs. kernel tmpfs");
    }

    static byte[] p(Path base, String relative) {
        return Os.bytes(base.resolve(relative));
    }

    static String sh(List<String> command, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) pb.directory(dir.toFile());
        Process proc = pb.start();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(proc.waitFor(240, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, proc.exitValue(), command + ":\n" + out);
        return out;
    }

    static int status(List<String> command, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        if (dir != null) pb.directory(dir.toFile());
        Process proc = pb.start();
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS));
        return proc.exitValue();
    }

}
