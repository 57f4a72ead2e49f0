package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernel passthrough ({@link FileInfo#setPassthrough}) through real mounts: where the mount can
 * pass files through (libfuse 3.17+, root, Linux 6.9+) no read or write reaches the filesystem
 * and the data is the backing file's; elsewhere (libfuse 3.10 and 3.14 in the version matrix,
 * or without root) the same checks pass with the filesystem serving the data, and the mount
 * says why.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PassthroughThroughMountTest {
    @TempDir
    Path backing;

    /** A flat directory whose files are files of {@code dir}, one descriptor per open file. */
    static final class Backed implements FuseFileSystem {
        final Path dir;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger passedThrough = new AtomicInteger();
        final Set<Integer> open = ConcurrentHashMap.newKeySet();
        /** What reached the filesystem, in order, for failure messages. */
        final java.util.Queue<String> served = new java.util.concurrent.ConcurrentLinkedQueue<>();
        /** Open hints set on every open besides the passthrough (the kernel refuses some of them beside it). */
        volatile boolean keepCache;
        volatile boolean nonSeekable;

        Backed(Path dir) {
            this.dir = dir;
        }

        private Path file(String path) {
            return dir.resolve(path.substring(1));
        }

        @Override
        public int getattr(String path, Stat stat, FileInfo fi) throws IOException {
            if (path.equals("/")) {
                stat.setMode(Posix.S_IFDIR | 0755).setNlink(2);
                return 0;
            }
            Path f = file(path);
            if (!Files.isRegularFile(f)) {
                return -Errno.ENOENT;
            }
            stat.setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(Files.size(f));
            return 0;
        }

        @Override
        public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException {
            filler.add(".");
            filler.add("..");
            try (var names = Files.list(dir)) {
                for (Path p : (Iterable<Path>) names::iterator) {
                    filler.add(p.getFileName().toString());
                }
            }
            return 0;
        }

        private int opened(int fd, FileInfo fi) {
            if (fd < 0) {
                return fd;
            }
            open.add(fd);
            fi.setFh(fd);
            fi.setKeepCache(keepCache).setNonSeekable(nonSeekable);
            boolean through = fi.setPassthrough(fd);
            served.add("open fh " + fd + " flags 0" + Integer.toOctalString(fi.flags()) + (through ? " passed through" : ""));
            if (through) {
                passedThrough.incrementAndGet();
            }
            return 0;
        }

        @Override
        public int open(String path, FileInfo fi) {
            return opened(Os.open(Os.bytes(file(path)), fi.flags() & ~(Posix.O_CREAT | Posix.O_EXCL), 0), fi);
        }

        @Override
        public int create(String path, int mode, FileInfo fi) {
            return opened(Os.open(Os.bytes(file(path)), fi.flags() | Posix.O_CREAT, mode & 0777), fi);
        }

        @Override
        public int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) {
            reads.incrementAndGet();
            served.add("read " + path + " at " + offset + " of fh " + fi.fh());
            reply.fromFd((int) fi.fh(), offset, size);
            return 0;
        }

        @Override
        public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws IOException {
            writes.incrementAndGet();
            served.add("write " + path + " at " + offset + " of fh " + fi.fh());
            return (int) data.copyToFd((int) fi.fh(), offset);
        }

        @Override
        public int truncate(String path, long size, FileInfo fi) {
            return fi != null ? Os.ftruncate((int) fi.fh(), size) : Os.truncate(Os.bytes(file(path)), size);
        }

        @Override
        public int fsync(String path, boolean dataOnly, FileInfo fi) {
            return dataOnly ? Os.fdatasync((int) fi.fh()) : Os.fsync((int) fi.fh());
        }

        @Override
        public int rename(String from, String to, int flags) {
            return Os.renameat2(Os.bytes(file(from)), Os.bytes(file(to)), flags);
        }

        @Override
        public int unlink(String path) {
            return Os.unlink(Os.bytes(file(path)));
        }

        /** The kernel sends release after close returns: waits a little for it. */
        void awaitReleased() throws InterruptedException {
            for (int i = 0; i < 200 && !open.isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertTrue(open.isEmpty(), "every open file was released: " + open);
        }

        @Override
        public int release(String path, FileInfo fi) {
            int fd = (int) fi.fh();
            open.remove(fd);
            return Os.close(fd);
        }
    }

    static boolean passthroughExpected() throws IOException {
        return TestMount.passthroughExpected();
    }

    private static final KernelSettings UNCACHED = KernelSettings.builder().attrTimeout(0).entryTimeout(0).negativeEntries(0).build();

    private static MountOptions options() {
        // Nothing cached by the kernel's attribute cache, so sizes are always the backing file's.
        return MountOptions.builder().passthrough(true).build();
    }

    @Test
    void dataGoesStraightToTheBackingFileThroughWritesAppendsTruncatesAndRenames() throws Exception {
        boolean expected = passthroughExpected();
        Backed fs = new Backed(backing);
        try (TestMount m = TestMount.mount(fs, options(), UNCACHED)) {
            String how = m.handle().describe();
            assertEquals(expected, how.contains("kernel passthrough"), how);
            if (!expected) {
                assertTrue(how.contains("no passthrough: "), "says why not: " + how);
            }
            byte[] data = new byte[3 * 1024 * 1024 + 17];
            new Random(21).nextBytes(data);
            Files.write(m.path("f"), data);
            assertArrayEquals(data, Files.readAllBytes(backing.resolve("f")), "written through the mount = the backing file");
            assertArrayEquals(data, Files.readAllBytes(m.path("f")));

            byte[] tail = "appended".getBytes();
            Files.write(m.path("f"), tail, StandardOpenOption.APPEND);
            byte[] appended = Arrays.copyOf(data, data.length + tail.length);
            System.arraycopy(tail, 0, appended, data.length, tail.length);
            assertArrayEquals(appended, Files.readAllBytes(backing.resolve("f")));
            assertEquals(appended.length, Files.size(m.path("f")));

            try (FileChannel c = FileChannel.open(m.path("f"), StandardOpenOption.WRITE)) {
                c.truncate(1000);
            }
            assertEquals(1000, Files.size(backing.resolve("f")));
            assertArrayEquals(Arrays.copyOf(data, 1000), Files.readAllBytes(m.path("f")));
            try (RandomAccessFile raf = new RandomAccessFile(m.path("f").toFile(), "rw")) {
                raf.setLength(5000); // a truncate up reads as zeros
                raf.seek(4000);
                raf.write(tail);
            }
            byte[] grown = Arrays.copyOf(data, 5000);
            Arrays.fill(grown, 1000, 5000, (byte) 0);
            System.arraycopy(tail, 0, grown, 4000, tail.length);
            assertArrayEquals(grown, Files.readAllBytes(m.path("f")));
            assertArrayEquals(grown, Files.readAllBytes(backing.resolve("f")));

            Files.move(m.path("f"), m.path("g"));
            assertArrayEquals(grown, Files.readAllBytes(m.path("g")));
            assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(m.path("f")));

            // Changed in the backing file by someone else: seen at once, there is no FUSE page cache to drop.
            try (FileChannel c = FileChannel.open(backing.resolve("g"), StandardOpenOption.WRITE)) {
                c.write(java.nio.ByteBuffer.wrap("BACK".getBytes()), 0);
            }
            assertEquals("BACK", new String(Arrays.copyOf(Files.readAllBytes(m.path("g")), 4)));

            if (expected) {
                assertEquals(0, fs.reads.get(), "no read reached the filesystem: " + fs.served);
                assertEquals(0, fs.writes.get(), "no write reached the filesystem: " + fs.served);
                assertTrue(fs.passedThrough.get() >= 6, "opens passed through: " + fs.passedThrough.get());
            } else {
                assertTrue(fs.reads.get() > 0 && fs.writes.get() > 0, "the filesystem served the data");
                assertEquals(0, fs.passedThrough.get());
            }
            fs.awaitReleased();
        }
    }

    /**
     * The kernel refuses an open that asks for keep-cache or non-seekable beside passthrough
     * (EINVAL); a passed-through file is a regular file with no FUSE page cache, so both hints
     * are dropped and the open succeeds.
     */
    @Test
    void hintsTheKernelRefusesBesidePassthroughAreDroppedNotFailed() throws Exception {
        Backed fs = new Backed(backing);
        fs.keepCache = true;
        fs.nonSeekable = true;
        Files.writeString(backing.resolve("h"), "0123456789");
        try (TestMount m = TestMount.mount(fs, options(), UNCACHED)) {
            assertEquals("0123456789", Files.readString(m.path("h")));
            try (FileChannel c = FileChannel.open(m.path("h"), StandardOpenOption.READ)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(3);
                if (passthroughExpected()) {
                    c.read(b, 5);
                    assertEquals("567", new String(b.array()), "passed through: seekable");
                    assertEquals(0, fs.reads.get(), "passed through: " + fs.served);
                } else {
                    assertThrows(IOException.class, () -> c.read(b, 5), "served by the filesystem: the hint holds");
                }
            }
            fs.awaitReleased();
        }
    }

    @Test
    void concurrentOpensOfOneFileShareItsBackingAndAMappingWritesTheBackingFile() throws Exception {
        boolean expected = passthroughExpected();
        Backed fs = new Backed(backing);
        Files.write(backing.resolve("shared"), new byte[8192]);
        try (TestMount m = TestMount.mount(fs, options(), UNCACHED)) {
            try (RandomAccessFile a = new RandomAccessFile(m.path("shared").toFile(), "rw");
                    RandomAccessFile b = new RandomAccessFile(m.path("shared").toFile(), "r")) {
                a.seek(100);
                a.write("first".getBytes());
                byte[] got = new byte[5];
                b.seek(100);
                b.readFully(got);
                assertEquals("first", new String(got));
                try (RandomAccessFile c = new RandomAccessFile(m.path("shared").toFile(), "rw")) {
                    c.seek(200);
                    c.write("third".getBytes());
                }
                // The third open's release must not end the backing the other two still use.
                try (RandomAccessFile d = new RandomAccessFile(m.path("shared").toFile(), "r")) {
                    d.seek(200);
                    d.readFully(got);
                    assertEquals("third", new String(got));
                }
                a.seek(300);
                a.write("again".getBytes());
            }
            try (FileChannel ch = FileChannel.open(m.path("shared"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
                map.put(4096, "mapped".getBytes());
                map.force();
            }
            byte[] back = Files.readAllBytes(backing.resolve("shared"));
            assertEquals("first", new String(back, 100, 5));
            assertEquals("third", new String(back, 200, 5));
            assertEquals("again", new String(back, 300, 5));
            assertEquals("mapped", new String(back, 4096, 6));
            if (expected) {
                assertEquals(0, fs.reads.get() + fs.writes.get(), "data requests reached the filesystem: " + fs.served);
            }
            // Not awaiting the releases here: the mapping holds its file until the GC unmaps it.
        }
    }

    /**
     * The documented limit of the path API: a name keeps its kernel inode when the backing file
     * behind it is replaced, and the kernel allows one backing file per inode while it is open.
     * Opening the replaced file fails (EIO) while the old one is open; once it is closed the new
     * file opens and reads as itself. Nothing is lost either way.
     */
    @Test
    void aFileReplacedBehindTheMountWhileOpenOpensAgainOnceTheOldOneIsClosed() throws Exception {
        boolean expected = passthroughExpected();
        Backed fs = new Backed(backing);
        Files.writeString(backing.resolve("r"), "old");
        try (TestMount m = TestMount.mount(fs, options(), UNCACHED)) {
            try (RandomAccessFile old = new RandomAccessFile(m.path("r").toFile(), "r")) {
                Path replacement = backing.resolve("r.new");
                Files.writeString(replacement, "new");
                Files.move(replacement, backing.resolve("r"), StandardCopyOption.ATOMIC_MOVE);
                if (expected) {
                    IOException e = assertThrows(IOException.class, () -> Files.readString(m.path("r")));
                    assertTrue(String.valueOf(e.getMessage()).contains("Input/output error"), e.toString());
                } else {
                    assertEquals("new", Files.readString(m.path("r")));
                }
                byte[] got = new byte[3];
                old.readFully(got);
                // Passed through, each open reads its own backing file; served by the filesystem,
                // the kernel's one page cache per inode has the new file's data by now.
                assertEquals(expected ? "old" : "new", new String(got), "what the program that had it open reads");
            }
            assertEquals("new", Files.readString(m.path("r")));
            fs.awaitReleased(); // also the open the kernel refused
        }
    }

    @Test
    void aMountThatDidNotAskForPassthroughServesTheDataItself() throws Exception {
        Backed fs = new Backed(backing);
        try (TestMount m = TestMount.mount(fs, KernelSettings.builder().attrTimeout(0).build())) {
            assertTrue(m.handle().describe().contains("data through the filesystem"), m.handle().describe());
            Files.writeString(m.path("x"), "plain");
            assertEquals("plain", Files.readString(m.path("x")));
            assertTrue(fs.reads.get() > 0 && fs.writes.get() > 0);
            assertEquals(0, fs.passedThrough.get(), "setPassthrough answers false where the mount did not ask");
        }
    }

    @Test
    void passthroughRefusesOptionsThatDecideEveryFilesCache() {
        var scratch = new ScratchFileSystem();
        for (KernelSettings pageCache : List.of(KernelSettings.builder().keepCache(true).build(), KernelSettings.builder().directIo(true).build(),
                KernelSettings.builder().writebackCache(true).build())) {
            MountException e = assertThrows(MountException.class, () -> TestMount.mount(scratch, options(), pageCache).close());
            assertTrue(e.getMessage().contains("passthrough cannot be combined"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().option("io_uring"));
    }
}
