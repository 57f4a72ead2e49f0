package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CacheConsistencyThroughMountTest {
    static final byte[] OLD = filled('a');
    static final byte[] NEW = filled('b');

    static byte[] filled(char c) {
        byte[] b = new byte[8192];
        Arrays.fill(b, (byte) c);
        return b;
    }

    static final KernelSettings UNCACHED = KernelSettings.builder().attrTimeout(0).entryTimeout(0).negativeEntries(0).build();

    static MountOptions.Builder uncached() {
        return MountOptions.builder();
    }

    /** Reads the first 4 KiB {@code times} times, each after the attributes cached before it have expired. */
    static byte[] readRepeatedly(int fd, int times) throws Exception {
        byte[] last = null;
        for (int i = 0; i < times; i++) {
            awaitAttributeExpiry();
            last = Os.pread(fd, 4096, 0);
        }
        return last;
    }

    private static final Path TIMER_LIST = Path.of("/proc/timer_list");

    /**
     * With a timeout of 0 the kernel's cached attributes expire once its jiffies counter has moved
     * past the tick they were cached in: wait for two ticks, read from /proc/timer_list. Only root
     * may read it; anyone else waits 12 ms, three ticks even at the coarsest HZ of 250.
     */
    static void awaitAttributeExpiry() throws Exception {
        if (!Files.isReadable(TIMER_LIST)) {
            Thread.sleep(12);
            return;
        }
        long start = jiffies();
        while (jiffies() < start + 2) {
            Thread.onSpinWait();
        }
    }

    private static long jiffies() throws IOException {
        try (BufferedReader r = Files.newBufferedReader(TIMER_LIST)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("jiffies: ")) {
                    return Long.parseLong(line.substring("jiffies: ".length()).trim());
                }
            }
        }
        throw new IllegalStateException("no jiffies line in " + TIMER_LIST);
    }

    @Test
    void byDefaultReadsOfAnOpenFileNeedNoGetattrAndTheNextOpenSeesChanges() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs, uncached().build(), UNCACHED)) {
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
        try (TestMount m = TestMount.mount(fs, uncached().build(), UNCACHED.toBuilder().autoInvalData(true).build())) {
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
