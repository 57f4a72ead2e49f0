package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link PosixSuite}: names and directories (bytes that are not UTF-8, NAME_MAX, listings under change, links, FIFOs, every rename case). Extend {@link PosixSuite}, which runs every part; this
 * class only keeps the suite readable by theme.
 */
public abstract class PosixNameChecks extends PosixFileChecks {
    /** For a subclass: the filesystem under test is the one it mounts. */
    protected PosixNameChecks() {}

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
        assertEquals(Libc.geteuid(), st.uid(), "owner of the root");
        assertEquals(Libc.getegid(), st.gid(), "group of the root");
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

}
