package dev.fusepanama.internal.mount;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.MountOptions;
import dev.fusepanama.internal.bind.FuseLog;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.passthrough.BackingFiles;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the kernel, libfuse and this process offer one mount beyond plain requests, and what the
 * mount got: the transport (io_uring or /dev/fuse), kernel passthrough of file data, and
 * readahead beyond the 128 KiB init can give. Found in three steps: when the session is made
 * (what libfuse and this process can do: the release, the fuse module's parameter, an
 * {@code io_uring_setup}, CAP_SYS_ADMIN), in init (what the kernel offers), and once the kernel
 * has init's reply (whether the device takes backing files, the readahead written). Fixed from
 * then on; {@link MountSession#describe} says it, and the tests read that line.
 */
final class KernelFeatures {
    private static final Logger LOG = LoggerFactory.getLogger(MountSession.class);

    private final LibFuse lib;
    private final Path mountpoint;
    private final MountOptions options;
    /** The mount's passthrough registrations (null if passthrough was not asked for or this libfuse has none). */
    final BackingFiles backing;
    /** Why requests do not travel over io_uring although asked to; null if they do or it was not asked. */
    private volatile String ioUringUnavailable;
    /** The kernel's readahead for this mount in KiB once raised above its offer in init; 0 if left as negotiated. */
    private volatile int readaheadKib;
    /** Kept here because FuseLog holds it weakly. */
    private final Consumer<String> ringStartFailure =
            message -> ioUringRefused("libfuse could not start its queues (" + message.replaceFirst("^fuse: ", "") + ")");

    KernelFeatures(LibFuse lib, Path mountpoint, MountOptions options) {
        this.lib = lib;
        this.mountpoint = mountpoint;
        this.options = options;
        backing = options.passthrough() && lib.version.atLeast(3, 17, 0) ? new BackingFiles(mountpoint.toString()) : null;
        ioUringUnavailable = options.ioUring() ? ioUringUnavailable(lib) : null;
    }

    /**
     * Why io_uring cannot be used by this process with {@code lib}; null if it can be asked for.
     * The module parameter is read at mount time: the kernel reads it when the server registers
     * its rings, so turning it on later does not change a mount.
     */
    static String ioUringUnavailable(LibFuse lib) {
        if (!lib.version.atLeast(3, 18, 0)) {
            return "libfuse " + lib.packageVersion + " has none (3.18+)";
        }
        if (!lib.version.atLeast(3, 18, 2)) {
            // fuse_uring_start kept its freed queues when one failed to start, and freed them again at the end.
            return "libfuse " + lib.packageVersion + " frees its io_uring queues twice when one fails to start "
                    + "(CVE-2026-33150, fixed in 3.18.2)";
        }
        Path parameter = Path.of("/sys/module/fuse/parameters/enable_uring");
        try {
            String value = Files.readString(parameter).trim();
            if (!value.equals("Y") && !value.equals("1")) {
                return "the fuse module's enable_uring is off (as root: echo 1 > " + parameter + ")";
            }
        } catch (IOException e) {
            return "the kernel has no FUSE-over-io_uring (no " + parameter + ")";
        }
        return ioUringForbidden();
    }

    /**
     * Why this process cannot make an io_uring at all; null if it can. Asked before libfuse is:
     * libfuse finds out only in its queue threads, and cancels them (see Cancellation).
     */
    static String ioUringForbidden() {
        try (Arena arena = Arena.ofConfined()) {
            int fd = Libc.ioUringSetup(1, arena.allocate(Libc.IO_URING_PARAMS_SIZE, 8));
            if (fd >= 0) {
                Libc.close(fd);
                return null;
            }
            String reason = switch (-fd) {
                case Errno.EPERM -> ": the kernel.io_uring_disabled sysctl or a seccomp filter (a container's) forbids it";
                case Errno.ENOSYS -> ": the kernel has none, or a seccomp filter hides it";
                default -> "";
            };
            return "this process cannot create an io_uring (io_uring_setup: " + Errno.name(-fd) + reason + ")";
        }
    }

    /** Whether this process has CAP_SYS_ADMIN, which registering a backing file needs. */
    static boolean hasSysAdmin() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 21)) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            LOG.debug("cannot read the capabilities of this process: {}", e.toString());
        }
        return Libc.geteuid() == 0;
    }

    /**
     * In init, before the filesystem's own: asks for passthrough where the kernel offers it and
     * this process may use it, and records what the mount got. {@code deviceFd} gives the
     * session's /dev/fuse descriptor, which the backing-file ioctls go to.
     */
    void negotiatePassthrough(NativeConnectionInfo connection, IntSupplier deviceFd) {
        if (backing == null || backing.unavailable() != null) {
            return;
        }
        int fd = deviceFd.getAsInt();
        String reason = null;
        if (!connection.isCapable(ConnectionInfo.CAP_PASSTHROUGH)) {
            reason = "the kernel does not offer it (CONFIG_FUSE_PASSTHROUGH, Linux 6.9+)";
        } else if (!hasSysAdmin()) {
            reason = "registering backing files needs CAP_SYS_ADMIN";
        } else {
            connection.want(ConnectionInfo.CAP_PASSTHROUGH);
            connection.unwant(ConnectionInfo.CAP_WRITEBACK_CACHE);
            if (!connection.wants(ConnectionInfo.CAP_PASSTHROUGH)) {
                reason = "libfuse did not grant it";
            }
        }
        backing.negotiated(fd, reason);
        if (reason != null) {
            LOG.info("{}: files are not passed through to the kernel: {}", mountpoint, reason);
        }
    }

    /**
     * In init: io_uring is started by libfuse after init only if the kernel offers it; a mount
     * that asked for it and is not offered it uses /dev/fuse, and says so.
     */
    void checkIoUring(NativeConnectionInfo connection) {
        if (options.ioUring() && ioUringUnavailable == null && !connection.isCapable(ConnectionInfo.CAP_OVER_IO_URING)) {
            ioUringRefused("the kernel did not offer it in init");
        }
        if (ioUringActive()) {
            // libfuse starts its queues after this init and, if they fail, serves /dev/fuse with
            // no more than a log line on this thread: that line is how the mount learns it.
            FuseLog.onRingStartFailure(ringStartFailure);
        }
    }

    /** Whether requests travel over io_uring: asked for, and nothing has said otherwise (final once init has run). */
    boolean ioUringActive() {
        return options.ioUring() && ioUringUnavailable == null;
    }

    /** After init: records that io_uring was not started after all. */
    void ioUringRefused(String why) {
        if (ioUringUnavailable == null) {
            ioUringUnavailable = why;
            LOG.info("{}: requests travel over /dev/fuse, not io_uring: {}", mountpoint, why);
        }
    }

    /**
     * Whether the mount must wait for the kernel to have init's reply before it is up: what
     * {@link #settle} finds is final only then, and libfuse 3.18 takes notifications only from
     * then on. {@code connection} is the mount's connection number, null if unknown.
     */
    boolean settleAfterInitReply(String connection) {
        return ioUringActive() || raisesReadahead(connection) || (backing != null && backing.unavailable() == null)
                || lib.version.atLeast(3, 18, 0);
    }

    /** Once the kernel has init's reply: finds whether the device takes backing files, and raises readahead. */
    void settle(String connection) {
        if (backing != null) backing.probe();
        raiseReadahead(connection);
    }

    /** Whether more readahead was asked for than init can give, on a mount whose bdi is known. */
    private boolean raisesReadahead(String connection) {
        return options.maxReadahead() > MountOptions.KERNEL_READAHEAD && connection != null;
    }

    /**
     * The kernel offers at most 128 KiB of readahead in init ({@code VM_READAHEAD_PAGES}) and a
     * filesystem may only lower it there; a larger {@link MountOptions#maxReadahead} is set after
     * init through the mount's {@code /sys/class/bdi/MAJOR:MINOR/read_ahead_kb}, which needs
     * root. Never fails the mount: without the right, readahead stays as negotiated (logged).
     */
    private void raiseReadahead(String connection) {
        if (!raisesReadahead(connection)) return;
        int wanted = options.maxReadahead();
        Path setting = Path.of("/sys/class/bdi/0:" + connection + "/read_ahead_kb");
        int kib = wanted / 1024;
        try {
            Files.writeString(setting, Integer.toString(kib));
            readaheadKib = Integer.parseInt(Files.readString(setting).trim());
        } catch (IOException | RuntimeException e) {
            LOG.info("readahead of {} stays at {} KiB, not the {} KiB asked for: {} cannot be written ({}); it needs root",
                    mountpoint, MountOptions.KERNEL_READAHEAD / 1024, kib, setting, e.toString());
        }
    }

    /** What the mount got, for {@link MountSession#describe}: its transport, data path and readahead. */
    String describe() {
        return transport() + ", " + dataPath() + (readaheadKib > 0 ? ", readahead " + readaheadKib + " KiB" : "");
    }

    /** Which transport requests take: "io_uring", or "/dev/fuse" and, if io_uring was asked for, why not. */
    private String transport() {
        if (!options.ioUring()) return "transport /dev/fuse";
        String why = ioUringUnavailable;
        return why == null ? "transport io_uring" : "transport /dev/fuse (no io_uring: " + why + ")";
    }

    /** How file data travels: "kernel passthrough" where files may be passed through, or why not. */
    private String dataPath() {
        if (!options.passthrough()) return "data through the filesystem";
        String why = backing == null ? "libfuse " + lib.packageVersion + " has none (3.17+)" : backing.unavailable();
        return why == null ? "kernel passthrough" : "data through the filesystem (no passthrough: " + why + ")";
    }
}
