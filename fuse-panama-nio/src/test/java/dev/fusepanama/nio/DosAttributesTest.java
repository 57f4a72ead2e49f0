package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A provider whose only permission is DOS's readonly attribute (jimfs with the basic and dos
 * views, as Windows' filesystem has), through a mount: modes and chmod as vfat's (see
 * {@link DosMode}).
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DosAttributesTest {
    @Test
    void readonlyIsTheWriteBitsAndChmodSetsItAsVfatDoes() throws Exception {
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "dos").build())) {
            Path root = Files.createDirectory(jimfs.getPath("/served"));
            Path file = Files.writeString(root.resolve("file"), "x");
            Path lockedFile = Files.writeString(root.resolve("locked file"), "x");
            Path dir = Files.createDirectory(root.resolve("dir"));
            Path lockedDir = Files.createDirectory(root.resolve("locked dir"));
            Files.setAttribute(lockedFile, "dos:readonly", true);
            Files.setAttribute(lockedDir, "dos:readonly", true);
            NioFileSystem fs = NioFileSystem.of(root);
            try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
                assertEquals(Posix.S_IFREG | 0644, mode(m.path("file")));
                assertEquals(Posix.S_IFREG | 0444, mode(m.path("locked file")));
                assertEquals(Posix.S_IFDIR | 0755, mode(m.path("dir")));
                assertEquals(Posix.S_IFDIR | 0555, mode(m.path("locked dir")));

                run("chmod", "a-w", m.path("file").toString(), m.path("dir").toString());
                assertEquals(true, Files.getAttribute(file, "dos:readonly"));
                assertEquals(true, Files.getAttribute(dir, "dos:readonly"));
                assertEquals(Posix.S_IFREG | 0444, mode(m.path("file")));
                assertEquals(Posix.S_IFDIR | 0555, mode(m.path("dir")));

                run("chmod", "u+w", m.path("locked file").toString(), m.path("locked dir").toString());
                assertEquals(false, Files.getAttribute(lockedFile, "dos:readonly"));
                assertEquals(false, Files.getAttribute(lockedDir, "dos:readonly"));
                assertEquals(Posix.S_IFREG | 0644, mode(m.path("locked file")));
                assertEquals(Posix.S_IFDIR | 0755, mode(m.path("locked dir")));

                // What the masks withhold is dropped as vfat drops it: a file has no x bits.
                assertEquals(0, Os.chmod(Os.bytes(m.path("locked file")), 0755));
                assertEquals(Posix.S_IFREG | 0644, mode(m.path("locked file")));

                // A mode DOS cannot show: EPERM, and nothing changes.
                assertEquals(-Errno.EPERM, Os.chmod(Os.bytes(m.path("locked file")), 0600));
                assertEquals(-Errno.EPERM, Os.chmod(Os.bytes(m.path("locked dir")), 0700));
                assertEquals(-Errno.EPERM, Os.chmod(Os.bytes(m.path("locked file")), 04644));
                assertEquals(false, Files.getAttribute(lockedFile, "dos:readonly"));
                assertEquals(Posix.S_IFREG | 0644, mode(m.path("locked file")));
                assertEquals(Posix.S_IFDIR | 0755, mode(m.path("locked dir")));

                // A new file starts writable whatever its mode, as vfat's create ignores it.
                Path created = m.path("created");
                Files.createFile(created, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("r--------")));
                assertEquals(Posix.S_IFREG | 0644, mode(created));
                assertEquals(false, Files.getAttribute(root.resolve("created"), "dos:readonly"));
            }
        }
    }

    private static int mode(Path p) {
        return Os.lstat(Os.bytes(p)).mode();
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + out);
        }
    }
}
