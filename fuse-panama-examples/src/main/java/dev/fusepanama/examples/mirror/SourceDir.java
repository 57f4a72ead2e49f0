package dev.fusepanama.examples.mirror;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.FileNames;
import dev.fusepanama.Posix;
import dev.fusepanama.examples.mirror.Scratch.Where;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The source directory, held open, and the one place mount paths become locations beneath it.
 *
 * <p><b>Containment.</b> The kernel resolves symbolic links of the mount itself, so a path it
 * sends names a chain of directories; but the source can change between the kernel's lookup and
 * the mirror's system call (a directory replaced by a link to {@code /}). So nothing here follows a
 * link: the last component is used with {@code O_NOFOLLOW}/{@code AT_SYMLINK_NOFOLLOW}, and a path
 * of several components is resolved with {@code openat2(2)} and {@code RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS} (before Linux 5.6, one {@code O_NOFOLLOW} open per component). A name in
 * the top directory needs no resolution at all: it is used relative to the source's descriptor.
 */
final class SourceDir implements AutoCloseable {
    private static final MemorySegment DOT = Arena.global().allocateFrom(".");
    private static final int MAX_RETRIES = 8;

    private final int fd;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean openat2 = true;

    private SourceDir(int fd) {
        this.fd = fd;
    }

    static SourceDir open(Path source) throws IOException {
        Scratch s = Scratch.get();
        if (FileNames.toNative(source.toString(), s.path) < 0) {
            throw new IOException("source path too long: " + source);
        }
        int fd = Libc.openat(s.errno, -100, s.path, Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
        if (fd < 0) {
            throw new IOException("cannot open the source directory " + source + ": " + Errno.name(-fd));
        }
        return new SourceDir(fd);
    }

    int fd() {
        return fd;
    }

    /**
     * Opens {@code path} with {@code flags} (O_NOFOLLOW and O_CLOEXEC added, flags openat2 rejects
     * removed) in one system call.
     *
     * @return the descriptor, or -errno
     */
    int open(Scratch s, String path, int flags, int mode) {
        int n = encode(path, s.path);
        if (n < 0) {
            return n;
        }
        flags = (flags & Libc.VALID_OPEN_FLAGS) | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
        MemorySegment relative = n == 1 ? DOT : s.path.asSlice(1);
        if (!hasSlash(s.path, 1, n)) {
            return Libc.openat(s.errno, fd, relative, flags, mode);
        }
        if (openat2) {
            int rc = openBeneath(s, relative, flags, mode);
            if (rc != -Errno.ENOSYS) {
                return rc;
            }
            openat2 = false;
        }
        return openWalking(s, s.path, n, flags, mode);
    }

    /**
     * Resolves the directory that holds {@code path}'s last component into {@code w}, whose
     * {@code name} then points into {@code buffer}. Release with {@link #done}.
     *
     * @return 0 or -errno
     */
    int locate(Scratch s, String path, MemorySegment buffer, Where w) {
        w.owned = false;
        int n = encode(path, buffer);
        if (n < 0) {
            return n;
        }
        if (n == 1) {
            w.dirfd = fd;
            w.name = DOT;
            return 0;
        }
        int slash = n - 1;
        while (buffer.get(JAVA_BYTE, slash) != '/') {
            slash--;
        }
        w.name = buffer.asSlice(slash + 1);
        if (slash == 0) {
            w.dirfd = fd;
            return 0;
        }
        buffer.set(JAVA_BYTE, slash, (byte) 0);
        int dir = Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC;
        int rc = openat2 ? openBeneath(s, buffer.asSlice(1), dir, 0) : -Errno.ENOSYS;
        if (rc == -Errno.ENOSYS) {
            openat2 = false;
            rc = openWalking(s, buffer, slash, dir | Posix.O_NOFOLLOW, 0);
        }
        if (rc < 0) {
            return rc;
        }
        w.dirfd = rc;
        w.owned = true;
        return 0;
    }

    void done(Scratch s, Where w) {
        if (w.owned) {
            Libc.close(s.errno, w.dirfd);
            w.owned = false;
        }
    }

    private int openBeneath(Scratch s, MemorySegment relative, int flags, int mode) {
        MemorySegment how = s.small;
        how.set(JAVA_LONG, 0, flags);
        // openat2 refuses the file-type bits open(2) ignores (FUSE's create sends S_IFREG | perm).
        how.set(JAVA_LONG, 8, (flags & Posix.O_CREAT) != 0 ? mode & 07777 : 0);
        how.set(JAVA_LONG, 16, Libc.RESOLVE_BENEATH | Libc.RESOLVE_NO_SYMLINKS | Libc.RESOLVE_NO_MAGICLINKS);
        int rc;
        int tries = 0;
        // EAGAIN: a rename elsewhere raced with the resolution, which the kernel refuses to guess about.
        while ((rc = Libc.openat2(s.errno, fd, relative, how)) == -Errno.EAGAIN && ++tries < MAX_RETRIES) {
            Thread.onSpinWait();
        }
        return rc;
    }

    /**
     * The fallback without openat2: opens each directory of the path from the source down with
     * O_NOFOLLOW, then the last component with {@code flags}. {@code path} holds "/a/b/c" in its
     * first {@code n} bytes; it is cut into components in place.
     */
    private int openWalking(Scratch s, MemorySegment path, int n, int flags, int mode) {
        int dir = fd;
        int start = 1;
        for (int i = 1; i < n; i++) {
            if (path.get(JAVA_BYTE, i) == '/') {
                path.set(JAVA_BYTE, i, (byte) 0);
                int next = Libc.openat(s.errno, dir, path.asSlice(start),
                        Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_NOFOLLOW | Posix.O_CLOEXEC, 0);
                if (dir != fd) {
                    Libc.close(s.errno, dir);
                }
                if (next < 0) {
                    return next;
                }
                dir = next;
                start = i + 1;
            }
        }
        path.set(JAVA_BYTE, n, (byte) 0);
        int rc = Libc.openat(s.errno, dir, path.asSlice(start), flags, mode);
        if (dir != fd) {
            Libc.close(s.errno, dir);
        }
        return rc;
    }

    /** The bytes of {@code path} ("/..." as FUSE sends it) NUL-terminated in {@code buffer}: their count, or -ENAMETOOLONG. */
    private static int encode(String path, MemorySegment buffer) {
        int n = FileNames.toNative(path, buffer);
        return n < 0 ? -Errno.ENAMETOOLONG : n;
    }

    private static boolean hasSlash(MemorySegment path, int from, int to) {
        for (int i = from; i < to; i++) {
            if (path.get(JAVA_BYTE, i) == '/') {
                return true;
            }
        }
        return false;
    }

    /** Makes every later resolution take the path of kernels before 5.6 (for tests of that path). */
    void withoutOpenat2() {
        openat2 = false;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Libc.close(Scratch.get().errno, fd);
        }
    }
}
