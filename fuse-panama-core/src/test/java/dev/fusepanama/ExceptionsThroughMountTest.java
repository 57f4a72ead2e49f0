package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fusepanama.testing.Os;
import dev.fusepanama.testing.TestMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Whatever a filesystem method throws becomes an errno for the caller; the JVM and the mount survive. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExceptionsThroughMountTest {
    static final Map<String, Supplier<Throwable>> THROWS = Map.of(
            "enoent", () -> new NoSuchFileException("/enoent"),
            "eexist", () -> new FileAlreadyExistsException("/eexist"),
            "enotempty", () -> new DirectoryNotEmptyException("/enotempty"),
            "eacces", () -> new AccessDeniedException("/eacces"),
            "enotdir", () -> new NotDirectoryException("/enotdir"),
            "enospc", () -> new ErrnoException(Errno.ENOSPC),
            "ioexception", () -> new IOException("disk on fire"),
            "npe", NullPointerException::new,
            "stackoverflow", StackOverflowError::new);

    static final Map<String, Integer> EXPECTED = Map.of(
            "enoent", Errno.ENOENT, "eexist", Errno.EEXIST, "enotempty", Errno.ENOTEMPTY,
            "eacces", Errno.EACCES, "enotdir", Errno.ENOTDIR, "enospc", Errno.ENOSPC,
            "ioexception", Errno.EIO, "npe", Errno.EIO, "stackoverflow", Errno.EIO);

    /** getattr throws what the name says; read always throws. */
    static final class Throwing implements FuseFileSystem {
        @Override
        public int getattr(String path, Stat stat, FileInfo fi) throws IOException {
            if (path.equals("/") || path.equals("/file")) {
                stat.setMode(path.equals("/") ? Posix.S_IFDIR | 0755 : Posix.S_IFREG | 0644).setNlink(1).setSize(10);
                return 0;
            }
            Throwable t = THROWS.get(path.substring(1)).get();
            if (t instanceof IOException e) throw e;
            if (t instanceof RuntimeException e) throw e;
            throw (Error) t;
        }

        @Override
        public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) {
            throw new IllegalStateException("read is broken");
        }
    }

    @Test
    void eachExceptionAnswersItsErrnoAndTheMountKeepsWorking() throws Exception {
        try (TestMount m = TestMount.mount(new Throwing(), MountOptions.builder().negativeTimeout(0).entryTimeout(0).attrTimeout(0).build())) {
            for (var e : EXPECTED.entrySet()) {
                var failure = assertThrows(Os.OsException.class, () -> Os.lstat(Os.bytes(m.path(e.getKey()))));
                assertEquals(Errno.name(e.getValue()), Errno.name(failure.errno), e.getKey());
            }
            int fd = Os.open(m.path("file"), Posix.O_RDONLY);
            for (int i = 0; i < 200; i++) {
                assertEquals(Errno.EIO, assertThrows(Os.OsException.class, () -> Os.pread(fd, 10, 0)).errno);
            }
            Os.close(fd);
            assertEquals(Posix.S_IFREG, Os.lstat(Os.bytes(m.path("file"))).mode() & Posix.S_IFMT);
        }
    }
}
