package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.examples.Main;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.Emulation;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mirror as a user runs it ({@code fuse-panama mirror}, another JVM) with a descriptor limit
 * of {@value #LIMIT}: it serves several times that many inodes, correctly, and running out of
 * descriptors fails only the operations that needed one. Both ways it opens a node again: by file
 * handle (root, with CAP_DAC_READ_SEARCH) and by name below its directory (without that
 * capability, as in a container's default set).
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeMirrorDescriptorLimitTest {
    static final int LIMIT = 256;
    static final int DIRECTORIES = 20;
    static final int FILES_EACH = 100;

    @TempDir
    Path tmp;

    private Path source;
    private Path mnt;
    private Path log;

    @BeforeEach
    void notEmulated() {
        Assumptions.assumeFalse(Emulation.active(), "qemu-user's own descriptors share the limit this test sets and uses up; "
                + "what it checks does not depend on the architecture");
    }

    private Process launch(String reopen) throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        mnt = tmp.resolve("mnt");
        log = tmp.resolve("mirror.log");
        List<String> command = new ArrayList<>(List.of("prlimit", "--nofile=" + LIMIT + ":" + LIMIT, "--"));
        if (reopen.equals("by name")) {
            command.addAll(List.of("setpriv", "--inh-caps=-dac_read_search", "--bounding-set=-dac_read_search", "--"));
        }
        command.addAll(ChildJvm.command(Main.class, "mirror", source.toString(), mnt.toString()));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private void tree() throws IOException {
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectory(source.resolve("d" + d));
            for (int f = 0; f < FILES_EACH; f++) {
                Files.writeString(dir.resolve("f" + f), content(d, f));
            }
        }
    }

    private static String content(int d, int f) {
        return "file " + f + " of directory " + d + "\n";
    }

    /** {@code ls -l} of every directory and a read of every file, all answered and all right. */
    private void everyFileListedAndRead() throws Exception {
        for (int d = 0; d < DIRECTORIES; d++) {
            Process ls = new ProcessBuilder("ls", "-l", mnt.resolve("d" + d).toString()).redirectErrorStream(true).start();
            String out = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(ls.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, ls.exitValue(), "ls -l d" + d + ": " + out.lines().filter(l -> !l.startsWith("-")).limit(3).toList());
            assertEquals(FILES_EACH, out.lines().filter(l -> l.startsWith("-rw")).count(), out);
        }
        for (int d = 0; d < DIRECTORIES; d++) {
            for (int f = 0; f < FILES_EACH; f++) {
                Path p = mnt.resolve("d" + d).resolve("f" + f);
                assertEquals(content(d, f).length(), Os.lstat(Os.bytes(p)).size(), p.toString());
                assertEquals(content(d, f), Files.readString(p), p.toString());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"by handle", "by name"})
    void servesSeveralTimesMoreInodesThanItsDescriptorLimit(String reopen) throws Exception {
        Process p = launch(reopen);
        try {
            tree();
            MirrorProcess.awaitMount(p, mnt, log);
            everyFileListedAndRead();
            everyFileListedAndRead(); // again, most nodes' descriptors closed and opened again meanwhile

            // An open file deleted in the source stays itself, though the mirror's descriptors went round since.
            Path kept = mnt.resolve("d0/f0");
            int fd = Os.open(Os.bytes(kept), Posix.O_RDWR, 0);
            assertTrue(fd >= 0, "open: " + fd);
            try {
                Files.delete(source.resolve("d0/f0"));
                everyFileListedAndReadExcept00();
                assertEquals(0, Libc.fchmod(fd, 0640), "fchmod: the node's own descriptor, not a name");
                Os.StatResult st = Os.fstat(fd);
                assertEquals(0, st.nlink());
                assertEquals(0640, st.mode() & 07777);
                assertEquals(4, Os.pwrite(fd, "more".getBytes(), 100));
                assertEquals("more", new String(Os.pread(fd, 4, 100), StandardCharsets.UTF_8));
            } finally {
                Os.close(fd);
            }

            // A directory renamed through the mirror opens again under its new name; one renamed in
            // the source behind the mirror's back, by handle only (by name it is stale, as documented).
            int renamed = Os.open(Os.bytes(mnt.resolve("d5")), Posix.O_PATH | Posix.O_DIRECTORY, 0);
            int movedAway = Os.open(Os.bytes(mnt.resolve("d6")), Posix.O_PATH | Posix.O_DIRECTORY, 0);
            try {
                Files.move(mnt.resolve("d5"), mnt.resolve("renamed"));
                Files.move(source.resolve("d6"), source.resolve("moved"));
                everyFileOfTheFirstDirectoriesRead(5);
                assertEquals(content(5, 7), Files.readString(Path.of("/proc/self/fd/" + renamed, "f7")));
                Path inMoved = Path.of("/proc/self/fd/" + movedAway, "f7");
                if (reopen.equals("by handle")) {
                    assertEquals(content(6, 7), Files.readString(inMoved));
                } else {
                    assertEquals(-Errno.ESTALE, Os.open(Os.bytes(inMoved), Posix.O_RDONLY, 0));
                }
            } finally {
                Os.close(renamed);
                Os.close(movedAway);
            }

            // Ordinary operations.
            Path made = Files.createDirectory(mnt.resolve("new"));
            Files.writeString(made.resolve("a"), "written");
            Files.move(made.resolve("a"), mnt.resolve("d1/moved"));
            assertEquals("written", Files.readString(source.resolve("d1/moved")));
            Files.delete(mnt.resolve("d1/moved"));
            Files.delete(made);
            assertFalse(Files.exists(source.resolve("new")));

            MirrorProcess.stop(p, mnt, log);
            String out = Files.readString(log);
            assertFalse(out.contains("libgcc_s"), out);
            assertFalse(out.contains("EMFILE") || out.contains("Too many open files"), out);
        } finally {
            MirrorProcess.kill(p, mnt);
        }
    }

    /** Reads every file of d0 to d{count - 1} but d0/f0: more nodes than the mirror keeps descriptors of. */
    private void everyFileOfTheFirstDirectoriesRead(int count) throws Exception {
        for (int d = 0; d < count; d++) {
            for (int f = d == 0 ? 1 : 0; f < FILES_EACH; f++) {
                assertEquals(content(d, f), Files.readString(mnt.resolve("d" + d).resolve("f" + f)));
            }
        }
    }

    private void everyFileListedAndReadExcept00() throws Exception {
        for (int d = 0; d < DIRECTORIES; d++) {
            for (int f = d == 0 ? 1 : 0; f < FILES_EACH; f++) {
                assertEquals(content(d, f), Files.readString(mnt.resolve("d" + d).resolve("f" + f)));
            }
        }
    }

    /**
     * More files held open through the mirror than its limit allows: the opens past it fail with
     * EMFILE, one by one, the mirror says so once, naming the limit and how to raise it, and
     * everything works again once they are closed.
     */
    @Test
    void runningOutOfDescriptorsFailsOnlyTheOperationsThatNeedOne() throws Exception {
        Process p = launch("by handle");
        List<Integer> open = new ArrayList<>();
        try {
            tree();
            MirrorProcess.awaitMount(p, mnt, log);
            int refused = 0;
            long start = System.nanoTime();
            for (int d = 0; d < 3; d++) {
                for (int f = 0; f < FILES_EACH; f++) {
                    int fd = Os.open(Os.bytes(mnt.resolve("d" + d).resolve("f" + f)), Posix.O_RDONLY, 0);
                    if (fd >= 0) {
                        open.add(fd);
                    } else {
                        assertEquals(-Errno.EMFILE, fd, "the error of an open past the limit");
                        refused++;
                    }
                }
            }
            long burstSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(refused > 0 && open.size() > 0, open.size() + " opened, " + refused + " refused");
            for (int fd : open) {
                Os.close(fd);
            }
            open.clear();
            everyFileListedAndRead();
            Files.writeString(mnt.resolve("d0/after"), "works");
            assertEquals("works", Files.readString(source.resolve("d0/after")));

            MirrorProcess.stop(p, mnt, log);
            String out = Files.readString(log);
            List<String> reports = out.lines().filter(l -> l.contains("no descriptor left")).toList();
            assertTrue(reports.size() >= 1 && reports.size() <= 1 + burstSeconds / DescriptorLimit.QUIET_SECONDS,
                    "once per " + DescriptorLimit.QUIET_SECONDS + " s of a burst of " + burstSeconds + " s: " + out);
            assertTrue(reports.get(0).contains("RLIMIT_NOFILE is " + LIMIT) && reports.get(0).contains("ulimit -n"), reports.get(0));
        } finally {
            for (int fd : open) {
                Os.close(fd);
            }
            MirrorProcess.kill(p, mnt);
        }
    }
}
