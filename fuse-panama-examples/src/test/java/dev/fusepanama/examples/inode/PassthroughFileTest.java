package dev.fusepanama.examples.inode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Fuse;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file reads and writes the backing file's bytes either way; where the mount can pass files
 * through (libfuse 3.17+, root, Linux 6.9+) no data request reaches the example, elsewhere the
 * example serves them and the mount says why.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@MountTest
class PassthroughFileTest {
    @TempDir
    Path dir;
    Path backing;
    byte[] data;

    @BeforeEach
    void backingFile() throws Exception {
        data = new byte[1024 * 1024 + 7];
        new Random(5).nextBytes(data);
        backing = Files.write(dir.resolve("data.bin"), data);
    }

    /** Reads it all, overwrites a piece in place and appends, through the mount; checks the backing file. */
    private void readAndWrite(TestMount m) throws Exception {
        Path file = m.path("data.bin");
        assertArrayEquals(data, Files.readAllBytes(file));
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(1000);
            f.write("in place".getBytes());
        }
        Files.write(file, "appended".getBytes(), StandardOpenOption.APPEND);
        byte[] back = Files.readAllBytes(backing);
        assertEquals(data.length + 8, back.length);
        assertEquals("in place", new String(back, 1000, 8));
        assertEquals("appended", new String(Arrays.copyOfRange(back, data.length, back.length)));
        assertArrayEquals(back, Files.readAllBytes(file), "the mount shows the backing file's bytes");
    }

    @Test
    void theKernelServesTheDataFromTheBackingFile() throws Exception {
        assumeTrue(TestMount.passthroughExpected(), "kernel passthrough needs libfuse 3.17+, root and Linux 6.9+ "
                + "(not under qemu-user); this run has libfuse " + Fuse.libfuseVersion());
        PassthroughFile fs = new PassthroughFile(backing);
        try (TestMount m = TestMount.mount(fs, PassthroughFile.mountOptions())) {
            assertTrue(m.handle().describe().contains("kernel passthrough"), m.handle().describe());
            readAndWrite(m);
            assertEquals(0, fs.requests.get(), "no read or write reached the example");
            assertTrue(fs.passedThrough.get() >= 4, "every open was passed through: " + fs.passedThrough.get());
        }
    }

    @Test
    void withoutPassthroughTheExampleServesTheSameBytesAndTheMountSaysWhy() throws Exception {
        assumeFalse(TestMount.passthroughExpected(), "this run passes files through: the other test checks it");
        PassthroughFile fs = new PassthroughFile(backing);
        try (TestMount m = TestMount.mount(fs, PassthroughFile.mountOptions())) {
            readAndWrite(m);
            assertTrue(m.handle().describe().contains("no passthrough: "), m.handle().describe());
            assertTrue(fs.requests.get() > 0, "the example served the data");
            assertEquals(0, fs.passedThrough.get());
        }
    }
}
