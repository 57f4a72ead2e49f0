package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.FileInfo;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The debug mode of the system property {@code fusepanama.checkViews}: a view kept past its call
 * throws instead of silently reading the next request's memory; without it, nothing changes.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ViewCheckThroughMountTest {
    private static final String PROPERTY = "fusepanama.checkViews";

    @AfterEach
    void off() {
        System.clearProperty(PROPERTY);
    }

    /** One file whose getattr and read keep what they were handed. */
    static final class Keeping extends ForwardingThroughMountTest.OneFile {
        final AtomicReference<Stat> stat = new AtomicReference<>();
        final AtomicReference<ByteBuffer> buffer = new AtomicReference<>();

        @Override
        public int getattr(String path, Stat st, FileInfo fi) {
            int rc = super.getattr(path, st, fi);
            if (path.equals("/f")) stat.set(st);
            return rc;
        }

        @Override
        public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
            buffer.set(buf);
            return super.read(path, buf, offset, fi);
        }
    }

    @Test
    void aPathViewKeptPastItsCallThrowsInTheDebugMode() throws Exception {
        System.setProperty(PROPERTY, "true");
        Keeping fs = new Keeping();
        try (TestMount m = TestMount.mount(fs)) {
            assertTrue(m.handle().describe().contains("views checked"), m.handle().describe());
            assertEquals("forwarded\n", Files.readString(m.path("f")), "views work during the call");
            IllegalStateException kept = assertThrows(IllegalStateException.class, () -> fs.stat.get().size());
            assertTrue(kept.getMessage().contains("getattr"), kept.getMessage());
            assertThrows(IllegalStateException.class, () -> fs.buffer.get().get(0), "a read's buffer too");
        }
    }

    @Test
    void withoutTheDebugModeNothingChecks() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("FUSE_PANAMA_CHECK_VIEWS") == null,
                "the whole run checks views (FUSE_PANAMA_CHECK_VIEWS)");
        Keeping fs = new Keeping();
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals("forwarded\n", Files.readString(m.path("f")));
            assertDoesNotThrow(() -> fs.stat.get().size(), "the unchecked view just points somewhere");
        }
    }

    @Test
    void anInodeNameKeptPastItsCallThrows() throws Exception {
        System.setProperty(PROPERTY, "true");
        AtomicReference<Name> name = new AtomicReference<>();
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void lookup(Request request, long parent, Name n, EntryReply reply) throws java.io.IOException {
                name.set(n);
                super.lookup(request, parent, n, reply);
            }
        };
        fs.put("f", "inode\n");
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals("inode\n", Files.readString(m.path("f")));
            // The inode API answers inside the call, so the caller may see the answer before the
            // call has returned and its views expired: wait for that, a few seconds at most.
            IllegalStateException thrown = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (thrown == null && System.nanoTime() < deadline) {
                try {
                    name.get().bytes();
                    Thread.sleep(1);
                } catch (IllegalStateException e) {
                    thrown = e;
                }
            }
            assertTrue(thrown != null && thrown.getMessage().contains("lookup"), "a kept Name throws once its call returned: " + thrown);
        }
    }
}
