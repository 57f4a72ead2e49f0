package dev.fusepanama.internal.mount;

import dev.fusepanama.Errno;
import dev.fusepanama.MountException;
import dev.fusepanama.MountException.Reason;
import dev.fusepanama.libc.structs.statvfs;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
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
 * mount left by a dead filesystem process, no /dev/fuse, no way to mount as this user.
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
            throw new MountException(Reason.MOUNT_FAILED, mountpoint,
                    "mountpoint " + mountpoint + " cannot be examined: " + e.getReason(), e);
        } catch (IOException e) {
            throw new MountException(Reason.MOUNT_FAILED, mountpoint,
                    "mountpoint " + mountpoint + " cannot be examined: " + e.getMessage(), e);
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
