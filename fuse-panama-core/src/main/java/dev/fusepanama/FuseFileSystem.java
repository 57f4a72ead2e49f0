package dev.fusepanama;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What a filesystem author implements: one method per operation of libfuse3's high-level
 * {@code struct fuse_operations}. See the package documentation for the concepts.
 *
 * <p><b>Only what you override is registered.</b> When mounting, fuse-panama looks at which of
 * these methods the implementation class overrides and registers exactly those with libfuse;
 * the kernel is told the others do not exist (for most, it stops asking after the first
 * ENOSYS). The defaults below are therefore only reached when an implementation calls
 * {@code super}; they return what libfuse does for an absent operation.
 *
 * <p><b>Results.</b> Methods return {@code 0} (or a count, where documented) on success and a
 * negative {@link Errno} value on failure, like the C API; or they throw. A thrown
 * {@link ErrnoException} answers with its errno; {@code java.nio.file} exceptions answer with
 * their natural errno ({@code NoSuchFileException} → ENOENT, ...); anything else answers EIO and
 * is logged. Nothing thrown here can crash the JVM or leave the kernel waiting.
 *
 * <p><b>Paths</b> are absolute within the mount ("/", "/dir/file"). Bytes that are not valid
 * UTF-8 arrive escaped as lone surrogates ({@link FileNames}), so they survive a round trip.
 * A path is {@code null} for operations on an open file that has been unlinked, when the
 * {@code hard_remove} or {@code nullpath_ok} behaviour is on: use {@link FileInfo#fh()} then.
 *
 * <p><b>Views</b> ({@link Stat}, {@link FileInfo}, buffers, ...) are windows onto libfuse's
 * memory, valid only until the method returns: copy what you need, never keep the view.
 *
 * <p><b>Threads.</b> Unless mounted single-threaded, methods are called concurrently from
 * several libfuse worker threads. {@link FuseContext#current()} tells who is calling.
 */
public interface FuseFileSystem {

    /**
     * What the kernel may cache or decide for this filesystem by itself ({@link KernelSettings}:
     * attribute and name timeouts, page cache at open, capabilities): asked once, at mount, and
     * fixed for the mount's life. Each setting is a promise about the filesystem's behaviour, so
     * the default is {@link KernelSettings#DEFAULTS} (libfuse's timeouts of 1 s, data dropped at
     * each open); {@link ForwardingFileSystem#withKernelSettings} mounts a filesystem with others.
     *
     * @return the settings, never null
     */
    default KernelSettings kernelSettings() {
        return KernelSettings.DEFAULTS;
    }

    /** Attributes of {@code path} ({@code stat(2)}); {@code stat} arrives zeroed. {@code fi} is null unless the file is open. */
    default int getattr(String path, Stat stat, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** The target of the symbolic link {@code path}. */
    default int readlink(String path, LinkTarget target) throws IOException { return -Errno.ENOSYS; }

    /** Create a non-directory, non-symlink node ({@code mknod(2)}); regular files go through {@link #create} when it exists. */
    default int mknod(String path, int mode, long rdev) throws IOException { return -Errno.ENOSYS; }

    /** {@code mkdir(2)}; {@code mode} may lack the S_IFDIR bit. */
    default int mkdir(String path, int mode) throws IOException { return -Errno.ENOSYS; }

    /** {@code unlink(2)}: remove a non-directory name. Open files stay usable (see {@code hard_remove} in the package documentation). */
    default int unlink(String path) throws IOException { return -Errno.ENOSYS; }

    /** {@code rmdir(2)}: remove an empty directory; -ENOTEMPTY if it has entries. */
    default int rmdir(String path) throws IOException { return -Errno.ENOSYS; }

    /** Create the symbolic link {@code linkPath} pointing at {@code target}. */
    default int symlink(String target, String linkPath) throws IOException { return -Errno.ENOSYS; }

    /** {@code renameat2(2)}: {@code flags} may hold {@link Posix#RENAME_NOREPLACE} or {@link Posix#RENAME_EXCHANGE}; answer EINVAL to flags you do not support. */
    default int rename(String from, String to, int flags) throws IOException { return -Errno.ENOSYS; }

    /** Create the hard link {@code to} for {@code from}. */
    default int link(String from, String to) throws IOException { return -Errno.ENOSYS; }

    /** {@code chmod(2)}/{@code fchmod(2)}: {@code mode} holds the permission bits (and may hold the type bits); {@code fi} is non-null for the latter. */
    default int chmod(String path, int mode, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** {@code uid} or {@code gid} is -1 when that one is not to change. */
    default int chown(String path, int uid, int gid, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** {@code truncate(2)}/{@code ftruncate(2)}; {@code fi} is non-null for the latter. {@code O_TRUNC} on open arrives in {@link #open}. */
    default int truncate(String path, long size, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Open a file. {@link FileInfo#flags()} holds the open flags (without O_CREAT/O_EXCL/O_NOCTTY);
     * with libfuse 3, O_TRUNC is passed here too and the file must be truncated by this call.
     * Set {@link FileInfo#setFh} to find the file again in read/write/release.
     */
    default int open(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * Read {@code buffer.remaining()} bytes at {@code offset} into {@code buffer} (libfuse's memory)
     * and return the count. Return exactly that many except at end of file or on error: a shorter
     * count tells the kernel the rest of the request reads as zeros (unless the file was opened
     * with {@link FileInfo#setDirectIo direct I/O}, where a short count is a short read).
     */
    default int read(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Write {@code buffer}'s bytes (read-only libfuse memory) at {@code offset}; return the count
     * written, which must be all of them except on error (unless with direct I/O).
     */
    default int write(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** {@code statvfs(2)} of the filesystem. */
    default int statfs(String path, StatVfs stat) throws IOException { return -Errno.ENOSYS; }

    /** Called on each {@code close(2)} of a file descriptor (possibly several per open). */
    default int flush(String path, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** The last reference to an open file is gone; the result is ignored by the kernel. */
    default int release(String path, FileInfo fi) throws IOException { return 0; }

    /** {@code fsync(2)}, or {@code fdatasync(2)} when {@code dataOnly}: make the open file's data (and metadata) durable. */
    default int fsync(String path, boolean dataOnly, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** {@code setxattr(2)}; {@code flags} may hold {@link Posix#XATTR_CREATE} or {@link Posix#XATTR_REPLACE}. */
    default int setxattr(String path, String name, ByteBuffer value, int flags) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code getxattr(2)}: with {@code value.capacity() == 0} return the value's size; otherwise copy it
     * into {@code value} and return its size, or -ERANGE if it does not fit. Missing: -ENODATA.
     */
    default int getxattr(String path, String name, ByteBuffer value) throws IOException { return -Errno.ENOSYS; }

    /** {@code listxattr(2)}: add each name to {@code names}; sizes and ERANGE are handled for you. */
    default int listxattr(String path, XattrNames names) throws IOException { return -Errno.ENOSYS; }

    /** {@code removexattr(2)}: -ENODATA if there is no such attribute. */
    default int removexattr(String path, String name) throws IOException { return -Errno.ENOSYS; }

    /** Open a directory for listing; set {@link FileInfo#setFh} to find it again in readdir and releasedir. */
    default int opendir(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * List a directory. Add entries with {@link DirFiller}; stop when it returns {@code true}
     * (the kernel's buffer is full) and continue from the offset you gave the last accepted
     * entry on the next call. Entries given with attributes make {@code ls -l} need no getattr
     * per entry (readdirplus), when {@code flags} has {@link DirFiller#READDIR_PLUS}.
     */
    default int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException { return -Errno.ENOSYS; }

    /** The last reference to an open directory is gone; the result is ignored by the kernel. */
    default int releasedir(String path, FileInfo fi) throws IOException { return 0; }

    /** {@code fsync(2)} on an open directory: make its entries durable ({@code dataOnly} as in {@link #fsync}). */
    default int fsyncdir(String path, boolean dataOnly, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * The connection is set up: {@code connection} and {@code config} show what the kernel and
     * libfuse agreed on for this mount, {@link MountOptions} applied (the one place settings are
     * made), so a filesystem can adapt to what it got (a capability the kernel did not offer, a
     * smaller read size). Runs once, before any other operation; throwing fails the mount.
     */
    default void init(ConnectionInfo connection, FuseConfig config) throws IOException {}

    /** The filesystem is being unmounted; called once, after the last operation. */
    default void destroy() throws IOException {}

    /** {@code access(2)}: {@code mask} is {@link Posix#F_OK} or a combination of R_OK/W_OK/X_OK. Not called with {@code default_permissions}. */
    default int access(String path, int mask) throws IOException { return -Errno.ENOSYS; }

    /** Create and open a regular file; {@link FileInfo#flags()} holds the open flags. */
    default int create(String path, int mode, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** POSIX record locks: {@code cmd} is {@link Posix#F_GETLK}, F_SETLK or F_SETLKW. Absent, the kernel keeps locks locally. */
    default int lock(String path, FileInfo fi, int cmd, Flock lock) throws IOException { return -Errno.ENOSYS; }

    /** Change access and modification times; either may be {@link Timespec#isNow()} or {@link Timespec#isOmit()}. */
    default int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Map a block index to a device block ({@code FIBMAP}). The kernel only sends this to
     * block-device-backed mounts ({@code fuseblk}), never to an ordinary FUSE mount.
     *
     * @return the device block, or a negative errno
     */
    default long bmap(String path, long blockSize, long index) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code ioctl(2)} on an open file (or directory with {@link ConnectionInfo#CAP_IOCTL_DIR}).
     * {@code data} has the size encoded in {@code cmd} ({@code _IOC_SIZE}), holds the input for
     * {@code _IOW} commands and receives the output of {@code _IOR} ones; it is null for commands
     * that carry no data. {@code arg} is the caller's raw argument.
     */
    default int ioctl(String path, int cmd, long arg, FileInfo fi, int flags, ByteBuffer data) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code poll(2)}: return the ready events ({@link Posix#POLLIN}, ...) or a negative errno.
     * If {@code handle} is non-null and you will report readiness later, call
     * {@link PollHandle#retain()} and later {@link PollHandle#notifyReady()}.
     */
    default int poll(String path, FileInfo fi, PollHandle handle) throws IOException { return -Errno.ENOSYS; }

    /** Like {@link #write}, with the data possibly still in a pipe: see {@link WriteBuffer}. Return the count written. */
    default int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** Like {@link #read}, answering with a file range or memory through {@link ReadReply}: lets data bypass the JVM. */
    default int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** BSD {@code flock(2)}: {@code operation} is LOCK_SH, LOCK_EX or LOCK_UN, possibly with LOCK_NB. Absent, the kernel keeps flocks locally. */
    default int flock(String path, FileInfo fi, int operation) throws IOException { return -Errno.ENOSYS; }

    /** {@code fallocate(2)}: {@code mode} may hold FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, ... */
    default int fallocate(String path, int mode, long offset, long length, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /** {@code copy_file_range(2)} between two open files of this mount; return the count copied. */
    default long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn,
                               String pathOut, FileInfo fiOut, long offsetOut, long size, int flags) throws IOException {
        return -Errno.ENOSYS;
    }

    /** {@code lseek(2)} for SEEK_DATA and SEEK_HOLE (the kernel handles the other whences); return the new offset. */
    default long lseek(String path, long offset, int whence, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code statx(2)} beyond what {@link #getattr} answers ({@code mask} has {@code STATX_BTIME}
     * or other bits past {@code STATX_BASIC_STATS}): fill what the filesystem knows and set those
     * bits of {@link Statx#setMask}. libfuse 3.18 and later; without it (or on earlier releases,
     * where it is not registered) the kernel answers from getattr, without the birth time.
     */
    default int statx(String path, int flags, int mask, Statx statx, FileInfo fi) throws IOException { return -Errno.ENOSYS; }
}
