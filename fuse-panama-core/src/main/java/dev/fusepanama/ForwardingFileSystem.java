package dev.fusepanama;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A path filesystem that forwards every operation, and its {@link #kernelSettings()}, to another: the base of a decorator that
 * observes or changes some calls (counting, logging, checking, access rules) and passes the rest
 * on. Override the methods to watch; each default here calls the wrapped filesystem's.
 *
 * <p>What is registered with libfuse is what the <em>wrapped</em> filesystem implements (see
 * "Only what you implement" in the package documentation), whatever this class and its
 * subclasses override: a decorator does not change which requests the kernel sends, so override
 * a method to watch or change its call, not to add an operation the wrapped filesystem lacks.
 * Wrappers may wrap wrappers; registration follows the chain to the innermost filesystem.
 */
public abstract class ForwardingFileSystem implements FuseFileSystem {
    /** The wrapped filesystem. */
    protected final FuseFileSystem delegate;

    /**
     * A filesystem that forwards every call to {@code delegate}.
     *
     * @param delegate the filesystem wrapped, not null
     * @throws NullPointerException if {@code delegate} is null
     */
    protected ForwardingFileSystem(FuseFileSystem delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The wrapped filesystem.
     *
     * @return the filesystem given to the constructor
     */
    public final FuseFileSystem delegate() {
        return delegate;
    }

    /**
     * The filesystem whose implemented operations are registered for {@code fs}: {@code fs}, or for a wrapper the innermost one it wraps.
     *
     * @param fs a filesystem, wrapper or not
     * @return the first filesystem down the chain of delegates that is not a {@code ForwardingFileSystem}
     * @throws IllegalArgumentException if the chain is more than 1000 wrappers deep (a cycle)
     */
    public static FuseFileSystem innermost(FuseFileSystem fs) {
        FuseFileSystem f = fs;
        for (int depth = 0; f instanceof ForwardingFileSystem w; depth++) {
            if (depth > 1000) throw new IllegalArgumentException("a cycle of forwarding filesystems");
            f = w.delegate;
        }
        return f;
    }

    @Override
    public KernelSettings kernelSettings() {
        return delegate.kernelSettings();
    }

    /**
     * {@code fs} with other {@link KernelSettings}: for whoever mounts a filesystem and knows
     * more of how it is used than its author (its data never changes behind the mount, so it
     * may be cached longer), or less. Every operation goes to {@code fs} as it is.
     *
     * @param fs the filesystem to mount
     * @param settings the settings to mount it with instead of its own
     * @return a filesystem that differs from {@code fs} only in its settings
     */
    public static FuseFileSystem withKernelSettings(FuseFileSystem fs, KernelSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new ForwardingFileSystem(fs) {
            @Override
            public KernelSettings kernelSettings() {
                return settings;
            }
        };
    }

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) throws IOException {
        return delegate.getattr(path, stat, fi);
    }

    @Override
    public int readlink(String path, LinkTarget target) throws IOException {
        return delegate.readlink(path, target);
    }

    @Override
    public int mknod(String path, int mode, long rdev) throws IOException {
        return delegate.mknod(path, mode, rdev);
    }

    @Override
    public int mkdir(String path, int mode) throws IOException {
        return delegate.mkdir(path, mode);
    }

    @Override
    public int unlink(String path) throws IOException {
        return delegate.unlink(path);
    }

    @Override
    public int rmdir(String path) throws IOException {
        return delegate.rmdir(path);
    }

    @Override
    public int symlink(String target, String linkPath) throws IOException {
        return delegate.symlink(target, linkPath);
    }

    @Override
    public int rename(String from, String to, int flags) throws IOException {
        return delegate.rename(from, to, flags);
    }

    @Override
    public int link(String from, String to) throws IOException {
        return delegate.link(from, to);
    }

    @Override
    public int chmod(String path, int mode, FileInfo fi) throws IOException {
        return delegate.chmod(path, mode, fi);
    }

    @Override
    public int chown(String path, int uid, int gid, FileInfo fi) throws IOException {
        return delegate.chown(path, uid, gid, fi);
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) throws IOException {
        return delegate.truncate(path, size, fi);
    }

    @Override
    public int open(String path, FileInfo fi) throws IOException {
        return delegate.open(path, fi);
    }

    @Override
    public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException {
        return delegate.read(path, buffer, offset, fi);
    }

    @Override
    public int write(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException {
        return delegate.write(path, buffer, offset, fi);
    }

    @Override
    public int statfs(String path, StatVfs stat) throws IOException {
        return delegate.statfs(path, stat);
    }

    @Override
    public int flush(String path, FileInfo fi) throws IOException {
        return delegate.flush(path, fi);
    }

    @Override
    public int release(String path, FileInfo fi) throws IOException {
        return delegate.release(path, fi);
    }

    @Override
    public int fsync(String path, boolean dataOnly, FileInfo fi) throws IOException {
        return delegate.fsync(path, dataOnly, fi);
    }

    @Override
    public int setxattr(String path, String name, ByteBuffer value, int flags) throws IOException {
        return delegate.setxattr(path, name, value, flags);
    }

    @Override
    public int getxattr(String path, String name, ByteBuffer value) throws IOException {
        return delegate.getxattr(path, name, value);
    }

    @Override
    public int listxattr(String path, XattrNames names) throws IOException {
        return delegate.listxattr(path, names);
    }

    @Override
    public int removexattr(String path, String name) throws IOException {
        return delegate.removexattr(path, name);
    }

    @Override
    public int opendir(String path, FileInfo fi) throws IOException {
        return delegate.opendir(path, fi);
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException {
        return delegate.readdir(path, filler, offset, fi, flags);
    }

    @Override
    public int releasedir(String path, FileInfo fi) throws IOException {
        return delegate.releasedir(path, fi);
    }

    @Override
    public int fsyncdir(String path, boolean dataOnly, FileInfo fi) throws IOException {
        return delegate.fsyncdir(path, dataOnly, fi);
    }

    @Override
    public void init(ConnectionInfo connection, FuseConfig config) throws IOException {
        delegate.init(connection, config);
    }

    @Override
    public void destroy() throws IOException {
        delegate.destroy();
    }

    @Override
    public int access(String path, int mask) throws IOException {
        return delegate.access(path, mask);
    }

    @Override
    public int create(String path, int mode, FileInfo fi) throws IOException {
        return delegate.create(path, mode, fi);
    }

    @Override
    public int lock(String path, FileInfo fi, int cmd, Flock lock) throws IOException {
        return delegate.lock(path, fi, cmd, lock);
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws IOException {
        return delegate.utimens(path, atime, mtime, fi);
    }

    @Override
    public long bmap(String path, long blockSize, long index) throws IOException {
        return delegate.bmap(path, blockSize, index);
    }

    @Override
    public int ioctl(String path, int cmd, long arg, FileInfo fi, int flags, ByteBuffer data) throws IOException {
        return delegate.ioctl(path, cmd, arg, fi, flags, data);
    }

    @Override
    public int poll(String path, FileInfo fi, PollHandle handle) throws IOException {
        return delegate.poll(path, fi, handle);
    }

    @Override
    public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws IOException {
        return delegate.writeBuf(path, data, offset, fi);
    }

    @Override
    public int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) throws IOException {
        return delegate.readBuf(path, reply, size, offset, fi);
    }

    @Override
    public int flock(String path, FileInfo fi, int operation) throws IOException {
        return delegate.flock(path, fi, operation);
    }

    @Override
    public int fallocate(String path, int mode, long offset, long length, FileInfo fi) throws IOException {
        return delegate.fallocate(path, mode, offset, length, fi);
    }

    @Override
    public long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn, String pathOut, FileInfo fiOut, long offsetOut, long size, int flags) throws IOException {
        return delegate.copyFileRange(pathIn, fiIn, offsetIn, pathOut, fiOut, offsetOut, size, flags);
    }

    @Override
    public long lseek(String path, long offset, int whence, FileInfo fi) throws IOException {
        return delegate.lseek(path, offset, whence, fi);
    }

    @Override
    public int statx(String path, int flags, int mask, Statx statx, FileInfo fi) throws IOException {
        return delegate.statx(path, flags, mask, statx, fi);
    }
}
