package dev.fusepanama.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calls' one convention: the C result, or -errno of the calling thread's call. No mount. */
class LibcTest {
    private static final int ENOENT = 2;
    private static final int EBADF = 9;
    private static final int ENOTDIR = 20;
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY_CREAT = 01 | 0100;
    private static final int O_CLOEXEC = 02000000;

    @TempDir
    Path dir;

    @Test
    void aFailedCallReturnsMinusErrnoAndASuccessfulOneItsResult() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            assertEquals(-ENOENT, Libc.openat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("missing").toString()), O_RDONLY, 0));
            assertEquals(-EBADF, Libc.close(-1));
            assertEquals(-ENOENT, Libc.mkdirat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("f/sub").toString()), 0755),
                    "f does not exist yet");
            Files.writeString(dir.resolve("f"), "12345");
            assertEquals(-ENOTDIR, Libc.mkdirat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("f/sub").toString()), 0755));
            int fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("f").toString()), O_RDONLY | O_CLOEXEC, 0);
            assertTrue(fd >= 0, "fd " + fd);
            MemorySegment buf = a.allocate(16);
            assertEquals(3, Libc.pread(fd, buf, 3, 2));
            assertEquals("345", new String(buf.asSlice(0, 3).toArray(ValueLayout.JAVA_BYTE)));
            MemorySegment st = a.allocate(Arch.constants().statSize, 8);
            assertEquals(0, Libc.fstat(fd, st));
            assertEquals(0, Libc.close(fd));
            assertEquals(-EBADF, Libc.close(fd), "closed already");
        }
    }

    @Test
    void statxFillsWhatItIsAskedFor() throws Exception {
        Files.writeString(dir.resolve("f"), "1234567");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment stx = a.allocate(Libc.STATX_SIZE, 8);
            int statxSize = 0x200;
            assertEquals(0, Libc.statx(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("f").toString()), 0, statxSize, stx));
            assertTrue((stx.get(ValueLayout.JAVA_INT, 0) & statxSize) != 0, "stx_mask has STATX_SIZE");
            assertEquals(7, stx.get(ValueLayout.JAVA_LONG, 40), "stx_size");
            assertEquals(-ENOENT, Libc.statx(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("no").toString()), 0, statxSize, stx));
        }
    }

    /**
     * A file handle names one file for the filesystem's life: a file made after another was
     * deleted may get its inode number, never its handle; and a handle opens its file again.
     */
    @Test
    void aFileHandleIsNotGivenToTheNextFileAsAnInodeNumberIs() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = a.allocate(Libc.FILE_HANDLE_SIZE, 8);
            MemorySegment mountId = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment st = a.allocate(Arch.constants().statSize, 8);
            MemorySegment name = a.allocateFrom(dir.resolve("f").toString());
            java.util.Set<String> handles = new java.util.HashSet<>();
            for (int i = 0; i < 20; i++) {
                Files.writeString(dir.resolve("f"), "x");
                handle.set(ValueLayout.JAVA_INT, 0, Libc.MAX_HANDLE_SZ);
                int rc = Libc.nameToHandleAt(Libc.AT_FDCWD, name, handle, mountId, 0);
                if (rc == -95) return; // EOPNOTSUPP: this filesystem has no handles
                assertEquals(0, rc);
                int bytes = handle.get(ValueLayout.JAVA_INT, 0);
                assertTrue(bytes > 0 && bytes <= Libc.MAX_HANDLE_SZ, "handle_bytes " + bytes);
                assertTrue(handles.add(java.util.HexFormat.of().formatHex(handle.asSlice(0, 8 + bytes).toArray(ValueLayout.JAVA_BYTE))),
                        "a new file got the handle of a deleted one");
                if (Libc.geteuid() == 0 && i == 0) {
                    int mfd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(dir.toString()), O_RDONLY | O_CLOEXEC, 0);
                    int fd = Libc.openByHandleAt(mfd, handle, O_RDONLY | O_CLOEXEC);
                    assertTrue(fd >= 0, "open_by_handle_at: " + fd);
                    assertEquals(0, Libc.fstat(fd, st));
                    Libc.close(fd);
                    Libc.close(mfd);
                }
                Files.delete(dir.resolve("f"));
            }
        }
    }

    /** errno is captured per thread: another thread's failure in between never shows in this thread's result. */
    @Test
    void eachThreadGetsTheErrnoOfItsOwnCall() throws Exception {
        Path missing = dir.resolve("missing");
        CyclicBarrier start = new CyclicBarrier(2);
        CompletableFuture<Integer> opens = CompletableFuture.supplyAsync(() -> {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment path = a.allocateFrom(missing.toString());
                start.await();
                int wrong = 0;
                for (int i = 0; i < 20_000; i++) {
                    if (Libc.openat(Libc.AT_FDCWD, path, O_RDONLY, 0) != -ENOENT) wrong++;
                }
                return wrong;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CompletableFuture<Integer> closes = CompletableFuture.supplyAsync(() -> {
            try {
                start.await();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            int wrong = 0;
            for (int i = 0; i < 20_000; i++) {
                if (Libc.close(-1) != -EBADF) wrong++;
            }
            return wrong;
        });
        assertEquals(0, opens.get(60, TimeUnit.SECONDS), "openat results other than -ENOENT");
        assertEquals(0, closes.get(60, TimeUnit.SECONDS), "close results other than -EBADF");
    }

    /** A thread's own umask leaves the process's other threads theirs; a file it creates gets the mode asked for. */
    @Test
    void threadUmaskIsTheThreadsAlone() throws Exception {
        int before = ThreadContext.umask(022);
        try {
            CompletableFuture<int[]> worker = CompletableFuture.supplyAsync(() -> {
                int rc = ThreadContext.threadUmask(0);
                int own = ThreadContext.umask(0);
                try (Arena a = Arena.ofConfined()) {
                    int fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("made").toString()), O_WRONLY_CREAT | O_CLOEXEC, 0666);
                    Libc.close(fd);
                }
                return new int[] {rc, own};
            }, r -> new Thread(r).start());
            int[] got = worker.get(30, TimeUnit.SECONDS);
            assertEquals(0, got[0], "unshare(CLONE_FS)");
            assertEquals(0, got[1], "the worker's umask");
            assertEquals(022, ThreadContext.umask(022), "this thread's umask, after the worker set its own");
            assertEquals("rw-rw-rw-", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(dir.resolve("made"))));
        } finally {
            ThreadContext.umask(before);
        }
    }
}
