package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Flock;
import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.Request;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A decorator registers what the filesystem it wraps implements, whatever it overrides itself:
 * overriding a method to watch it neither adds an operation the kernel would then send (and the
 * wrapped filesystem answer ENOSYS) nor drops one.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ForwardingThroughMountTest {

    /** One file, "/f"; no locking, so the kernel keeps locks itself. */
    static class OneFile implements FuseFileSystem {
        static final byte[] TEXT = "forwarded\n".getBytes(StandardCharsets.UTF_8);

        @Override
        public int getattr(String path, Stat st, FileInfo fi) {
            if (path.equals("/")) { st.setMode(Posix.S_IFDIR | 0755).setNlink(2); return 0; }
            if (!path.equals("/f")) return -Errno.ENOENT;
            st.setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(TEXT.length);
            return 0;
        }

        @Override
        public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
            filler.add(".");
            filler.add("..");
            filler.add("f");
            return 0;
        }

        @Override
        public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
            if (offset >= TEXT.length) return 0;
            int n = (int) Math.min(buf.remaining(), TEXT.length - offset);
            buf.put(TEXT, (int) offset, n);
            return n;
        }
    }

    /** Counts getattr; also overrides lock, which the wrapped filesystem does not implement. */
    static final class Counting extends ForwardingFileSystem {
        final AtomicInteger getattrs = new AtomicInteger();
        final AtomicInteger locks = new AtomicInteger();

        Counting(FuseFileSystem fs) {
            super(fs);
        }

        @Override
        public int getattr(String path, Stat st, FileInfo fi) throws java.io.IOException {
            getattrs.incrementAndGet();
            return super.getattr(path, st, fi);
        }

        @Override
        public int lock(String path, FileInfo fi, int cmd, Flock lock) throws java.io.IOException {
            locks.incrementAndGet();
            return super.lock(path, fi, cmd, lock);
        }
    }

    private static int operations(TestMount m) {
        Matcher o = Pattern.compile("(\\d+) operations").matcher(m.handle().describe());
        assertTrue(o.find(), m.handle().describe());
        return Integer.parseInt(o.group(1));
    }

    @Test
    void aPathDecoratorRegistersWhatItWrapsImplements() throws Exception {
        int plain;
        try (TestMount m = TestMount.mount(new OneFile())) {
            plain = operations(m);
        }
        Counting counting = new Counting(new Counting(new OneFile())); // wrappers of wrappers too
        try (TestMount m = TestMount.mount(counting)) {
            assertEquals(plain, operations(m), "the wrapped filesystem's operations, not the decorator's overrides");
            assertEquals("forwarded\n", Files.readString(m.path("f")));
            assertTrue(counting.getattrs.get() > 0, "the decorator sees the calls it watches");
            try (FileChannel c = FileChannel.open(m.path("f"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                c.lock().release(); // POSIX locks kept by the kernel: lock is not registered
            } catch (java.io.IOException noWrite) {
                try (FileChannel c = FileChannel.open(m.path("f"), StandardOpenOption.READ)) {
                    c.lock(0, Long.MAX_VALUE, true).release();
                }
            }
            assertEquals(0, counting.locks.get(), "lock never reached the decorator: the kernel kept the lock");
        }
    }

    /** Counts getattr; also overrides access, which the wrapped filesystem does not implement. */
    static final class CountingInode extends ForwardingInodeFileSystem {
        final AtomicInteger getattrs = new AtomicInteger();
        final AtomicInteger accesses = new AtomicInteger();

        CountingInode(FlatInodeFileSystem fs) {
            super(fs);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) throws java.io.IOException {
            getattrs.incrementAndGet();
            super.getattr(request, ino, fh, reply);
        }

        @Override
        public void access(Request request, long ino, int mask, EmptyReply reply) throws java.io.IOException {
            accesses.incrementAndGet();
            super.access(request, ino, mask, reply);
        }
    }

    @Test
    void anInodeDecoratorRegistersWhatItWrapsImplements() throws Exception {
        FlatInodeFileSystem inner = new FlatInodeFileSystem();
        inner.put("f", "inode\n");
        int plain;
        try (TestMount m = TestMount.mount(inner)) {
            plain = operations(m);
        }
        CountingInode counting = new CountingInode(inner);
        try (TestMount m = TestMount.mount(counting)) {
            assertEquals(plain, operations(m));
            assertEquals("inode\n", Files.readString(m.path("f")));
            assertTrue(Files.isReadable(m.path("f")), "access(2) answered by the kernel from the modes");
            assertEquals(0, counting.accesses.get(), "access was not registered");
        }
    }
}
