package dev.fusepanama.cryptomator;

import dev.fusepanama.Fuse;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.nio.NioFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.cryptomator.integrations.common.OperatingSystem;
import org.cryptomator.integrations.common.Priority;
import org.cryptomator.integrations.mount.Mount;
import org.cryptomator.integrations.mount.MountBuilder;
import org.cryptomator.integrations.mount.MountCapability;
import org.cryptomator.integrations.mount.MountFailedException;
import org.cryptomator.integrations.mount.MountService;
import org.cryptomator.integrations.mount.Mountpoint;
import org.cryptomator.integrations.mount.UnmountFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mounts a {@code java.nio.file} root (a Cryptomator vault's cleartext root, as cryptofs serves
 * it, or any other) through the system's libfuse3 with fuse-panama's NIO adapter. Found by
 * {@code ServiceLoader} as {@code MountService.get()} finds providers; on Linux only.
 *
 * <p><b>Capabilities</b>: {@code MOUNT_TO_EXISTING_DIR} (the mountpoint is an existing, empty
 * directory), {@code MOUNT_FLAGS} (the flags fuse-nio-adapter takes, with its meaning: FUSE's
 * {@code -o} options and libfuse's {@code uid=}, {@code gid=}, {@code umask=},
 * {@code attr_timeout=}, {@code entry_timeout=}, {@code negative_timeout=}, see {@link MountFlags};
 * the default {@code -oauto_unmount} has the kernel drop the mount if the application dies),
 * {@code READ_ONLY}, {@code UNMOUNT_FORCED},
 * {@code VOLUME_NAME} (the mount's source, as {@code mount} and {@code df} show it) and
 * {@code FILE_SYSTEM_NAME} (its type, {@code fuse.NAME}).
 *
 * <p><b>Priority</b> 110: above Cryptomator's own Linux FUSE provider (100), so that installing
 * this one makes it the default, and below nothing else on Linux.
 */
@Priority(110)
@OperatingSystem(OperatingSystem.Value.LINUX)
public final class FusePanamaMountService implements MountService {
    private static final Logger LOG = LoggerFactory.getLogger(FusePanamaMountService.class);
    /** How long a graceful unmount waits for filesystem calls in flight. */
    private static final Duration UNMOUNT_WAIT = Duration.ofSeconds(2);
    /** How long a forced unmount waits for the session to end once its connection is aborted. */
    private static final Duration FORCED_WAIT = Duration.ofSeconds(1);

    /** Whether this machine can mount, found once: the API wants {@link #isSupported} fast and constant. */
    private static final class Readiness {
        static final String PROBLEM = problem();

        private static String problem() {
            try {
                Fuse.checkReady();
                return null;
            } catch (MountException | LinkageError e) {
                return e.getMessage();
            }
        }
    }

    /** Public for ServiceLoader. */
    public FusePanamaMountService() {}

    @Override
    public String displayName() {
        return "FUSE (fuse-panama)";
    }

    /**
     * True where a mount can work: {@code /dev/fuse} usable (or {@code fusermount3} for a user
     * that is not root) and libfuse3 loaded. Checked once per JVM; why not is logged at debug.
     */
    @Override
    public boolean isSupported() {
        String problem = Readiness.PROBLEM;
        if (problem != null) LOG.debug("fuse-panama cannot mount here: {}", problem);
        return problem == null;
    }

    @Override
    public Set<MountCapability> capabilities() {
        return EnumSet.of(MountCapability.MOUNT_FLAGS, MountCapability.MOUNT_TO_EXISTING_DIR, MountCapability.READ_ONLY,
                MountCapability.UNMOUNT_FORCED, MountCapability.VOLUME_NAME, MountCapability.FILE_SYSTEM_NAME);
    }

    @Override
    public String getDefaultMountFlags() {
        return MountFlags.DEFAULTS;
    }

    @Override
    public MountBuilder forFileSystem(Path fileSystemRoot) {
        return new Builder(Objects.requireNonNull(fileSystemRoot, "fileSystemRoot"));
    }

    /** Collects the settings; {@link #mount} checks them together. */
    static final class Builder implements MountBuilder {
        private final Path root;
        private Path mountpoint;
        private String flags = MountFlags.DEFAULTS;
        private boolean readOnly;
        private String volumeName;
        private String fileSystemName;

        Builder(Path root) {
            this.root = root;
        }

        /** @throws IllegalArgumentException unless {@code mountPoint} is an existing directory */
        @Override
        public MountBuilder setMountpoint(Path mountPoint) {
            if (!Files.isDirectory(mountPoint)) {
                throw new IllegalArgumentException("the mountpoint " + mountPoint + " must be an existing directory");
            }
            this.mountpoint = mountPoint;
            return this;
        }

        /**
         * The flags as fuse-nio-adapter takes them ({@link MountFlags}); read by {@link #mount},
         * which fails with {@code MountFailedException} naming a flag it cannot honour.
         */
        @Override
        public MountBuilder setMountFlags(String mountFlags) {
            this.flags = Objects.requireNonNull(mountFlags, "mountFlags");
            return this;
        }

        @Override
        public MountBuilder setReadOnly(boolean mountReadOnly) {
            this.readOnly = mountReadOnly;
            return this;
        }

        @Override
        public MountBuilder setVolumeName(String name) {
            this.volumeName = optionValue(name);
            return this;
        }

        @Override
        public MountBuilder setFileSystemName(String name) {
            this.fileSystemName = optionValue(name);
            return this;
        }

        /** A name as a mount option can carry it: no commas (option separators), no NUL, not blank. */
        private static String optionValue(String name) {
            String s = name.replace(',', '_').replace('\0', '_').strip();
            return s.isEmpty() ? null : s;
        }

        @Override
        public Mount mount() throws MountFailedException {
            if (mountpoint == null) throw new MountFailedException("no mountpoint set (setMountpoint)");
            MountFlags parsed = MountFlags.parse(flags);
            NioFileSystem fs;
            try {
                fs = NioFileSystem.of(root, parsed.nio);
            } catch (IOException e) {
                throw new MountFailedException("cannot serve " + root + ": " + e, e);
            }
            MountOptions.Builder options = fs.mountOptions().fuseOptions(parsed.fuse);
            if (readOnly) options.readOnly(true);
            if (volumeName != null) options.fsName(volumeName);
            if (fileSystemName != null) options.subtype(fileSystemName);
            try {
                InodeMount m = fs.mount(mountpoint, options.build());
                LOG.info("{} mounted at {} ({})", root.toUri(), mountpoint, m.describe());
                return new FuseMountHandle(m);
            } catch (MountException e) {
                throw new MountFailedException(e.getMessage(), e);
            }
        }
    }

    /** A live mount, as the API hands it to the application. */
    static final class FuseMountHandle implements Mount {
        private final InodeMount mount;

        FuseMountHandle(InodeMount mount) {
            this.mount = mount;
        }

        @Override
        public Mountpoint getMountpoint() {
            return Mountpoint.forPath(mount.mountpoint());
        }

        /**
         * Unmounts if no process uses the mount, waiting for calls in flight; does nothing if it
         * has ended already (unmounted from outside).
         *
         * @throws UnmountFailedException saying which process-visible state keeps it (a file open,
         *         a working directory there), with the mount left as it was
         */
        @Override
        public void unmount() throws UnmountFailedException {
            try {
                mount.close(UNMOUNT_WAIT);
            } catch (MountException e) {
                throw new UnmountFailedException(e.getMessage(), e);
            }
        }

        /**
         * Ends the mount whoever uses it, within a second: processes still in it get ENOTCONN. As
         * root; otherwise the detached mount ends when they let go. The connection is ended
         * through fusectl, mounted for the moment where the machine has not mounted it
         * ({@link dev.fusepanama.Mount#forceClose}).
         *
         * @throws UnmountFailedException if the session had not ended within a second
         */
        @Override
        public void unmountForced() throws UnmountFailedException {
            try {
                if (!mount.forceClose(FORCED_WAIT)) {
                    throw new UnmountFailedException(mount.mountpoint() + " is detached, but its session had not ended after "
                            + FORCED_WAIT.toSeconds() + " s: it ends when the last process using it lets go");
                }
            } catch (MountException e) {
                throw new UnmountFailedException(e.getMessage(), e);
            }
        }

        @Override
        public void close() throws UnmountFailedException {
            if (mount.isMounted()) unmount();
        }

        /** Whether the mount still serves (false once unmounted, here or from outside). */
        boolean isMounted() {
            return mount.isMounted();
        }

        /** Blocks until the mount ends, here or from outside. */
        void awaitEnd() {
            try {
                mount.awaitUnmount();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
