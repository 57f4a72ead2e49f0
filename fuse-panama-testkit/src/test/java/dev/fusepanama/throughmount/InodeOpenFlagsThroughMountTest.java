package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an open's flags tell the kernel, seen in the requests that reach the filesystem. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeOpenFlagsThroughMountTest {

    /** Files opened for reading say NO_FLUSH; the others do not. */
    static final class Flushes extends FlatInodeFileSystem {
        final AtomicInteger flushes = new AtomicInteger();

        @Override
        public void open(Request request, long ino, int flags, OpenReply reply) {
            boolean readOnly = (flags & Posix.O_ACCMODE) == Posix.O_RDONLY;
            reply.open(ino, OpenReply.KEEP_CACHE | (readOnly ? OpenReply.NO_FLUSH : 0));
        }

        @Override
        public void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) {
            flushes.incrementAndGet();
            reply.ok();
        }
    }

    @Test
    void aFileOpenedWithNoFlushIsClosedWithoutAFlushRequest() throws Exception {
        Flushes fs = new Flushes();
        fs.put("f", "data");
        try (TestMount m = TestMount.mount(fs)) {
            for (int i = 0; i < 3; i++) assertEquals("data", Files.readString(m.root().resolve("f")));
            // libfuse 3.10's fuse_file_info has no noflush bit, kernels before 5.16 no FOPEN_NOFLUSH:
            // there every close flushes
            String kernel = Files.readString(java.nio.file.Path.of("/proc/sys/kernel/osrelease")).trim();
            String[] k = kernel.split("[.-]");
            boolean kernelHasIt = Integer.parseInt(k[0]) > 5 || (Integer.parseInt(k[0]) == 5 && Integer.parseInt(k[1]) >= 16);
            int expected = TestMount.libfuseAtLeast(3, 11) && kernelHasIt ? 0 : 3;
            assertEquals(expected, fs.flushes.get(), "flushes after three read-only opens and closes");

            try (var w = java.nio.channels.FileChannel.open(m.root().resolve("f"), java.nio.file.StandardOpenOption.WRITE)) {
                // opened for writing: its close must flush
            }
            assertEquals(expected + 1, fs.flushes.get(), "a close of a file open for writing flushes");
        }
    }
}
