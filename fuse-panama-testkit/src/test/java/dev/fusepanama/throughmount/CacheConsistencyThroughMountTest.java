package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link MountOptions.Builder#autoInvalData} changes, seen through a real mount with attribute
 * caching off: without it (the default) reads of an open file are served from the page cache with
 * no getattr, and a change made behind the kernel's back is seen at the next open; with it the
 * kernel asks for the attributes before reads and sees the change while the file stays open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CacheConsistencyThroughMountTest {
    static final byte[] OLD = filled('a');
    static final byte[] NEW = filled('b');

    static byte[] filled(char c) {
        byte[] b = new byte[8192];
        Arrays.fill(b, (byte) c);
        return b;
    }

    static MountOptions.Builder uncached() {
        return MountOptions.builder().attrTimeout(0).entryTimeout(0).negativeTimeout(0);
    }

    /** Reads the first 4 KiB {@code times} times, a few milliseconds apart so cached attributes have surely expired. */
    static byte[] readRepeatedly(int fd, int times) throws InterruptedException {
        byte[] last = null;
        for (int i = 0; i < times; i++) {
            Thread.sleep(12);
            last = Os.pread(fd, 4096, 0);
        }
        return last;
    }

    @Test
    void byDefaultReadsOfAnOpenFileNeedNoGetattrAndTheNextOpenSeesChanges() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs, uncached().build())) {
            Files.write(m.path("f"), OLD);
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                assertArrayEquals(Arrays.copyOf(OLD, 4096), Os.pread(fd, 4096, 0));
                int getattrs = fs.calls("getattr");
                int reads = fs.calls("read");
                readRepeatedly(fd, 8);
                assertEquals(getattrs, fs.calls("getattr"), "cached reads asked for attributes");
                assertEquals(reads, fs.calls("read"), "cached reads reached the filesystem");
            } finally {
                Os.close(fd);
            }
            fs.replaceData("/f", NEW);
            assertArrayEquals(NEW, Files.readAllBytes(m.path("f")), "a new open must drop the cached data");
        }
    }

    @Test
    void autoInvalDataChecksAttributesBeforeReadsAndSeesChangesWhileOpen() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs, uncached().autoInvalData(true).build())) {
            Files.write(m.path("f"), OLD);
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                assertArrayEquals(Arrays.copyOf(OLD, 4096), Os.pread(fd, 4096, 0));
                int getattrs = fs.calls("getattr");
                readRepeatedly(fd, 8);
                assertTrue(fs.calls("getattr") - getattrs >= 4,
                        "expected a getattr before most reads, got " + (fs.calls("getattr") - getattrs) + " for 8");
                fs.replaceData("/f", NEW);
                assertArrayEquals(Arrays.copyOf(NEW, 4096), readRepeatedly(fd, 1), "the open file must see the new data");
            } finally {
                Os.close(fd);
            }
        }
    }
}
