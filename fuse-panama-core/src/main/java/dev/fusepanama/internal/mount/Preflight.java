package dev.fusepanama.internal.mount;

import dev.fusepanama.Errno;
import dev.fusepanama.MountException;
import dev.fusepanama.MountException.Reason;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.structs.stat;
import dev.fusepanama.libc.structs.statvfs;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The checks before a mount, so that the common mistakes get one clear message instead of
 * libfuse's terse stderr line: mountpoint missing, not a directory, already mounted, a stale
 * mount left by a dead filesystem process, no /dev/fuse, no way to mount as this user, a path this
 * user cannot reach (named by the errno stat met and where on the way it met it).
 */
final class Preflight {
    private Preflight() {}

    static final Path DEVICE = Path.of("/dev/fuse");
    private static final List<Path> FUSERMOUNT = List.of(
            Path.of("/usr/bin/fusermount3"), Path.of("/bin/fusermount3"), Path.of("/usr/local/bin/fusermount3"));

    /** Checks {@code mountpoint} (absolute, normalised) and returns it. */
    static Path checkMountpoint(Path mountpoint, MountTable table) throws MountException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(mountpoint, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            Blocked blocked = blocked(mountpoint); // Java reports ENOTDIR on the way as a missing file
            if (blocked != null && blocked.errno() != Errno.ENOENT) {
                throw unexamined(mountpoint, blocked, e);
            }
            throw new MountException(Reason.MOUNTPOINT_MISSING, mountpoint,
                    "mountpoint " + mountpoint + " does not exist: create it first (mkdir -p " + mountpoint + ")");
        } catch (FileSystemException e) {
            Optional<MountTable.Entry> mounted = table.find(mountpoint);
            if (mounted.isPresent() && !disconnected(mountpoint)) {
                throw alreadyMounted(mountpoint, mounted.get()); // e.g. another user's, without allow_other
            }
            if (mounted.isPresent() || String.valueOf(e.getReason()).contains("not connected")) {
                throw stale(mountpoint);
            }
            throw unexamined(mountpoint, blocked(mountpoint), e);
        } catch (IOException e) {
            throw unexamined(mountpoint, blocked(mountpoint), e);
        }
        if (!attrs.isDirectory()) {
            throw new MountException(Reason.NOT_A_DIRECTORY, mountpoint,
                    "mountpoint " + mountpoint + " is not a directory: mount on an (empty) directory");
        }
        Optional<MountTable.Entry> existing = table.find(mountpoint);
        if (existing.isPresent() && existing.get().type().startsWith("fuse") && disconnected(mountpoint)) {
            throw stale(mountpoint);
        }
        if (existing.isPresent()) {
            throw alreadyMounted(mountpoint, existing.get());
        }
        return mountpoint;
    }

    /**
     * Where the way to a path is blocked: the first of its prefixes that stat(2) fails on, with
     * its errno, and the directory it is in (its mode and owner, which stat could read).
     */
    record Blocked(Path at, int errno, Path in, int inMode, int inUid, int inGid) {}

    /** Stats each prefix of {@code path} (absolute) from the root; the first that fails, or null if none does (a race). */
    static Blocked blocked(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment st = arena.allocate(stat.LAYOUT);
            Path in = path.getRoot();
            int mode = 0;
            int uid = 0;
            int gid = 0;
            for (Path name : path) {
                Path at = in.resolve(name);
                int rc = Libc.fstatat(Libc.AT_FDCWD, arena.allocateFrom(at.toString()), st, 0);
                if (rc < 0) {
                    return new Blocked(at, -rc, in, mode, uid, gid);
                }
                mode = stat.st_mode(st.address());
                uid = stat.st_uid(st.address());
                gid = stat.st_gid(st.address());
                in = at;
            }
            return null;
        }
    }

    /**
     * The refusal of a mountpoint that cannot be examined: what stat met ({@code blocked}), and
     * where, in the words of its errno, with what to do; {@code e}'s own text if every prefix
     * could be read after all.
     */
    static MountException unexamined(Path mountpoint, Blocked blocked, IOException e) {
        String start = "mountpoint " + mountpoint + " cannot be examined: ";
        if (blocked == null) {
            String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.toString();
            return new MountException(Reason.MOUNT_FAILED, mountpoint, start + reason, e);
        }
        Path at = blocked.at();
        String in = blocked.in().toString();
        return switch (blocked.errno()) {
            case Errno.EACCES -> new MountException(Reason.PERMISSION_DENIED, mountpoint, start
                    + (searchable(blocked.in())
                            ? "permission denied (EACCES) at " + at + ": the filesystem there refuses this user (as another"
                                    + " user's FUSE mount without allow_other does): choose a mountpoint this user can reach"
                            : "permission denied (EACCES): this user may not search " + in + " (mode "
                                    + String.format("%03o", blocked.inMode() & 0777) + ", owner " + blocked.inUid() + ":"
                                    + blocked.inGid() + "), so cannot reach " + at + ": choose a mountpoint this user can"
                                    + " reach, or let it search that directory (chmod a+x " + in + ", as its owner or root)"), e);
            case Errno.ENOTDIR -> new MountException(Reason.NOT_A_DIRECTORY, mountpoint, start
                    + "not a directory (ENOTDIR): " + in + " is not a directory, so nothing is under it:"
                    + " mount on a path of directories", e);
            case Errno.ELOOP -> new MountException(Reason.MOUNT_FAILED, mountpoint, start
                    + "too many levels of symbolic links (ELOOP) at " + at + ": a symbolic link there leads back to itself or"
                    + " through more than 40 links: point it at a directory (readlink " + at + ") or choose another mountpoint", e);
            case Errno.ENAMETOOLONG -> new MountException(Reason.MOUNT_FAILED, mountpoint, start
                    + "file name too long (ENAMETOOLONG) at " + at + ": Linux takes names of at most 255 bytes and paths"
                    + " of at most 4095: choose a shorter mountpoint", e);
            default -> new MountException(Reason.MOUNT_FAILED, mountpoint, start + Errno.name(blocked.errno()) + " at " + at
                    + (e instanceof FileSystemException f && f.getReason() != null ? " (" + f.getReason() + ")" : ""), e);
        };
    }

    /** Whether this process may search the directory {@code dir}, as the kernel checks its own lookups (effective ids). */
    private static boolean searchable(Path dir) {
        try (Arena arena = Arena.ofConfined()) {
            return Libc.faccessat(Libc.AT_FDCWD, arena.allocateFrom(dir.toString()), Posix.X_OK, Libc.AT_EACCESS) == 0;
        }
    }

    private static MountException alreadyMounted(Path mountpoint, MountTable.Entry existing) {
        return new MountException(Reason.ALREADY_MOUNTED, mountpoint,
                "mountpoint " + mountpoint + " is already a mount point (" + existing.type() + " from "
                        + existing.source() + "): unmount it first (umount " + mountpoint
                        + ", or fusermount3 -u for FUSE) or choose another directory");
    }

    /**
     * Whether the mount at {@code mountpoint} has lost its filesystem process. A stat can be
     * answered from the kernel's attribute cache for a while after the process died; a statfs is
     * never cached, so it reaches the connection, which answers ENOTCONN once aborted. A live
     * filesystem that does not answer within {@link #PROBE_WAIT} counts as live: the probe then
     * stays blocked on its own daemon thread, never on the caller's.
     */
    private static boolean disconnected(Path mountpoint) {
        CompletableFuture<Integer> rc = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("fuse-panama statfs probe").start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                rc.complete(Libc.statvfs(arena.allocateFrom(mountpoint.toString()),
                        arena.allocate(statvfs.LAYOUT)));
            } catch (Throwable t) {
                rc.completeExceptionally(t);
            }
        });
        try {
            return rc.get(PROBE_WAIT.toMillis(), TimeUnit.MILLISECONDS) == -Errno.ENOTCONN;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** How long {@link #disconnected} waits for a statfs answer. */
    private static final Duration PROBE_WAIT = Duration.ofSeconds(2);

    static MountException stale(Path mountpoint) {
        return new MountException(Reason.STALE_MOUNT, mountpoint,
                "mountpoint " + mountpoint + " is a stale FUSE mount (transport endpoint is not connected): "
                        + "the process that served it died without unmounting. Remove it with: fusermount3 -u "
                        + mountpoint + " (or as root: umount -l " + mountpoint + ")");
    }

    /** Checks that this process can mount at all. */
    static void checkDevice(boolean root) throws MountException {
        String problem = deviceProblem(Files.exists(DEVICE),
                Files.isReadable(DEVICE) && Files.isWritable(DEVICE), root,
                FUSERMOUNT.stream().anyMatch(Files::isExecutable));
        if (problem != null) {
            throw new MountException(Files.exists(DEVICE) ? Reason.PERMISSION_DENIED : Reason.NO_FUSE_DEVICE, null, problem);
        }
    }

    /** The message for a process that cannot mount, or null if it can; pure, for tests. */
    static String deviceProblem(boolean deviceExists, boolean deviceReadWrite, boolean root, boolean fusermountPresent) {
        if (!deviceExists) {
            return "/dev/fuse does not exist: load the FUSE kernel module (modprobe fuse); in a container, "
                    + "pass the device (docker run --device /dev/fuse --cap-add SYS_ADMIN ...)";
        }
        if (root && !deviceReadWrite) {
            return "no permission to open /dev/fuse for reading and writing: fix its mode (chmod 666 /dev/fuse) "
                    + "or, in a container, allow the device (--device /dev/fuse)";
        }
        if (!root && !fusermountPresent) {
            return "mounting as a non-root user needs the setuid helper fusermount3, which was not found: "
                    + "install fuse3 (apt-get install fuse3) or mount as root";
        }
        return null;
    }
}
