package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Whatever a filesystem method throws becomes an errno for the caller; the JVM and the mount survive. */
@MountTest
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
        try (TestMount m = TestMount.mount(new Throwing(), KernelSettings.builder().negativeEntries(0).entryTimeout(0).attrTimeout(0).build())) {
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

    /**
     * A method that leaves its thread interrupted (as jimfs leaves the threads inside a channel
     * it closes) does not reach the next request on that worker, where the first interruptible
     * channel it used would close (ClosedByInterruptException: EBADF for another file from then on).
     */
    @Test
    void aThreadLeftInterruptedIsNotInterruptedAtItsNextRequest() throws Exception {
        AtomicInteger startedInterrupted = new AtomicInteger();
        AtomicInteger checked = new AtomicInteger();
        FuseFileSystem fs = new FuseFileSystem() {
            @Override
            public int getattr(String path, Stat stat, FileInfo fi) {
                if (Thread.currentThread().isInterrupted()) startedInterrupted.incrementAndGet();
                checked.incrementAndGet();
                if (path.equals("/")) {
                    stat.setMode(Posix.S_IFDIR | 0755).setNlink(2);
                    return 0;
                }
                if (path.startsWith("/interrupt")) Thread.currentThread().interrupt();
                return -Errno.ENOENT;
            }
        };
        try (TestMount m = TestMount.mount(fs, MountOptions.builder().singleThreaded(true).build(),
                KernelSettings.builder().negativeEntries(0).entryTimeout(0).attrTimeout(0).build())) {
            for (int i = 0; i < 20; i++) {
                int n = i;
                assertEquals(Errno.ENOENT, assertThrows(Os.OsException.class, () -> Os.lstat(Os.bytes(m.path("interrupt" + n)))).errno);
                assertEquals(Errno.ENOENT, assertThrows(Os.OsException.class, () -> Os.lstat(Os.bytes(m.path("next" + n)))).errno);
            }
        }
        assertTrue(checked.get() >= 40, "requests seen: " + checked.get());
        assertEquals(0, startedInterrupted.get(), "requests that started on a thread left interrupted");
    }

    /**
     * A new user's first embedding often has no SLF4J provider, where SLF4J discards every message:
     * a method that throws must still leave a trace (through the JDK's System.Logger, on stderr).
     */
    @Test
    void withoutAnSlf4jProviderAThrowingMethodIsStillReported() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("logback"))
                .collect(Collectors.joining(File.pathSeparator));
        Process p = new ProcessBuilder(ChildJvm.command(classPath, WithoutSlf4jProvider.class)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("No SLF4J providers"), "the JVM really had none: " + out);
        assertTrue(out.contains("getattr /npe on ") && out.contains("threw; answering EIO"), out);
        assertTrue(out.contains("java.lang.NullPointerException"), out);
    }

    /** Mounts {@link Throwing}, makes getattr throw a NullPointerException once, unmounts. */
    public static final class WithoutSlf4jProvider {
        public static void main(String[] args) throws Exception {
            try (TestMount m = TestMount.mount(new Throwing())) {
                try {
                    Os.lstat(Os.bytes(m.path("npe")));
                } catch (Os.OsException e) {
                    System.out.println("lstat answered errno " + e.errno);
                }
            }
        }
    }
}
