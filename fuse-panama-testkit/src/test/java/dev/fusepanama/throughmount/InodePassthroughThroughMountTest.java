package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernel passthrough on the inode API ({@link OpenReply#passthrough}, {@link CreateReply#passthrough}):
 * where the mount can (libfuse 3.17+, root, Linux 6.9+) no read or write reaches the filesystem;
 * elsewhere the same data is served by it, and the mount says why.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodePassthroughThroughMountTest {
    @TempDir
    Path backing;

    /** A flat directory of the files of {@code dir}; inode numbers are the backing files' own. */
    static final class Backed implements InodeFileSystem {
        final Path dir;
        final Map<Long, Path> inodes = new ConcurrentHashMap<>();
        final Set<Long> open = ConcurrentHashMap.newKeySet();
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger passedThrough = new AtomicInteger();
        /** The flags every open answers with besides the passthrough. */
        volatile int openFlags;

        Backed(Path dir) {
            this.dir = dir;
        }

        private boolean fill(Stat st, Path p) throws IOException {
            if (!Files.isRegularFile(p)) return false;
            long ino = (Long) Files.getAttribute(p, "unix:ino");
            inodes.put(ino, p);
            st.setIno(ino).setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(Files.size(p));
            return true;
        }

        @Override
        public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
            Path p = dir.resolve(name.toString());
            if (parent != ROOT || !fill(reply.attributes(), p)) {
                reply.error(Errno.ENOENT);
                return;
            }
            reply.entry(Inode.of((Long) Files.getAttribute(p, "unix:ino")), Timeouts.NONE);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
            if (ino == ROOT) {
                reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
            } else if (!inodes.containsKey(ino) || !fill(reply.attributes(), inodes.get(ino))) {
                reply.error(Errno.ENOENT);
                return;
            }
            reply.send(Timeouts.NONE);
        }

        @Override
        public void open(Request request, long ino, int flags, OpenReply reply) {
            int fd = Os.open(Os.bytes(inodes.get(ino)), flags & ~(Posix.O_CREAT | Posix.O_EXCL | Posix.O_TRUNC), 0);
            if (fd < 0) {
                reply.error(-fd);
                return;
            }
            open.add((long) fd);
            if (reply.passthrough(fd)) passedThrough.incrementAndGet();
            reply.open(fd, openFlags);
        }

        @Override
        public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
            Path p = dir.resolve(name.toString());
            int fd = Os.open(Os.bytes(p), flags | Posix.O_CREAT, mode & 0777);
            if (fd < 0) {
                reply.error(-fd);
                return;
            }
            open.add((long) fd);
            fill(reply.attributes(), p);
            if (reply.passthrough(fd)) passedThrough.incrementAndGet();
            reply.created(Inode.of((Long) Files.getAttribute(p, "unix:ino")), Timeouts.NONE, fd, 0);
        }

        @Override
        public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
            reads.incrementAndGet();
            byte[] d = Os.pread((int) fh, (int) size, offset);
            reply.data(d, 0, d.length);
        }

        @Override
        public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
            writes.incrementAndGet();
            byte[] b = new byte[data.remaining()];
            data.get(b);
            long n = Os.pwrite((int) fh, b, offset);
            if (n < 0) reply.error((int) -n); else reply.written(n);
        }

        @Override
        public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
            open.remove(fh);
            Os.close((int) fh);
            reply.ok();
        }

        void awaitReleased() throws InterruptedException {
            for (int i = 0; i < 200 && !open.isEmpty(); i++) Thread.sleep(10);
            assertTrue(open.isEmpty(), "every open file was released: " + open);
        }
    }

    @Test
    void dataGoesStraightToTheBackingFile() throws Exception {
        boolean expected = TestMount.passthroughExpected();
        Backed fs = new Backed(backing);
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().passthrough(true).build())) {
            String how = m.handle().describe();
            assertEquals(expected, how.contains("kernel passthrough"), how);
            byte[] data = new byte[1024 * 1024 + 7];
            new Random(3).nextBytes(data);
            Files.write(m.path("f"), data);
            assertArrayEquals(data, Files.readAllBytes(backing.resolve("f")));
            assertArrayEquals(data, Files.readAllBytes(m.path("f")));
            try (RandomAccessFile a = new RandomAccessFile(m.path("f").toFile(), "rw");
                    RandomAccessFile b = new RandomAccessFile(m.path("f").toFile(), "r")) {
                a.seek(10);
                a.write("shared".getBytes());
                byte[] got = new byte[6];
                b.seek(10);
                b.readFully(got);
                assertEquals("shared", new String(got), "two opens of one inode share its backing file");
            }
            Files.write(m.path("f"), "more".getBytes(), StandardOpenOption.APPEND);
            byte[] back = Files.readAllBytes(backing.resolve("f"));
            assertEquals(data.length + 4, back.length);
            assertEquals("more", new String(Arrays.copyOfRange(back, data.length, back.length)));
            if (expected) {
                assertEquals(0, fs.reads.get() + fs.writes.get(), "data requests reached the filesystem");
                assertTrue(fs.passedThrough.get() >= 4);
            } else {
                assertTrue(fs.reads.get() > 0 && fs.writes.get() > 0, "the filesystem served the data");
                assertEquals(0, fs.passedThrough.get());
            }
            fs.awaitReleased();
        }
    }

    /** Keep-cache and non-seekable beside passthrough: the kernel would refuse the open; they are dropped. */
    @Test
    void hintsTheKernelRefusesBesidePassthroughAreDroppedNotFailed() throws Exception {
        Backed fs = new Backed(backing);
        fs.openFlags = OpenReply.KEEP_CACHE | OpenReply.NONSEEKABLE;
        Files.writeString(backing.resolve("h"), "0123456789");
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().passthrough(true).build())) {
            assertEquals("0123456789", Files.readString(m.path("h")));
            try (RandomAccessFile r = new RandomAccessFile(m.path("h").toFile(), "r")) {
                if (TestMount.passthroughExpected()) {
                    r.seek(5);
                    assertEquals('5', r.read(), "passed through: seekable");
                    assertEquals(0, fs.reads.get(), "passed through");
                } else {
                    assertThrows(IOException.class, () -> {
                        r.seek(5);
                        r.read();
                    }, "served by the filesystem: the hint holds");
                }
            }
            fs.awaitReleased();
        }
    }
}
