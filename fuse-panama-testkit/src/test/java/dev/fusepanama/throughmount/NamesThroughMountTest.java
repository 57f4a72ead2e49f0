package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.FileNames;
import dev.fusepanama.Posix;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** File names are bytes: names that are not UTF-8 survive create, list, open, rename and delete. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NamesThroughMountTest {
    static final byte[] INVALID = {(byte) 0xff, (byte) 0xfe, '.', 'b', 'i', 'n'};
    static final byte[] RENAMED = {'r', (byte) 0xc3, (byte) 0x28, (byte) 0x80};

    static boolean listed(List<byte[]> names, byte[] name) {
        return names.stream().anyMatch(n -> java.util.Arrays.equals(n, name));
    }

    @Test
    void aNonUtf8NameRoundTripsByteForByte() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs)) {
            byte[] path = Os.child(m.root(), INVALID);
            int fd = Os.open(path, Posix.O_CREAT | Posix.O_WRONLY, 0644);
            assertTrue(fd >= 0, "create: " + fd);
            assertEquals(5, Os.write(fd, "bytes".getBytes()));
            Os.close(fd);

            String stored = fs.paths().stream().filter(p -> !p.equals("/")).findFirst().orElseThrow();
            assertArrayEquals(INVALID, FileNames.toBytes(stored.substring(1)), "the filesystem can hand the name back");
            assertTrue(FileNames.hasEscapedBytes(stored));

            assertTrue(listed(Os.listBytes(m.root()), INVALID), "listed with identical bytes");
            fd = Os.open(path, Posix.O_RDONLY, 0);
            assertArrayEquals("bytes".getBytes(), Os.pread(fd, 100, 0));
            Os.close(fd);

            byte[] target = Os.child(m.root(), RENAMED);
            assertEquals(0, Os.renameat2(path, target, 0));
            List<byte[]> after = Os.listBytes(m.root());
            assertTrue(listed(after, RENAMED) && !listed(after, INVALID));
            assertEquals(0, Os.unlink(target));
            assertEquals(List.of("/"), List.copyOf(fs.paths()));
        }
    }

    @Test
    void validUtf8NamesArriveAsOrdinaryStrings() throws Exception {
        ScratchFileSystem fs = new ScratchFileSystem();
        try (TestMount m = TestMount.mount(fs)) {
            String name = "Grüße 日本 😀.txt";
            Files.writeString(m.path(name), "x");
            assertTrue(fs.paths().contains("/" + name), fs.paths().toString());
            assertTrue(listed(Os.listBytes(m.root()), name.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
