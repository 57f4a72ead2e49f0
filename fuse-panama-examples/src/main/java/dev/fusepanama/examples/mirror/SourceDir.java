package dev.fusepanama.examples.mirror;

import dev.fusepanama.libc.Libc;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source directory, held open, and the one place mount paths become locations beneath it,
 * kept there by one of the {@link Containment} modes: with {@link Containment#PRIVATE_MOUNT} the
 * descriptor is the root of a detached copy of the source's mount on which the kernel follows no
 * link, so a whole path is used relative to it; otherwise a path of several components is
 * resolved with {@code openat2(2)} and {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS} (before
 * Linux 5.6, one {@code O_NOFOLLOW} open per component), and a name in the top directory needs no
 * resolution at all. The last component is always used with {@code O_NOFOLLOW} or
 * {@code AT_SYMLINK_NOFOLLOW}.
 */
final class SourceDir implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourceDir.class);
    private static final MemorySegment DOT = Arena.global().allocateFrom(".");
    private static final MemorySegment EMPTY = Arena.global().allocateFrom("");
    private static final int MAX_RETRIES = 8;

    private final int fd;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Final but for OPENAT2, which becomes PER_COMPONENT the first time the kernel says ENOSYS. */
    private volatile Containment containment;

    /** Whether the extended attribute calls name files relative to a descriptor ({@code getxattrat} and its siblings). */
    private final boolean xattrAt;

    private SourceDir(int fd, Containment containment, boolean xattrAt) {
        this.fd = fd;
        this.containment = containment;
        this.xattrAt = xattrAt;
    }

    /**
     * Opens {@code source} with {@code wanted} containment, or the strongest this process may use
     * when {@code wanted} is null: a private mount where it is allowed, else openat2.
     *
     * @throws IOException if the source is not a directory that can be opened, or if
     *     {@link Containment#PRIVATE_MOUNT} was asked for and is not allowed
     */
    static SourceDir open(Path source, Containment wanted) throws IOException {
        return open(source, wanted, true);
    }

    /** As {@link #open(Path, Containment)}; {@code xattrAt} false keeps the /proc paths for extended attributes (tests). */
    static SourceDir open(Path source, Containment wanted, boolean xattrAt) throws IOException {
        // Not Scratch: that is a libfuse worker's, and would set this (the caller's) thread's umask to 0.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.allocateErrno(arena);
            MemorySegment path = arena.allocate(Scratch.PATH_MAX);
            MemorySegment small = arena.allocate(128, 8);
            if (FileNames.toNative(source.toString(), path) < 0) {
                throw new IOException("source path too long: " + source);
            }
            int fd = Libc.openat(errno, -100, path, Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException("cannot open the source directory " + source + ": " + Errno.name(-fd));
            }
            Containment containment = wanted;
            if (wanted == null || wanted == Containment.PRIVATE_MOUNT) {
                int tree = privateMount(errno, small, fd);
                if (tree >= 0) {
                    Libc.close(errno, fd);
                    fd = tree;
                    containment = Containment.PRIVATE_MOUNT;
                } else {
                    String why = Errno.name(-tree) + (tree == -Errno.EPERM ? ", it needs CAP_SYS_ADMIN" : "");
                    if (wanted == Containment.PRIVATE_MOUNT) {
                        Libc.close(errno, fd);
                        throw new IOException("cannot make a private mount of the source " + source + " (" + why + ")");
                    }
                    LOG.debug("no private mount of the source {} ({}): names below its top are resolved with openat2", source, why);
                    containment = Containment.OPENAT2;
                }
            }
            boolean at = xattrAt && probeXattrAt(errno, small, fd, source);
            return new SourceDir(fd, containment, at);
        }
    }

    /**
     * Whether the *xattrat calls work here (Linux 6.13): asks the top directory for an attribute.
     * ENOSYS means an older kernel, EPERM a seccomp filter that refuses calls it does not know
     * (reading an attribute of a directory is never refused with EPERM otherwise).
     */
    private static boolean probeXattrAt(MemorySegment errno, MemorySegment small, int fd, Path source) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom("user.fuse-panama.probe");
            long rc = Libc.getxattrat(errno, fd, DOT, Libc.AT_SYMLINK_NOFOLLOW, name, MemorySegment.NULL, 0, small);
            if (rc == -Errno.ENOSYS || rc == -Errno.EPERM) {
                LOG.debug("no getxattrat for the source {} ({}): extended attributes go through /proc/self/fd", source, Errno.name((int) -rc));
                return false;
            }
            return true;
        }
    }

    /**
     * A detached copy of the mount (and the mounts beneath) at the directory {@code dirfd},
     * rooted there, on which no symbolic link is followed: its descriptor, or -errno.
     */
    private static int privateMount(MemorySegment errno, MemorySegment small, int dirfd) {
        int tree = Libc.openTree(errno, dirfd, EMPTY,
                Libc.OPEN_TREE_CLONE | Libc.OPEN_TREE_CLOEXEC | Libc.AT_RECURSIVE | Libc.AT_EMPTY_PATH);
        if (tree < 0) {
            return tree;
        }
        MemorySegment attr = small.asSlice(0, Libc.MOUNT_ATTR_SIZE).fill((byte) 0);
        attr.set(JAVA_LONG, 0, Libc.MOUNT_ATTR_NOSYMFOLLOW);
        int rc = Libc.mountSetattr(errno, tree, EMPTY, Libc.AT_EMPTY_PATH | Libc.AT_RECURSIVE, attr);
        if (rc < 0) {
            Libc.close(errno, tree); // the copy goes with its last descriptor
            return rc;
        }
        return tree;
    }

    Containment containment() {
        return containment;
    }

    int fd() {
        return fd;
    }

    /** Whether {@code getxattrat(2)} and its siblings are used; else the file is named through /proc/self/fd. */
    boolean xattrAt() {
        return xattrAt;
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
        MemorySegment relative = n == 1 ? DOT : s.relative(s.path);
        Containment c = containment;
        if (c == Containment.PRIVATE_MOUNT || !hasSlash(s.path, 1, n)) {
            return Libc.openat(s.errno, fd, relative, flags, mode);
        }
        if (c == Containment.OPENAT2) {
            int rc = openBeneath(s, relative, flags, mode);
            if (rc != -Errno.ENOSYS) {
                return rc;
            }
            containment = Containment.PER_COMPONENT;
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
        Containment c = containment;
        if (c == Containment.PRIVATE_MOUNT) {
            w.dirfd = fd;
            w.name = s.relative(buffer);
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
        int rc = c == Containment.OPENAT2 ? openBeneath(s, s.relative(buffer), dir, 0) : -Errno.ENOSYS;
        if (rc == -Errno.ENOSYS) {
            if (c == Containment.OPENAT2) {
                containment = Containment.PER_COMPONENT;
            }
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

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try (Arena arena = Arena.ofConfined()) { // not Scratch: this may be the application's thread
                Libc.close(Libc.allocateErrno(arena), fd);
            }
        }
    }
}
