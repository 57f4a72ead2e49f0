package dev.fusepanama;

import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.internal.inode.InodeSession;
import dev.fusepanama.internal.mount.MountSession;
import dev.fusepanama.internal.path.PathSession;
import java.nio.file.Path;

/**
 * Entry point: mounts a {@link FuseFileSystem} (paths, libfuse's high-level API) or an
 * {@link InodeFileSystem} (inode numbers, its low-level API), and tells whether this process
 * can mount at all.
 */
public final class Fuse {
    private Fuse() {}

    /**
     * Mounts {@code fs} at {@code mountpoint}. Returns once the kernel has initialised the
     * connection and the filesystem serves requests. To know that the kernel has libfuse's answer
     * to its INIT (on libfuse 3.18, where notifications work only from then on; with io_uring,
     * kernel passthrough or a raised readahead on every release), the mount makes one stat of
     * the mountpoint before it returns: the filesystem's {@code getattr} of its root may be called
     * while the mounting thread waits, so it must not wait for a lock that thread holds.
     *
     * @param fs the filesystem; its {@link FuseFileSystem#kernelSettings()} are asked once, here
     * @param mountpoint an existing directory, not mounted already
     * @param options how to mount
     * @param pathOptions the settings of libfuse's path layer
     * @return the live mount; close it to unmount
     * @throws MountException saying what is wrong and how to fix it (mountpoint missing, not a
     *         directory, already or stale mounted; /dev/fuse missing or not accessible; libfuse3
     *         missing or too old; options rejected; init failed)
     */
    public static FuseMount mount(FuseFileSystem fs, Path mountpoint, MountOptions options, PathOptions pathOptions)
            throws MountException {
        return PathSession.mount(fs, mountpoint, options, pathOptions);
    }

    /**
     * As {@link #mount(FuseFileSystem, Path, MountOptions, PathOptions)} with libfuse's path
     * settings ({@link PathOptions#defaults()}).
     *
     * @param fs the filesystem
     * @param mountpoint an existing directory, not mounted already
     * @param options how to mount
     * @return the live mount; close it to unmount
     * @throws MountException as {@link #mount(FuseFileSystem, Path, MountOptions, PathOptions)}
     */
    public static FuseMount mount(FuseFileSystem fs, Path mountpoint, MountOptions options) throws MountException {
        return mount(fs, mountpoint, options, PathOptions.defaults());
    }

    /**
     * As {@link #mount(FuseFileSystem, Path, MountOptions, PathOptions)} with
     * {@link MountOptions#defaults()} and {@link PathOptions#defaults()}.
     *
     * @param fs the filesystem
     * @param mountpoint an existing directory, not mounted already
     * @return the live mount; close it to unmount
     * @throws MountException as {@link #mount(FuseFileSystem, Path, MountOptions, PathOptions)}
     */
    public static FuseMount mount(FuseFileSystem fs, Path mountpoint) throws MountException {
        return mount(fs, mountpoint, MountOptions.defaults());
    }

    /**
     * Mounts an inode-based filesystem at {@code mountpoint} through libfuse's low-level API.
     * Returns once the kernel has initialised the connection. It takes no {@link PathOptions}:
     * an inode filesystem sends its timeouts and open flags with each reply.
     *
     * @param fs the filesystem; its {@link InodeFileSystem#kernelSettings()} are asked once, here
     * @param mountpoint an existing directory, not mounted already
     * @param options how to mount
     * @return the live mount; close it to unmount
     * @throws MountException as {@link #mount(FuseFileSystem, Path, MountOptions)}
     */
    public static InodeMount mount(InodeFileSystem fs, Path mountpoint, MountOptions options) throws MountException {
        return InodeSession.mount(fs, mountpoint, options);
    }

    /**
     * As {@link #mount(InodeFileSystem, Path, MountOptions)} with {@link MountOptions#defaults()}.
     *
     * @param fs the filesystem
     * @param mountpoint an existing directory, not mounted already
     * @return the live mount; close it to unmount
     * @throws MountException as {@link #mount(FuseFileSystem, Path, MountOptions)}
     */
    public static InodeMount mount(InodeFileSystem fs, Path mountpoint) throws MountException {
        return mount(fs, mountpoint, MountOptions.defaults());
    }

    /**
     * Checks, without mounting, that this process can mount: {@code /dev/fuse} exists and can be
     * opened (as root) or the setuid helper {@code fusermount3} is there (as another user), and
     * libfuse3 loads on this architecture. For an application that offers FUSE only where it
     * works; fast after the first call, which loads libfuse.
     *
     * @throws MountException saying what is missing and how to get it
     *         ({@link MountException.Reason#NO_FUSE_DEVICE}, {@code PERMISSION_DENIED},
     *         {@code LIBFUSE_UNAVAILABLE}, {@code UNSUPPORTED_ARCHITECTURE})
     */
    public static void checkReady() throws MountException {
        MountSession.checkReady();
    }

    /**
     * The version of the libfuse this process uses, loading it on the first call.
     *
     * @return its package version, e.g. "3.14.0"
     * @throws MountException if libfuse3 cannot be loaded, or not on this architecture
     */
    public static String libfuseVersion() throws MountException {
        return MountSession.libfuse(null).packageVersion;
    }
}
