package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.Timespec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link PosixSuite}: attributes (modes, times, inode numbers, extended attributes, permissions of other users, set-ID bits, locks). Extend {@link PosixSuite}, which runs every part; this
 * class only keeps the suite readable by theme.
 */
public abstract class PosixAttributeChecks extends PosixNameChecks {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected PosixAttributeChecks() {}

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
            log.rc("pwrite", Os.pwrite(fd, "x".getBytes(), 0));
            log.rc("close", Os.close(fd));
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
    static List<String> readToEnd(int fd) {
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
                    log.value(n, Errno.name(e.errno));
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

}
