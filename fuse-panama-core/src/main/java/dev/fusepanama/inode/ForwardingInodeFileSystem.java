package dev.fusepanama.inode;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Flock;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Stat;
import dev.fusepanama.WriteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An inode filesystem that forwards every operation, and its {@link #kernelSettings()}, to
 * another: the base of a decorator that observes or changes some calls (counting, logging,
 * checking) and passes the rest on. Override the methods to watch; each default here calls the
 * wrapped filesystem's. A method that wraps a reply to watch its answer must still answer it
 * exactly once.
 *
 * <p>What is registered with libfuse is what the <em>wrapped</em> filesystem implements, whatever
 * this class and its subclasses override: a decorator does not change which requests the kernel
 * sends, so override a method to watch or change its call, not to add an operation the wrapped
 * filesystem lacks. Wrappers may wrap wrappers; registration follows the chain to the innermost
 * filesystem.
 */
public abstract class ForwardingInodeFileSystem implements InodeFileSystem {
    /** The wrapped filesystem. */
    protected final InodeFileSystem delegate;

    /**
     * A filesystem that forwards every call to {@code delegate}.
     *
     * @param delegate the filesystem wrapped, not null
     * @throws NullPointerException if {@code delegate} is null
     */
    protected ForwardingInodeFileSystem(InodeFileSystem delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The wrapped filesystem.
     *
     * @return the filesystem given to the constructor
     */
    public final InodeFileSystem delegate() {
        return delegate;
    }

    /**
     * The filesystem whose implemented operations are registered for {@code fs}: {@code fs}, or for a wrapper the innermost one it wraps.
     *
     * @param fs a filesystem, wrapper or not
     * @return the first filesystem down the chain of delegates that is not a {@code ForwardingInodeFileSystem}
     * @throws IllegalArgumentException if the chain is more than 1000 wrappers deep (a cycle)
     */
    public static InodeFileSystem innermost(InodeFileSystem fs) {
        InodeFileSystem f = fs;
        for (int depth = 0; f instanceof ForwardingInodeFileSystem w; depth++) {
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
     * more of how it is used than its author (nothing changes it behind the mount, so
     * listings may be kept), or less. Every operation goes to {@code fs} as it is.
     *
     * @param fs the filesystem to mount
     * @param settings the settings to mount it with instead of its own
     * @return a filesystem that differs from {@code fs} only in its settings
     */
    public static InodeFileSystem withKernelSettings(InodeFileSystem fs, KernelSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new ForwardingInodeFileSystem(fs) {
            @Override
            public KernelSettings kernelSettings() {
                return settings;
            }
        };
    }

    @Override
    public void init(ConnectionInfo connection) throws IOException {
        delegate.init(connection);
    }

    @Override
    public void destroy() throws IOException {
        delegate.destroy();
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        delegate.lookup(request, parent, name, reply);
    }

    @Override
    public LookupCounter lookups() {
        return delegate.lookups();
    }

    @Override
    public void forget(long ino, long lookups) {
        delegate.forget(ino, lookups);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        delegate.getattr(request, ino, fh, reply);
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        delegate.setattr(request, ino, attributes, toSet, fh, reply);
    }

    @Override
    public void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        delegate.readlink(request, ino, reply);
    }

    @Override
    public void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        delegate.mknod(request, parent, name, mode, rdev, reply);
    }

    @Override
    public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        delegate.mkdir(request, parent, name, mode, reply);
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        delegate.unlink(request, parent, name, reply);
    }

    @Override
    public void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        delegate.rmdir(request, parent, name, reply);
    }

    @Override
    public void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        delegate.symlink(request, parent, name, target, reply);
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply) throws IOException {
        delegate.rename(request, parent, name, newParent, newName, flags, reply);
    }

    @Override
    public void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        delegate.link(request, ino, newParent, newName, reply);
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        delegate.open(request, ino, flags, reply);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        delegate.read(request, ino, fh, size, offset, reply);
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        delegate.write(request, ino, fh, data, offset, reply);
    }

    @Override
    public void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        delegate.flush(request, ino, fh, lockOwner, reply);
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) throws IOException {
        delegate.release(request, ino, fh, flags, reply);
    }

    @Override
    public void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        delegate.fsync(request, ino, fh, dataOnly, reply);
    }

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        delegate.opendir(request, ino, flags, reply);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        delegate.readdir(request, ino, fh, size, offset, reply);
    }

    @Override
    public void releasedir(Request request, long ino, long fh, EmptyReply reply) throws IOException {
        delegate.releasedir(request, ino, fh, reply);
    }

    @Override
    public void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        delegate.fsyncdir(request, ino, fh, dataOnly, reply);
    }

    @Override
    public void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        delegate.statfs(request, ino, reply);
    }

    @Override
    public void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        delegate.setxattr(request, ino, name, value, flags, reply);
    }

    @Override
    public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        delegate.getxattr(request, ino, name, size, reply);
    }

    @Override
    public void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        delegate.listxattr(request, ino, size, reply);
    }

    @Override
    public void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        delegate.removexattr(request, ino, name, reply);
    }

    @Override
    public void access(Request request, long ino, int mask, EmptyReply reply) throws IOException {
        delegate.access(request, ino, mask, reply);
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        delegate.create(request, parent, name, mode, flags, reply);
    }

    @Override
    public void getlk(Request request, long ino, long fh, long lockOwner, Flock lock, LockReply reply) throws IOException {
        delegate.getlk(request, ino, fh, lockOwner, lock, reply);
    }

    @Override
    public void setlk(Request request, long ino, long fh, long lockOwner, Flock lock, boolean sleep, EmptyReply reply) throws IOException {
        delegate.setlk(request, ino, fh, lockOwner, lock, sleep, reply);
    }

    @Override
    public void flock(Request request, long ino, long fh, int operation, EmptyReply reply) throws IOException {
        delegate.flock(request, ino, fh, operation, reply);
    }

    @Override
    public void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply) throws IOException {
        delegate.fallocate(request, ino, fh, mode, offset, length, reply);
    }

    @Override
    public void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut, long offsetOut, long length, int flags, WriteReply reply) throws IOException {
        delegate.copyFileRange(request, inoIn, fhIn, offsetIn, inoOut, fhOut, offsetOut, length, flags, reply);
    }

    @Override
    public void bmap(Request request, long ino, long blockSize, long index, BmapReply reply) throws IOException {
        delegate.bmap(request, ino, blockSize, index, reply);
    }

    @Override
    public void ioctl(Request request, long ino, long fh, int cmd, long arg, int flags, ByteBuffer in, int outSize, IoctlReply reply) throws IOException {
        delegate.ioctl(request, ino, fh, cmd, arg, flags, in, outSize, reply);
    }

    @Override
    public void poll(Request request, long ino, long fh, int events, PollHandle handle, PollReply reply) throws IOException {
        delegate.poll(request, ino, fh, events, handle, reply);
    }

    @Override
    public void writeBuf(Request request, long ino, long fh, WriteBuffer data, long offset, WriteReply reply) throws IOException {
        delegate.writeBuf(request, ino, fh, data, offset, reply);
    }

    @Override
    public void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) throws IOException {
        delegate.lseek(request, ino, fh, offset, whence, reply);
    }

    @Override
    public void tmpfile(Request request, long parent, int mode, int flags, CreateReply reply) throws IOException {
        delegate.tmpfile(request, parent, mode, flags, reply);
    }

    @Override
    public void statx(Request request, long ino, long fh, int flags, int mask, StatxReply reply) throws IOException {
        delegate.statx(request, ino, fh, flags, mask, reply);
    }
}
