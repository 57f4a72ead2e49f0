package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.FuseMount;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The inode mount's notifications, each shown changing what a process sees while the kernel
 * caches names, attributes and data for an hour: before the notification the old state, after
 * it the new one.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeNotificationsThroughMountTest {

    @Test
    void invalidatingAnInodeDropsItsCachedAttributesAndData() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        long ino = fs.put("f", "one");
        try (TestMount m = TestMount.mount(fs)) {
            InodeMount mount = m.inodeHandle();
            assertEquals("one", Files.readString(m.path("f")));
            assertEquals(3, Files.size(m.path("f"))); // a read drops the cached atime: cache the attributes again
            fs.put("f", "two"); // same size: only the data changed
            assertEquals("one", Files.readString(m.path("f")), "the cached data");
            int reads = fs.reads.get();
            assertTrue(mount.invalidateInode(ino, 0, 0), "the data from offset 0 to the end");
            assertEquals("two", Files.readString(m.path("f")));
            assertTrue(fs.reads.get() > reads, "read asked again");

            assertEquals(3, Files.size(m.path("f")));
            fs.put("f", "three, longer");
            assertEquals(3, Files.size(m.path("f")), "the cached size");
            assertTrue(mount.invalidateInode(ino, -1, 0), "attributes only");
            assertEquals(13, Files.size(m.path("f")));
            assertFalse(mount.invalidateInode(12345, -1, 0), "an inode the kernel does not hold");
        }
    }

    @Test
    void invalidatingAnEntryMakesTheKernelLookTheNameUpAgain() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            InodeMount mount = m.inodeHandle();
            assertTrue(Files.exists(m.path("f")));
            fs.remove("f");
            assertTrue(Files.exists(m.path("f")), "the cached name");
            assertTrue(mount.invalidateEntry(InodeFileSystemRoot.ROOT, "f".getBytes(StandardCharsets.UTF_8)));
            assertFalse(Files.exists(m.path("f")));
            assertFalse(mount.invalidateEntry(InodeFileSystemRoot.ROOT, "never".getBytes(StandardCharsets.UTF_8)),
                    "a name the kernel does not hold: nothing to invalidate");
        }
    }

    @Test
    void expiringAnEntryMakesTheNextLookupAskAgain() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            assertTrue(Files.exists(m.path("f")));
            fs.remove("f");
            fs.put("f", "yy"); // a new file under the old name: a new inode
            assertEquals(1, Files.size(m.path("f")), "the cached name, and the old inode's size");
            assertTrue(m.inodeHandle().expireEntry(InodeFileSystemRoot.ROOT, "f".getBytes(StandardCharsets.UTF_8)));
            assertEquals(2, Files.size(m.path("f")), "looked up again: the new inode");
        }
    }

    @Test
    void deletingAnEntryRemovesTheNameFromTheKernel() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        long ino = fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            assertTrue(Files.exists(m.path("f")));
            fs.remove("f");
            assertTrue(Files.exists(m.path("f")), "the cached name");
            assertTrue(m.inodeHandle().deleteEntry(InodeFileSystemRoot.ROOT, ino, "f".getBytes(StandardCharsets.UTF_8)));
            assertThrows(NoSuchFileException.class, () -> Files.size(m.path("f")));
        }
    }

    @Test
    void storedDataIsReadWithoutAskingTheFilesystem() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        long ino = fs.put("f", "abcdef");
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(6, Files.size(m.path("f")));
            // The kernel marks a page valid only if the data covers it, or reaches the end of the file.
            ByteBuffer data = ByteBuffer.wrap("ABCDEF".getBytes(StandardCharsets.UTF_8));
            assertTrue(m.inodeHandle().store(ino, 0, data));
            assertEquals(6, data.remaining(), "the caller's buffer is not consumed");
            int reads = fs.reads.get();
            assertEquals("ABCDEF", Files.readString(m.path("f")));
            assertEquals(reads, fs.reads.get(), "answered from the page cache");
            assertFalse(m.inodeHandle().store(12345, 0, ByteBuffer.allocate(1)), "an inode the kernel does not hold");
        }
    }

    @Test
    void retrievingGetsWhatTheKernelHoldsInItsPageCache() throws Exception {
        FlatInodeFileSystem fs = new FlatInodeFileSystem();
        String content = "0123456789".repeat(1000); // 10,000 bytes: two full pages and part of a third
        long ino = fs.put("f", content);
        long other = fs.put("g", "never read");
        try (TestMount m = TestMount.mount(fs)) {
            InodeMount mount = m.inodeHandle();
            assertEquals(content, Files.readString(m.path("f")));
            fs.put("f", "x".repeat(10_000)); // the kernel's copy is now the only one with the old data
            byte[] all = mount.retrieve(ino, 0, 1 << 20).get(10, TimeUnit.SECONDS);
            assertEquals(content, new String(all, StandardCharsets.US_ASCII), "up to the end of the file, not the size asked");
            byte[] middle = mount.retrieve(ino, 4090, 20).get(10, TimeUnit.SECONDS);
            assertEquals(content.substring(4090, 4110), new String(middle, StandardCharsets.US_ASCII), "across a page boundary");

            assertTrue(mount.invalidateInode(ino, 4096, 0), "drop the pages from the second on");
            byte[] first = mount.retrieve(ino, 0, 10_000).get(10, TimeUnit.SECONDS);
            assertEquals(content.substring(0, 4096), new String(first, StandardCharsets.US_ASCII), "stops at the first page it lacks");

            assertTrue(Files.exists(m.path("g")));
            assertEquals(0, mount.retrieve(other, 0, 100).get(10, TimeUnit.SECONDS).length, "looked up, never read: no pages");
            assertEquals(0, mount.retrieve(12345, 0, 100).get(10, TimeUnit.SECONDS).length, "an inode the kernel does not hold");
        }
    }

    @Test
    void notifyingFromInsideAnOperationOrAfterTheEndIsRefused() throws Exception {
        AtomicReference<Throwable> inside = new AtomicReference<>();
        AtomicReference<InodeMount> self = new AtomicReference<>();
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply) throws java.io.IOException {
                if (name.toString().equals("trigger")) {
                    try {
                        self.get().invalidateInode(ROOT, -1, 0);
                    } catch (Throwable t) {
                        inside.set(t);
                    }
                }
                super.lookup(request, parent, name, reply);
            }
        };
        InodeMount ended;
        try (TestMount m = TestMount.mount(fs)) {
            self.set(m.inodeHandle());
            assertFalse(Files.exists(m.path("trigger")));
            assertTrue(inside.get() instanceof IllegalStateException, "refused inside: " + inside.get());
            assertFalse(FuseMount.class.isInstance(m.handle()), "no path notification on an inode mount: it does not compile");
            ended = m.inodeHandle();
        }
        assertThrows(IllegalStateException.class, () -> ended.invalidateInode(1, -1, 0));
        assertThrows(IllegalStateException.class, () -> ended.retrieve(1, 0, 1));
    }

    /** The root's number, named for readability. */
    private static final class InodeFileSystemRoot {
        static final long ROOT = InodeFileSystem.ROOT;
    }
}
