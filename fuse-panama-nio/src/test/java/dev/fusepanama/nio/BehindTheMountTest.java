package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files made or changed behind the mount while the kernel caches for an hour: what the mount shows of them. */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BehindTheMountTest {
    @TempDir
    Path tmp;

    /**
     * The kernel creates a name it holds a miss for: the file made behind the mount meanwhile is
     * opened as open(2) opens an existing file (O_TRUNC empties it), keeping its mode.
     */
    @Test
    void aCreateOverAFileMadeBehindTheMountOpensItAsItIs() throws Exception {
        Path source = Files.createDirectory(tmp.resolve("source"));
        NioFileSystem fs = NioFileSystem.of(source, Duration.ofHours(1));
        try (TestMount m = TestMount.mountWith(fs::mount)) {
            assertFalse(Files.exists(m.path("made")), "a miss, now cached");
            Files.writeString(source.resolve("made"), "old contents");
            Files.setPosixFilePermissions(source.resolve("made"), PosixFilePermissions.fromString("rw-------"));
            try (FileChannel c = FileChannel.open(m.path("made"), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                c.write(java.nio.ByteBuffer.wrap("new".getBytes()));
            }
            assertEquals("new", Files.readString(source.resolve("made")));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(source.resolve("made"))));
        }
    }

    /** On a posix-only provider the adapter keeps permission bits for the timeout; invalidate drops them too. */
    @Test
    void invalidateShowsAChmodMadeBehindTheMount() throws Exception {
        Path archive = tmp.resolve("a.zip");
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + archive.toUri()),
                Map.of("create", "true", "enablePosixFileAttributes", "true"))) {
            Path f = zip.getPath("/f");
            Files.writeString(f, "x");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
            NioFileSystem fs = NioFileSystem.of(zip.getPath("/"), Duration.ofHours(1));
            try (TestMount m = TestMount.mountWith(fs::mount)) {
                assertEquals("rw-r--r--", mode(m.path("f")));
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
                fs.invalidate(f);
                assertEquals("rw-------", mode(m.path("f")));
            }
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
