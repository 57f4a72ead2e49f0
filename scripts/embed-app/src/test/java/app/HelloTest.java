package app;

import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFREG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Mount;
import dev.fusepanama.Stat;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What an application's own tests do with fuse-panama: mount, list, read, unmount. */
@Timeout(60)
class HelloTest {
    static final byte[] TEXT = "hello from an application\n".getBytes(StandardCharsets.UTF_8);

    static final class Hello implements FuseFileSystem {
        @Override
        public int getattr(String path, Stat stat, FileInfo fi) {
            switch (path) {
                case "/" -> stat.setMode(S_IFDIR | 0755).setNlink(2);
                case "/hello" -> stat.setMode(S_IFREG | 0444).setNlink(1).setSize(TEXT.length);
                default -> { return -Errno.ENOENT; }
            }
            return 0;
        }

        @Override
        public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
            filler.add(".");
            filler.add("..");
            filler.add("hello");
            return 0;
        }

        @Override
        public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) {
            if (offset >= TEXT.length) return 0;
            int n = (int) Math.min(buffer.remaining(), TEXT.length - offset);
            buffer.put(TEXT, (int) offset, n);
            return n;
        }
    }

    private static boolean mounted(Path p) throws Exception {
        return Files.readAllLines(Path.of("/proc/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(p.toString()));
    }

    @Test
    void theTestKitMountsListsAndUnmounts() throws Exception {
        Path at;
        try (TestMount m = TestMount.mount(new Hello())) {
            at = m.path("");
            try (Stream<Path> names = Files.list(at)) {
                assertEquals(List.of("hello"), names.map(p -> p.getFileName().toString()).toList());
            }
            assertEquals(new String(TEXT, StandardCharsets.UTF_8), Files.readString(m.path("hello")));
        }
        assertFalse(mounted(at.toAbsolutePath().normalize()), "unmounted");
    }

    @Test
    void fuseMountsAtAMountpointOfItsOwn() throws Exception {
        Path at = Files.createTempDirectory("embed-app-");
        try {
            try (Mount m = Fuse.mount(new Hello(), at)) {
                assertTrue(mounted(at.toRealPath()), "mounted");
                try (Stream<Path> names = Files.list(at)) {
                    assertEquals(List.of("hello"), names.map(p -> p.getFileName().toString()).toList());
                }
            }
            assertFalse(mounted(at.toRealPath()), "unmounted by close()");
        } finally {
            Files.deleteIfExists(at);
        }
    }
}
