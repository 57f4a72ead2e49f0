package dev.fusepanama.testkit;

import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.FuseMount;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.Mount;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PathOptions;
import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A filesystem mounted for one test at a fresh temporary directory. {@link #close()} always
 * leaves nothing mounted: it closes normally, and if that fails or hangs it aborts the FUSE
 * connection and detaches the mount, then removes the directory.
 */
public final class TestMount implements AutoCloseable {
    private final Path dir;
    private final Mount mount;

    private TestMount(Path dir, Mount mount) {
        this.dir = dir;
        this.mount = mount;
    }

    /**
     * Mounts a path filesystem at a fresh temporary directory, with the default options.
     *
     * @param fs the filesystem
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted ({@link dev.fusepanama.MountException} says why)
     * @throws IllegalStateException if this run leaves out the tests that mount ({@link #checkMountsAllowed()})
     */
    public static TestMount mount(FuseFileSystem fs) throws IOException {
        return mount(fs, MountOptions.defaults());
    }

    /**
     * Mounts a path filesystem at a fresh temporary directory.
     *
     * @param fs the filesystem
     * @param options the mount's options
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mount(FuseFileSystem fs, MountOptions options) throws IOException {
        return mount(fs, options, PathOptions.defaults());
    }

    /**
     * Mounts a path filesystem at a fresh temporary directory, with the default mount options.
     *
     * @param fs the filesystem
     * @param pathOptions the options of the path API
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mount(FuseFileSystem fs, PathOptions pathOptions) throws IOException {
        return mount(fs, MountOptions.defaults(), pathOptions);
    }

    /**
     * Mounts a path filesystem at a fresh temporary directory.
     *
     * @param fs the filesystem
     * @param options the mount's options
     * @param pathOptions the options of the path API
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mount(FuseFileSystem fs, MountOptions options, PathOptions pathOptions) throws IOException {
        return mountAt(dir -> Fuse.mount(fs, dir, options, pathOptions));
    }

    /**
     * Mounts {@code fs} with {@code settings} instead of its own {@link FuseFileSystem#kernelSettings()}
     * ({@link ForwardingFileSystem#withKernelSettings}), e.g. timeouts of 0 for a test that must
     * see every request.
     *
     * @param fs the filesystem
     * @param settings the kernel settings to mount it with
     * @return the mount
     * @throws IOException if it cannot be mounted
     */
    public static TestMount mount(FuseFileSystem fs, KernelSettings settings) throws IOException {
        return mount(fs, MountOptions.defaults(), PathOptions.defaults(), settings);
    }

    /**
     * As {@link #mount(FuseFileSystem, KernelSettings)}, with mount options.
     *
     * @param fs the filesystem
     * @param options how to mount
     * @param settings the kernel settings to mount it with
     * @return the mount
     * @throws IOException if it cannot be mounted
     */
    public static TestMount mount(FuseFileSystem fs, MountOptions options, KernelSettings settings) throws IOException {
        return mount(fs, options, PathOptions.defaults(), settings);
    }

    /**
     * As {@link #mount(FuseFileSystem, KernelSettings)}, with mount options and the path layer's settings.
     *
     * @param fs the filesystem
     * @param options how to mount
     * @param pathOptions the path layer's settings
     * @param settings the kernel settings to mount it with
     * @return the mount
     * @throws IOException if it cannot be mounted
     */
    public static TestMount mount(FuseFileSystem fs, MountOptions options, PathOptions pathOptions, KernelSettings settings)
            throws IOException {
        return mount(ForwardingFileSystem.withKernelSettings(fs, settings), options, pathOptions);
    }

    /** Mounts a filesystem at the directory it is given. */
    @FunctionalInterface
    public interface Mounter {
        /**
         * Mounts at {@code dir}.
         *
         * @param dir an empty directory the test kit made
         * @return the mount, which {@link TestMount#close()} closes
         * @throws IOException if it cannot be mounted
         */
        Mount mount(Path dir) throws IOException;
    }

    /**
     * Mounts by {@code mounter} at a fresh temporary directory: for a filesystem that mounts
     * itself and keeps its mount, e.g. {@code NioFileSystem::mount}, whose invalidations need it.
     *
     * @param mounter what mounts at the directory
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted (the directory is removed again)
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mountWith(Mounter mounter) throws IOException {
        return mountAt(mounter);
    }

    /**
     * The JUnit tags the run leaves out ({@code -DexcludedGroups}), as the build passes them to the
     * test JVM; when they include {@value MountTest#TAG}, every mount is refused.
     */
    public static final String EXCLUDED_GROUPS_PROPERTY = "fusepanama.excludedGroups";

    /**
     * Fails when this run leaves out the tests that mount: a test that got here lacks
     * {@link MountTest}, and would otherwise mount (or fail for want of root) in a unit-only run.
     *
     * @throws IllegalStateException if {@link #EXCLUDED_GROUPS_PROPERTY} names {@value MountTest#TAG}
     */
    public static void checkMountsAllowed() {
        String excluded = System.getProperty(EXCLUDED_GROUPS_PROPERTY, "");
        for (String tag : excluded.split(",")) {
            if (tag.strip().equals(MountTest.TAG)) {
                throw new IllegalStateException("this run leaves out the tests that mount (excludedGroups=" + excluded
                        + "), but a test mounts: annotate its class with @" + MountTest.class.getName());
            }
        }
    }

    private static TestMount mountAt(Mounter mounter) throws IOException {
        checkMountsAllowed();
        Path dir = Files.createTempDirectory("fuse-panama-test-");
        try {
            return new TestMount(dir, mounter.mount(dir));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
    }

    /**
     * Mounts an inode-based filesystem (see {@link dev.fusepanama.inode}) at a fresh temporary
     * directory, with the default options.
     *
     * @param fs the filesystem
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mount(InodeFileSystem fs) throws IOException {
        return mount(fs, MountOptions.defaults());
    }

    /**
     * Mounts an inode-based filesystem at a fresh temporary directory.
     *
     * @param fs the filesystem
     * @param options the mount's options
     * @return the mount, to close when the test ends
     * @throws IOException if it cannot be mounted
     * @throws IllegalStateException if this run leaves out the tests that mount
     */
    public static TestMount mount(InodeFileSystem fs, MountOptions options) throws IOException {
        return mountAt(dir -> Fuse.mount(fs, dir, options));
    }

    /**
     * Mounts the inode filesystem {@code fs} with {@code settings} instead of its own
     * ({@link ForwardingInodeFileSystem#withKernelSettings}).
     *
     * @param fs the filesystem
     * @param options how to mount
     * @param settings the kernel settings to mount it with
     * @return the mount
     * @throws IOException if it cannot be mounted
     */
    public static TestMount mount(InodeFileSystem fs, MountOptions options, KernelSettings settings) throws IOException {
        return mount(ForwardingInodeFileSystem.withKernelSettings(fs, settings), options);
    }

    /**
     * Whether mounts of this run can pass files through to the kernel: libfuse 3.17+, root and
     * Linux 6.9+ (where our machines have {@code CONFIG_FUSE_PASSTHROUGH}), and not under qemu-user,
     * which does not pass the backing-file ioctl on ({@link Emulation}).
     *
     * @return whether a filesystem that asks for passthrough should get it
     * @throws IOException if /proc cannot be read or libfuse cannot be loaded
     */
    public static boolean passthroughExpected() throws IOException {
        boolean root = "0".equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString());
        return root && libfuseAtLeast(3, 17) && !Emulation.active()
                && atLeast(Files.readString(Path.of("/proc/sys/kernel/osrelease")), 6, 9);
    }

    /**
     * Whether the loaded libfuse is at least {@code major.minor}.
     *
     * @param major the major version, 3
     * @param minor the minor version, e.g. 17
     * @return whether libfuse's version is that or later
     * @throws IOException if libfuse cannot be loaded
     */
    public static boolean libfuseAtLeast(int major, int minor) throws IOException {
        return atLeast(Fuse.libfuseVersion(), major, minor);
    }

    static boolean atLeast(String version, int major, int minor) {
        String[] p = version.trim().split("[.-]");
        int ma = Integer.parseInt(p[0]);
        int mi = Integer.parseInt(p[1]);
        return ma > major || (ma == major && mi >= minor);
    }

    /** {@return the mount point}, the root of the mounted filesystem. */
    public Path root() { return dir; }

    /**
     * {@return a path in the mount}
     *
     * @param relative the path from the mount point
     */
    public Path path(String relative) { return dir.resolve(relative); }

    /** {@return the mount}, as the filesystem's API returned it. */
    public Mount handle() { return mount; }

    /**
     * {@return the mount of a path filesystem}, with its notification.
     *
     * @throws IllegalStateException if the mount is of an inode-based filesystem
     */
    public FuseMount pathHandle() {
        if (!(mount instanceof FuseMount m)) {
            throw new IllegalStateException("not a path filesystem's mount: " + mount.describe());
        }
        return m;
    }

    /**
     * {@return the mount of an inode-based filesystem}, with its notifications.
     *
     * @throws IllegalStateException if the mount is of a path filesystem
     */
    public InodeMount inodeHandle() {
        if (!(mount instanceof InodeMount m)) {
            throw new IllegalStateException("not an inode filesystem's mount: " + mount.describe());
        }
        return m;
    }

    /**
     * Unmounts and removes the directory. A close that fails or takes more than 20 seconds is
     * forced ({@link #forceUnmount}); either way nothing is left mounted.
     *
     * @throws Exception if the directory cannot be removed, or forcing fails
     */
    @Override
    public void close() throws Exception {
        Thread closer = new Thread(() -> {
            try {
                mount.close();
            } catch (Exception e) {
                // forced below
            }
        }, "test-unmount " + dir);
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(20));
        if (closer.isAlive() || mount.isMounted() || mounted(dir)) {
            forceUnmount(dir);
            mount.awaitUnmount(Duration.ofSeconds(10));
        }
        Files.deleteIfExists(dir);
    }

    static boolean mounted(Path dir) throws IOException {
        return Files.readString(Path.of("/proc/self/mounts")).contains(" " + dir + " ");
    }

    /** Whether this JVM mounted fusectl ({@link #ensureFusectl}), and so unmounts it when it exits. */
    private static boolean mountedFusectl;

    /**
     * Mounts fusectl at /sys/fs/fuse/connections unless it is there: it is where a test aborts a
     * connection itself; systemd mounts it, bare containers may not. Where this JVM has to mount it,
     * it unmounts it again when it exits, leaving the machine's mount table as it found it. A mount
     * that fails (not root) is not reported: what needs fusectl finds it missing.
     *
     * @throws IOException if {@code mount} cannot be started or /proc read
     * @throws InterruptedException if interrupted while {@code mount} runs
     */
    public static synchronized void ensureFusectl() throws IOException, InterruptedException {
        Path connections = Path.of("/sys/fs/fuse/connections");
        if (Files.isDirectory(connections) && Files.readString(Path.of("/proc/self/mounts")).contains(" " + connections + " ")) {
            return;
        }
        Process mount = new ProcessBuilder(List.of("mount", "-t", "fusectl", "fusectl", connections.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0 && !mountedFusectl) {
            mountedFusectl = true;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    new ProcessBuilder(List.of("umount", connections.toString())).redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
                } catch (IOException e) {
                    // the machine keeps fusectl mounted, as many do
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "fuse-panama test kit: unmount fusectl"));
        }
    }

    /**
     * Last resort for a wedged mount: abort its connection (fusectl), then detach it lazily.
     *
     * @param dir the mount point
     * @throws IOException if /proc or fusectl cannot be read or written, or {@code umount} started
     * @throws InterruptedException if interrupted while {@code umount} runs
     */
    public static void forceUnmount(Path dir) throws IOException, InterruptedException {
        ensureFusectl();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
            String[] f = line.split(" ");
            if (f.length > 4 && f[4].equals(dir.toString())) {
                Path abort = Path.of("/sys/fs/fuse/connections", f[2].split(":")[1], "abort");
                if (Files.exists(abort)) {
                    Files.writeString(abort, "1");
                }
            }
        }
        new ProcessBuilder(List.of("umount", "-l", dir.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
    }
}
