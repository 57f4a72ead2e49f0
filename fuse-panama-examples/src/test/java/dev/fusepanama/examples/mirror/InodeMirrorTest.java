package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Posix;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the inode mirror adds to the POSIX suite: a file stays itself through the mirror whatever
 * happens to its names, in the mirror or in the source; one node per source inode; every
 * descriptor it holds is closed when the kernel forgets a node or the mount ends.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeMirrorTest {
    @TempDir
    Path tmp;

    private Path source;

    private TestMount mount(InodeMirror fs) throws IOException {
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    private InodeMirror mirror() throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        return InodeMirror.of(source);
    }

    private static String read(int fd) {
        return new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8);
    }

    /** Replaced by a rename in the mirror while open: fstat and reads answer from the old file, as on the source's own filesystem. */
    @Test
    void aFileReplacedInTheMirrorWhileOpenIsStillItself() throws Exception {
        try (TestMount m = mount(mirror())) {
            Files.writeString(m.path("f"), "old");
            long oldIno = Os.lstat(Os.bytes(m.path("f"))).ino();
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                Files.writeString(m.path("g"), "newer");
                Files.move(m.path("g"), m.path("f"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Os.StatResult st = Os.fstat(fd);
                assertEquals(oldIno, st.ino(), "fstat names the file that was opened");
                assertEquals(3, st.size());
                assertEquals(0, st.nlink(), "it has no name left");
                assertEquals("old", read(fd));
                assertEquals("newer", Files.readString(m.path("f")));
            } finally {
                Os.close(fd);
            }
        }
    }

    /**
     * Replaced in the source while open through the mirror (an editor's save, a package
     * upgrade): the name opens the new file at once, and the open file keeps reading the old.
     */
    @Test
    void aFileReplacedInTheSourceWhileOpenOpensAgainAtOnce() throws Exception {
        try (TestMount m = mount(mirror())) {
            Files.writeString(source.resolve("f"), "one");
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                long oldIno = Os.fstat(fd).ino();
                Files.writeString(source.resolve("f.new"), "two");
                Files.move(source.resolve("f.new"), source.resolve("f"), StandardCopyOption.ATOMIC_MOVE);
                assertEquals("two", Files.readString(m.path("f")));
                assertEquals("one", read(fd));
                assertEquals(oldIno, Os.fstat(fd).ino());
                assertEquals(Files.getAttribute(source.resolve("f"), "unix:ino"), Os.lstat(Os.bytes(m.path("f"))).ino());
            } finally {
                Os.close(fd);
            }
        }
    }

    /** Two hard links are one node, so the kernel sees one inode under both names. */
    @Test
    void hardLinksInTheSourceAreOneNode() throws Exception {
        InodeMirror fs = mirror();
        Files.writeString(source.resolve("a"), "shared");
        Files.createLink(source.resolve("b"), source.resolve("a"));
        try (TestMount m = mount(fs)) {
            assertTrue(Files.isSameFile(m.path("a"), m.path("b")));
            assertEquals(Os.lstat(Os.bytes(m.path("a"))).ino(), Os.lstat(Os.bytes(m.path("b"))).ino());
            assertEquals(1, fs.nodes(), "one node for both names");
            Files.writeString(m.path("b"), "changed");
            assertEquals("changed", Files.readString(m.path("a")));
        }
    }

    /** A name that is not UTF-8 reaches the source as the same bytes, and lists back as them. */
    @Test
    void namesArriveInTheSourceByteForByte() throws Exception {
        try (TestMount m = mount(mirror())) {
            byte[] name = {'n', (byte) 0xff, (byte) 0xc3, 'x'};
            Os.close(Os.open(Os.child(m.root(), name), Posix.O_CREAT | Posix.O_WRONLY, 0644));
            assertTrue(Os.listBytes(source).stream().anyMatch(n -> java.util.Arrays.equals(n, name)), "in the source");
            assertTrue(Os.listBytes(m.root()).stream().anyMatch(n -> java.util.Arrays.equals(n, name)), "listed by the mirror");
            assertArrayEquals(new byte[0], Os.pread(Os.open(Os.child(m.root(), name), Posix.O_RDONLY, 0), 10, 0));
        }
    }

    /** When the kernel forgets nodes (here: its caches dropped), their descriptors are closed. */
    @Test
    void forgottenNodesCloseTheirDescriptors() throws Exception {
        InodeMirror fs = mirror();
        for (int i = 0; i < 200; i++) {
            Files.writeString(source.resolve("f" + i), "x");
        }
        try (TestMount m = mount(fs)) {
            for (int i = 0; i < 200; i++) {
                Os.lstat(Os.bytes(m.path("f" + i)));
            }
            assertTrue(fs.nodes() >= 200, "a node per file looked up: " + fs.nodes());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fs.nodes() > 0 && System.nanoTime() < deadline) {
                Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "2");
                Thread.sleep(100);
            }
            assertEquals(0, fs.nodes(), "every node forgotten");
            assertEquals(1, MirrorFileSystemTest.descriptorsOf(source), "only the source's own descriptor is left");
        }
    }

    /** Descriptors of files and directories still open when the connection ends are closed, and the nodes'. */
    @Test
    void everyDescriptorIsClosedWhenTheMountEnds() throws Exception {
        InodeMirror fs = mirror();
        Files.createDirectory(source.resolve("d"));
        Files.writeString(source.resolve("d/f"), "x");
        TestMount.ensureFusectl();
        try (TestMount m = mount(fs)) {
            long connection = (long) Files.getAttribute(m.root(), "unix:dev");
            int file = Os.open(m.path("d/f"), Posix.O_RDONLY);
            int dir = Os.open(Os.bytes(m.path("d")), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
            assertTrue(MirrorFileSystemTest.descriptorsOf(source) >= 5, "the source, two nodes, the file and the directory");
            Files.writeString(Path.of("/sys/fs/fuse/connections", Long.toString(connection), "abort"), "1");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (MirrorFileSystemTest.descriptorsOf(source) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Os.close(file);
            Os.close(dir);
        }
        assertEquals(0, MirrorFileSystemTest.descriptorsOf(source), "no descriptor into the source left after the connection ended");
    }

    /** With passthrough, where this mount can have it, open files' data is the kernel's to move. */
    @Test
    void passthroughWhereTheMountCan() throws Exception {
        boolean expected = TestMount.passthroughExpected();
        try (TestMount m = mount(mirror())) {
            String how = m.handle().describe();
            assertEquals(expected, how.contains("kernel passthrough"), how);
            byte[] data = new byte[1 << 20];
            new java.util.Random(7).nextBytes(data);
            Files.write(m.path("big"), data);
            assertArrayEquals(data, Files.readAllBytes(m.path("big")));
            assertArrayEquals(data, Files.readAllBytes(source.resolve("big")));
        }
    }
}
