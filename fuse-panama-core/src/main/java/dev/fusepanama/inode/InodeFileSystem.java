package dev.fusepanama.inode;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.Errno;
import dev.fusepanama.Flock;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Stat;
import dev.fusepanama.WriteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What an inode-based filesystem implements (see the package documentation). Only the methods
 * a filesystem overrides are registered with libfuse: the kernel gets ENOSYS for the rest, and
 * for some stops asking (a filesystem without {@code flock} gets local locks, one without
 * {@code readdirplus} plain readdir). Methods are called on libfuse's worker threads, several
 * at a time; each answers through its reply, exactly once (see {@link Reply}).
 *
 * <p>Arguments: {@code ino} and {@code parent} are inode numbers the filesystem handed out in an
 * entry; {@code fh} is the handle it gave in open, opendir or create; a {@link Name} and the
 * {@link Request} are valid during the call only. Modes carry the file type bits ({@link
 * dev.fusepanama.Posix#S_IFREG} | 0644), flags are open(2)'s.
 */
public interface InodeFileSystem {
    /** The root directory's inode number. */
    long ROOT = 1;
    /** {@code fh} of a {@link #getattr} that names no open file. */
    long NO_HANDLE = -1;

    /** {@link #setattr} changes the mode. */
    int SET_MODE = 1;
    /** {@link #setattr} changes the owner. */
    int SET_UID = 1 << 1;
    /** {@link #setattr} changes the group. */
    int SET_GID = 1 << 2;
    /** {@link #setattr} changes the size (truncate). */
    int SET_SIZE = 1 << 3;
    /** {@link #setattr} sets the access time to the attributes' atime. */
    int SET_ATIME = 1 << 4;
    /** {@link #setattr} sets the modification time to the attributes' mtime. */
    int SET_MTIME = 1 << 5;
    /** {@link #setattr} sets the access time to now (with {@link #SET_ATIME}). */
    int SET_ATIME_NOW = 1 << 7;
    /** {@link #setattr} sets the modification time to now (with {@link #SET_MTIME}). */
    int SET_MTIME_NOW = 1 << 8;
    /** {@link #setattr} sets the change time to the attributes' ctime. */
    int SET_CTIME = 1 << 10;

    /**
     * What the kernel may cache or decide for this filesystem by itself ({@link KernelSettings}):
     * asked once, at mount, and fixed for the mount's life. Each setting is a promise about the
     * filesystem's behaviour, so the default promises nothing beyond
     * {@link KernelSettings#DEFAULTS}; a decorator delegates it with the operations it forwards,
     * and {@link ForwardingInodeFileSystem#withKernelSettings} mounts a filesystem with others.
     *
     * @return the settings, never null
     */
    default KernelSettings kernelSettings() {
        return KernelSettings.DEFAULTS;
    }

    /** The session is set up; {@code connection} shows what the kernel and libfuse agreed on. */
    default void init(ConnectionInfo connection) throws IOException {}

    /** The session ends; called once, after the last operation. */
    default void destroy() throws IOException {}

    /** The inode of {@code name} in directory {@code parent}: an entry, or ENOENT / {@link EntryReply#noEntry}. */
    default void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The kernel drops {@code lookups} of the inode's lookup count; at zero, it will not use the
     * number again until an entry names it anew, and a file without names can be freed. No
     * reply; called for each inode of the kernel's batches too. Not called at unmount for what
     * the kernel still holds: {@link #destroy} ends them all.
     */
    default void forget(long ino, long lookups) {}

    /** The inode's attributes; {@code fh} is the open file of an fstat, else {@link #NO_HANDLE}. */
    default void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Changes the attributes that {@code toSet} names ({@link #SET_MODE}, {@link #SET_SIZE}, ...)
     * to their values in {@code attributes} (chmod, chown, truncate, utimens), and answers with
     * all of the inode's attributes. {@code fh} is the open file of an ftruncate and the like,
     * else {@link #NO_HANDLE}.
     */
    default void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Creates a file of any type ({@code mode}'s type bits): regular, FIFO, socket, device ({@code rdev}). */
    default void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Creates a directory; {@code mode} has no type bits (they are S_IFDIR). */
    default void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Removes a name; the inode lives on while it has other names, a lookup count or open handles. */
    default void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Creates a symbolic link {@code name} to {@code target} (bytes, not NUL-terminated). */
    default void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Renames; {@code flags} are renameat2(2)'s ({@link dev.fusepanama.Posix#RENAME_NOREPLACE},
     * RENAME_EXCHANGE), 0 for rename(2). A replaced file keeps living while it is looked up or open.
     */
    default void rename(Request request, long parent, Name name, long newParent, Name newName, int flags,
            EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** A new name {@code newName} in {@code newParent} for the inode {@code ino}. */
    default void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Opens a file; {@code flags} are open(2)'s (without O_CREAT, O_EXCL and O_NOCTTY). */
    default void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Up to {@code size} bytes at {@code offset} of the open file {@code fh}; fewer at the end of the file. */
    default void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Writes {@code data} (read-only, valid during the call) at {@code offset}; answers the count
     * written, all of it unless the file was opened with direct I/O.
     */
    default void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Called at each close(2) of a descriptor of the open file; {@code lockOwner} identifies its POSIX locks. */
    default void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** The last reference to the open file {@code fh} is gone; the kernel ignores the answer's errno. */
    default void release(Request request, long ino, long fh, int flags, EmptyReply reply) throws IOException {
        reply.ok();
    }

    default void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * A batch of entries of the open directory {@code fh}, continuing after the entry whose
     * {@code nextOffset} was {@code offset} (0: from the start), at most {@code size} bytes.
     */
    default void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** As {@link #readdir}, with each entry's inode and attributes (see {@link DirPlusReply}). */
    default void readdirplus(Request request, long ino, long fh, long size, long offset, DirPlusReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void releasedir(Request request, long ino, long fh, EmptyReply reply) throws IOException {
        reply.ok();
    }

    default void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** Sets an extended attribute; {@code flags} are XATTR_CREATE or XATTR_REPLACE, or 0. */
    default void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** An extended attribute's value: its size when {@code size} is 0, else the value or ERANGE; ENODATA if none. */
    default void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** The names of the extended attributes, each followed by a NUL: their total size when {@code size} is 0, else them or ERANGE. */
    default void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    default void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** access(2): whether the caller may {@code mask} (R_OK, W_OK, X_OK, F_OK); not called with {@code defaultPermissions}. */
    default void access(Request request, long ino, int mask, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates and opens a regular file (open with O_CREAT); without it the kernel uses mknod and
     * open. {@code mode} carries S_IFREG.
     */
    default void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** F_GETLK: the lock that would block {@code lock}, or {@code lock} with type F_UNLCK. Implement with {@link #setlk}. */
    default void getlk(Request request, long ino, long fh, long lockOwner, Flock lock, LockReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** F_SETLK, or F_SETLKW with {@code sleep}: take or release a POSIX record lock. Implement with {@link #getlk}. */
    default void setlk(Request request, long ino, long fh, long lockOwner, Flock lock, boolean sleep, EmptyReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** flock(2): {@code operation} is LOCK_SH, LOCK_EX or LOCK_UN, with LOCK_NB. */
    default void flock(Request request, long ino, long fh, int operation, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** fallocate(2): {@code mode} 0 allocates, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE frees, ... */
    default void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** copy_file_range(2) between two open files; answers the count copied. */
    default void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The device block of the file's block {@code index} (FIBMAP). The kernel asks only on a
     * mount backed by a block device (the {@code blkdev} option with {@code fsName} naming it,
     * root only); elsewhere it answers FIBMAP itself.
     */
    default void bmap(Request request, long ino, long blockSize, long index, BmapReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * ioctl(2) on an open file, or on a directory when {@link ConnectionInfo#CAP_IOCTL_DIR} is
     * wanted. The kernel passes only commands whose size and direction are encoded in {@code cmd}
     * ({@code _IOR}, {@code _IOW}, {@code _IOWR}, {@code _IO}): {@code in} holds the bytes it
     * copied from the caller (valid during the call only), {@code outSize} is how many it will
     * copy back, and {@code arg} is the caller's argument itself, useful for {@code _IO} commands
     * that take a number. {@code flags} are FUSE_IOCTL_* bits (FUSE_IOCTL_DIR = 16). ENOTTY is
     * the answer for a command the file does not know.
     */
    default void ioctl(Request request, long ino, long fh, int cmd, long arg, int flags, ByteBuffer in, int outSize,
            IoctlReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * poll(2), select(2), epoll: which of {@code events} are ready on the open file. When the
     * kernel wants to be told of a change it passes a {@code handle} (else null): keep it with
     * {@link PollHandle#retain()} and call {@link PollHandle#notifyReady()}
     * once readiness changes, and the kernel polls again. A handle not retained is released when
     * the method returns; a retained one notified after the mount ended does nothing.
     */
    default void poll(Request request, long ino, long fh, int events, PollHandle handle, PollReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Replaces {@link #write} when overridden: the data may still be in the pipe libfuse spliced
     * the request into, so {@link WriteBuffer#copyToFd} can move it into a file
     * without it entering the JVM. Copy it during the call (before deferring the reply matters
     * not: the data is gone when the method returns). Overriding it makes libfuse read every
     * request through a pipe (FUSE_CAP_SPLICE_READ), which costs a system call per request more:
     * worth it for a filesystem whose file data lives in files, not for one that keeps it in memory.
     */
    default void writeBuf(Request request, long ino, long fh, WriteBuffer data, long offset, WriteReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /** lseek(2) with SEEK_DATA or SEEK_HOLE (the kernel answers the other kinds itself). */
    default void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates and opens a file with no name in directory {@code parent} (open with
     * {@code O_TMPFILE}): answer as {@link #create}, with a new inode whose link count is 0 and
     * one lookup counted. Unless opened with {@code O_EXCL}, linkat(2) may give it a name later
     * ({@link #link} of its inode). libfuse 3.17 and later; on earlier releases it is not
     * registered, and the kernel answers {@code O_TMPFILE} with EOPNOTSUPP. An ENOSYS answer
     * makes the kernel stop asking, for the life of the mount.
     */
    default void tmpfile(Request request, long parent, int mode, int flags, CreateReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * statx(2) beyond what {@link #getattr} answers ({@code mask} has {@code STATX_BTIME} or other
     * bits past {@code STATX_BASIC_STATS}; {@code flags} are the caller's {@code AT_STATX_*}):
     * fill what the filesystem knows and set those bits of the reply's mask. libfuse 3.18 and
     * later; without it (or on earlier releases, where it is not registered) the kernel answers
     * from getattr, without the birth time.
     *
     * @param fh the open file's handle, or {@link #NO_HANDLE}
     */
    default void statx(Request request, long ino, long fh, int flags, int mask, StatxReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }
}
