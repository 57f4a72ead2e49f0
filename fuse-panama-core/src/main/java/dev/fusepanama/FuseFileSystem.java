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

    /**
     * Attributes of {@code path} ({@code stat(2)}, {@code fstat(2)}): fill {@code stat}, which
     * arrives zeroed. Answering {@code -ENOENT} is how a name is found absent.
     *
     * @param path the file's path; null for an unlinked open file (with {@code fi}), as
     *     <b>Paths</b> above says
     * @param stat the attributes to fill (mode with its type bits, size, times, ...)
     * @param fi the open file for an {@code fstat}, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int getattr(String path, Stat stat, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * The target of the symbolic link {@code path} ({@code readlink(2)}).
     *
     * @param path the file's path
     * @param target where to {@link LinkTarget#set set} the target
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int readlink(String path, LinkTarget target) throws IOException { return -Errno.ENOSYS; }

    /**
     * Create a non-directory, non-symlink node ({@code mknod(2)}): a FIFO, socket, device or
     * regular file; also the file of an {@code open} with {@code O_CREAT} where {@link #create}
     * is not implemented.
     *
     * @param path the path to create
     * @param mode the file type bits ({@link Posix#S_IFREG}, S_IFIFO, S_IFCHR, ...) and the permissions,
     *     the caller's umask applied (unless {@link ConnectionInfo#CAP_DONT_MASK})
     * @param rdev the device number, for a character or block device
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int mknod(String path, int mode, long rdev) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code mkdir(2)}: create a directory.
     *
     * @param path the path to create
     * @param mode the permissions, the caller's umask applied (unless {@link ConnectionInfo#CAP_DONT_MASK});
     *     may lack the S_IFDIR bit
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int mkdir(String path, int mode) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code unlink(2)}: remove a non-directory name. Open files stay usable (see
     * {@code hard_remove} in the package documentation).
     *
     * @param path the path to remove
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int unlink(String path) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code rmdir(2)}: remove an empty directory.
     *
     * @param path the path to remove
     * @return 0, or a negative errno: -ENOTEMPTY if it has entries
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int rmdir(String path) throws IOException { return -Errno.ENOSYS; }

    /**
     * Create the symbolic link {@code linkPath} pointing at {@code target} ({@code symlink(2)}).
     *
     * @param target the link's content, kept as given: any string, not necessarily a path of this mount
     * @param linkPath the path of the link to create
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int symlink(String target, String linkPath) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code rename(2)} and {@code renameat2(2)}: move {@code from} to {@code to}, replacing what
     * is there.
     *
     * @param from the existing path
     * @param to the new path
     * @param flags 0, or {@link Posix#RENAME_NOREPLACE} or {@link Posix#RENAME_EXCHANGE}; answer
     *     -EINVAL to flags you do not support
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int rename(String from, String to, int flags) throws IOException { return -Errno.ENOSYS; }

    /**
     * Create the hard link {@code to} for {@code from} ({@code link(2)}).
     *
     * @param from the existing file's path
     * @param to the new name's path
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int link(String from, String to) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code chmod(2)}/{@code fchmod(2)}: change the permission bits.
     *
     * @param path the file's path; null, with {@code fi}, for an unlinked open file, as
     *     <b>Paths</b> above says
     * @param mode the permission bits (and possibly the type bits, to be ignored)
     * @param fi the open file for {@code fchmod}, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int chmod(String path, int mode, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code chown(2)}/{@code fchown(2)}: change the owner, the group or both.
     *
     * @param path the file's path; null, with {@code fi}, for an unlinked open file, as
     *     <b>Paths</b> above says
     * @param uid the new owner, or -1 to keep it
     * @param gid the new group, or -1 to keep it
     * @param fi the open file for {@code fchown}, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int chown(String path, int uid, int gid, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code truncate(2)}/{@code ftruncate(2)}: change the size. {@code O_TRUNC} on open arrives
     * in {@link #open} instead.
     *
     * @param path the file's path; null, with {@code fi}, for an unlinked open file, as
     *     <b>Paths</b> above says
     * @param size the new size in bytes: data past it is dropped, a larger size reads as zeros
     * @param fi the open file for {@code ftruncate}, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int truncate(String path, long size, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Open a file. {@link FileInfo#flags()} holds the open flags (without O_CREAT/O_EXCL/O_NOCTTY);
     * with libfuse 3, O_TRUNC is passed here too and the file must be truncated by this call.
     * Set {@link FileInfo#setFh} to find the file again in read/write/release, and the other
     * setters of {@link FileInfo} for how the kernel caches it. The default opens everything.
     *
     * @param path the path of the file to open
     * @param fi the open file to set up, with the flags
     * @return 0, or a negative errno (-EACCES, -ENOENT, ...) that open(2) returns
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int open(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * Read {@code buffer.remaining()} bytes at {@code offset} into {@code buffer} (libfuse's memory)
     * and return the count. Return exactly that many except at end of file or on error: a shorter
     * count tells the kernel the rest of the request reads as zeros (unless the file was opened
     * with {@link FileInfo#setDirectIo direct I/O}, where a short count is a short read).
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param buffer where to put the data, from its position
     * @param offset the file offset in bytes to read from
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return the count of bytes read (0 at or past the end of the file), or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int read(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Write {@code buffer}'s bytes (read-only libfuse memory) at {@code offset}; return the count
     * written, which must be all of them except on error (unless with direct I/O).
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param buffer the data, from its position to its limit
     * @param offset the file offset in bytes to write at
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return the count of bytes written, or a negative errno (-ENOSPC, ...)
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int write(String path, ByteBuffer buffer, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code statvfs(2)} of the filesystem: its sizes and free space.
     *
     * @param path the path {@code statvfs} was called on (any file of the mount)
     * @param stat the fields to fill (block size, block and inode counts, name length, ...)
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int statfs(String path, StatVfs stat) throws IOException { return -Errno.ENOSYS; }

    /**
     * Called on each {@code close(2)} of a file descriptor (possibly several per open, one per
     * {@code dup}): a place to report a write error while the caller still listens.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set;
     *     {@link FileInfo#lockOwner()} names the closing owner
     * @return 0, or a negative errno, which close(2) returns
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int flush(String path, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * The last reference to an open file is gone (every descriptor closed, every mapping
     * unmapped): free what open set up. Called once per successful open or create.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return 0, or a negative errno, which the kernel ignores
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int release(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * {@code fsync(2)}, or {@code fdatasync(2)} when {@code dataOnly}: make the open file's data (and metadata) durable.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param dataOnly whether only the data (and what reading it needs, such as the size) must be durable
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int fsync(String path, boolean dataOnly, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code setxattr(2)}: set an extended attribute.
     *
     * @param path the file's path
     * @param name the attribute's name, with its namespace ({@code user.comment})
     * @param value the attribute's value (read-only libfuse memory), possibly empty
     * @param flags 0, {@link Posix#XATTR_CREATE} (fail with -EEXIST if it exists) or
     *     {@link Posix#XATTR_REPLACE} (fail with -ENODATA if it does not)
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int setxattr(String path, String name, ByteBuffer value, int flags) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code getxattr(2)}: with {@code value.capacity() == 0} return the value's size; otherwise copy it
     * into {@code value} and return its size, or -ERANGE if it does not fit.
     *
     * @param path the file's path
     * @param name the attribute's name, with its namespace
     * @param value where to copy the value (libfuse's memory), or an empty buffer to ask its size
     * @return the value's size in bytes, or a negative errno: -ENODATA if there is no such
     *     attribute, -ERANGE if it does not fit
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int getxattr(String path, String name, ByteBuffer value) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code listxattr(2)}: add each attribute's name to {@code names}; sizes and ERANGE are handled for you.
     *
     * @param path the file's path
     * @param names where to add the names
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int listxattr(String path, XattrNames names) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code removexattr(2)}: remove an extended attribute.
     *
     * @param path the file's path
     * @param name the attribute's name, with its namespace
     * @return 0, or a negative errno: -ENODATA if there is no such attribute
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int removexattr(String path, String name) throws IOException { return -Errno.ENOSYS; }

    /**
     * Open a directory for listing; set {@link FileInfo#setFh} to find it again in readdir and
     * releasedir. The default opens every directory.
     *
     * @param path the directory's path
     * @param fi the open directory to set up
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int opendir(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * List a directory. Add entries with {@link DirFiller}; stop when it returns {@code true}
     * (the kernel's buffer is full) and continue from the offset you gave the last accepted
     * entry on the next call. Entries given with attributes make {@code ls -l} need no getattr
     * per entry (readdirplus), when {@code flags} has {@link DirFiller#READDIR_PLUS}.
     *
     * @param path the directory's path; null for a removed open directory, as <b>Paths</b> above says
     * @param filler where to add the entries ("." and ".." too, for a listing that shows them)
     * @param offset 0 to start, else the offset given with the last entry accepted (offset mode of
     *     {@link DirFiller})
     * @param fi the open directory: {@link FileInfo#fh()} is what opendir set
     * @param flags {@link DirFiller#READDIR_PLUS} when the kernel asked for attributes, else 0
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException { return -Errno.ENOSYS; }

    /**
     * The last reference to an open directory is gone: free what opendir set up.
     *
     * @param path the directory's path; null for a removed open directory, as <b>Paths</b> above says
     * @param fi the open directory
     * @return 0, or a negative errno, which the kernel ignores
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int releasedir(String path, FileInfo fi) throws IOException { return 0; }

    /**
     * {@code fsync(2)} on an open directory: make its entries durable ({@code dataOnly} as in {@link #fsync}).
     *
     * @param path the directory's path; null for a removed open directory, as <b>Paths</b> above says
     * @param dataOnly whether {@code fdatasync(2)} was called
     * @param fi the open directory
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int fsyncdir(String path, boolean dataOnly, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * The connection is set up: {@code connection} and {@code config} show what the kernel and
     * libfuse agreed on for this mount, {@link MountOptions} and {@link #kernelSettings()}
     * applied (settings are made there, not here), so a filesystem can adapt to what it got (a
     * capability the kernel did not offer, a smaller read size). Runs once, before any other
     * operation.
     *
     * @param connection the connection's capabilities and limits, to read during this call
     * @param config libfuse's path-layer settings, to read during this call
     * @throws IOException to fail the mount ({@link Fuse#mount} then throws), as does any other exception
     */
    default void init(ConnectionInfo connection, FuseConfig config) throws IOException {}

    /**
     * The filesystem is being unmounted; called once, after the last operation.
     *
     * @throws IOException logged; the unmount goes on
     */
    default void destroy() throws IOException {}

    /**
     * {@code access(2)}: whether the caller ({@link FuseContext#current()}) may use {@code path}
     * as {@code mask} asks. Not called with {@code default_permissions}.
     *
     * @param path the file's path
     * @param mask {@link Posix#F_OK} (exists), or R_OK, W_OK and X_OK combined
     * @return 0 if allowed, or a negative errno: -EACCES if not
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int access(String path, int mask) throws IOException { return -Errno.ENOSYS; }

    /**
     * Create and open a regular file ({@code open} with {@code O_CREAT}); {@link FileInfo#flags()}
     * holds the open flags. Set up {@code fi} as {@link #open} does.
     *
     * @param path the path to create
     * @param mode the file type bits and permissions, the caller's umask applied (unless
     *     {@link ConnectionInfo#CAP_DONT_MASK})
     * @param fi the open file to set up, with the flags
     * @return 0, or a negative errno (-EEXIST for O_EXCL and an existing file, ...)
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int create(String path, int mode, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * POSIX record locks ({@code fcntl(2)}). Absent, the kernel keeps locks locally.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set;
     *     {@link FileInfo#lockOwner()} names the lock's owner
     * @param cmd {@link Posix#F_GETLK} (fill {@code lock} with a lock that conflicts, or set its type
     *     to F_UNLCK), F_SETLK (take or release, failing at once) or F_SETLKW (waiting)
     * @param lock the lock asked about or for: type, range, pid
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int lock(String path, FileInfo fi, int cmd, Flock lock) throws IOException { return -Errno.ENOSYS; }

    /**
     * Change access and modification times ({@code utimensat(2)}, {@code futimens(2)}).
     *
     * @param path the file's path; null, with {@code fi}, for an unlinked open file, as
     *     <b>Paths</b> above says
     * @param atime the new access time; {@link Timespec#isNow()}: now, {@link Timespec#isOmit()}: keep it
     * @param mtime the new modification time, likewise
     * @param fi the open file for {@code futimens}, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Map a block index to a device block ({@code FIBMAP}). The kernel only sends this to
     * block-device-backed mounts ({@code fuseblk}), never to an ordinary FUSE mount.
     *
     * @param path the file's path
     * @param blockSize the block size in bytes that {@code index} counts
     * @param index the block's index within the file
     * @return the device block, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default long bmap(String path, long blockSize, long index) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code ioctl(2)} on an open file (or directory with {@link ConnectionInfo#CAP_IOCTL_DIR}).
     * {@code data} has the size encoded in {@code cmd} ({@code _IOC_SIZE}), holds the input for
     * {@code _IOW} commands and receives the output of {@code _IOR} ones; it is null for commands
     * that carry no data. {@code arg} is the caller's raw argument.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param cmd the command, with its direction and size encoded
     * @param arg the caller's argument itself (a number, or an address in the caller that is of no use here)
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @param flags FUSE_IOCTL_* bits: 1 (FUSE_IOCTL_COMPAT) for a 32-bit caller, 16 (FUSE_IOCTL_DIR) on a directory
     * @param data the command's data (libfuse's memory), or null
     * @return the result {@code ioctl(2)} returns, 0 or more, or a negative errno: -ENOTTY for a
     *     command the file does not know
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int ioctl(String path, int cmd, long arg, FileInfo fi, int flags, ByteBuffer data) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code poll(2)}: return the ready events ({@link Posix#POLLIN}, ...) or a negative errno.
     * If {@code handle} is non-null and you will report readiness later, call
     * {@link PollHandle#retain()} and later {@link PollHandle#notifyReady()}.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set;
     *     {@link FileInfo#pollEvents()} holds the events asked about
     * @param handle the kernel's wish to be told of a change, or null
     * @return the ready events, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int poll(String path, FileInfo fi, PollHandle handle) throws IOException { return -Errno.ENOSYS; }

    /**
     * Like {@link #write}, with the data possibly still in a pipe: see {@link WriteBuffer}. Copy
     * it during the call.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param data the data, to copy once
     * @param offset the file offset in bytes to write at
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return the count of bytes written, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * Like {@link #read}, answering with a file range or memory through {@link ReadReply}: lets
     * data bypass the JVM. An answer left unset reads as the end of the file.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param reply where to give the data, once
     * @param size the most bytes to answer
     * @param offset the file offset in bytes to read from
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return 0 (or any count: the reply holds the data), or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * BSD {@code flock(2)}. Absent, the kernel keeps flocks locally.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set;
     *     {@link FileInfo#lockOwner()} names the lock's owner
     * @param operation LOCK_SH, LOCK_EX or LOCK_UN ({@link Posix#LOCK_SH}, ...), possibly with LOCK_NB
     * @return 0, or a negative errno: -EWOULDBLOCK for a conflict with LOCK_NB
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int flock(String path, FileInfo fi, int operation) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code fallocate(2)}: allocate, free or zero a range of the open file.
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param mode 0 (allocate, growing the file), or FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, ...
     *     ({@link Posix#FALLOC_FL_KEEP_SIZE}); answer -EOPNOTSUPP to modes you do not support
     * @param offset the range's start in bytes
     * @param length the range's length in bytes
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int fallocate(String path, int mode, long offset, long length, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code copy_file_range(2)} between two open files of this mount. Absent, the kernel copies
     * by reading and writing.
     *
     * @param pathIn the source's path; null for an unlinked open file
     * @param fiIn the open source file
     * @param offsetIn the offset in bytes to copy from
     * @param pathOut the destination's path; null for an unlinked open file
     * @param fiOut the open destination file
     * @param offsetOut the offset in bytes to copy to
     * @param size the most bytes to copy
     * @param flags the caller's flags (0 so far)
     * @return the count of bytes copied (fewer than {@code size} at the end of the source), or a
     *     negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn,
                               String pathOut, FileInfo fiOut, long offsetOut, long size, int flags) throws IOException {
        return -Errno.ENOSYS;
    }

    /**
     * {@code lseek(2)} for SEEK_DATA and SEEK_HOLE (the kernel handles the other whences).
     *
     * @param path the file's path; null for an unlinked open file, as <b>Paths</b> above says
     * @param offset where to look from, in bytes
     * @param whence {@link Posix#SEEK_DATA} or SEEK_HOLE
     * @param fi the open file: {@link FileInfo#fh()} is what open or create set
     * @return the offset of the next data or hole at or after {@code offset}, or a negative errno:
     *     -ENXIO past the end of the file (or, for SEEK_DATA, past the last data)
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default long lseek(String path, long offset, int whence, FileInfo fi) throws IOException { return -Errno.ENOSYS; }

    /**
     * {@code statx(2)} beyond what {@link #getattr} answers ({@code mask} has {@code STATX_BTIME}
     * or other bits past {@code STATX_BASIC_STATS}): fill what the filesystem knows and set those
     * bits of {@link Statx#setMask}. libfuse 3.18 and later; without it (or on earlier releases,
     * where it is not registered) the kernel answers from getattr, without the birth time.
     *
     * @param path the file's path; null, with {@code fi}, for an unlinked open file, as
     *     <b>Paths</b> above says
     * @param flags the caller's {@code AT_STATX_*} flags (how fresh the answer must be)
     * @param mask the {@code STATX_*} fields asked for
     * @param statx the fields to fill, with their mask
     * @param fi the open file, else null
     * @return 0, or a negative errno
     * @throws IOException to fail with the errno it maps to (see <b>Results</b> above)
     */
    default int statx(String path, int flags, int mask, Statx statx, FileInfo fi) throws IOException { return -Errno.ENOSYS; }
}
