package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.Ext4;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The adapter over a directory of ext4, which gives a deleted file's inode number (the default
 * provider's fileKey) to the next file at once: a new file is a file of its own, even while the
 * adapter still holds the deleted file's node by its old name.
 */
@MountTest
@Timeout(60)
class InodeReuseTest {
    @Test
    void aFileGivenTheFileKeyOfADeletedOneIsAFileOfItsOwn() throws Exception {
        assumeTrue(Libc.geteuid() == 0, "an ext4 of the test's own needs root");
        Path disk = Ext4.mount("nio-reuse", 32);
        try {
            Path dir = Files.createDirectory(disk.resolve("served"));
            NioFileSystem fs = NioFileSystem.of(dir);
            try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
                Files.writeString(m.path("a"), "first");
                assertEquals(5, Files.size(m.path("a"))); // the kernel holds a's node
                Object key = Files.getAttribute(dir.resolve("a"), "unix:ino");
                Files.delete(dir.resolve("a")); // behind the adapter
                Files.writeString(m.path("b"), "second file");
                assertEquals(key, Files.getAttribute(dir.resolve("b"), "unix:ino"), "ext4 gave b the inode number a had");
                assertEquals("second file", Files.readString(m.path("b")));
                Files.writeString(m.path("b"), "written again");
                assertEquals("written again", Files.readString(dir.resolve("b")), "b's writes reach b");
            }
        } finally {
            Ext4.unmount(disk);
        }
    }
}
