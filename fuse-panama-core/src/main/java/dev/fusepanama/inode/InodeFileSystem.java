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
 * for some stops asking (a filesystem without {@code flock} gets local locks). One
 * {@link #readdir} serves both kinds of listing. Methods are called on libfuse's worker threads, several
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

    /**
     * What counts the kernel's lookups of this filesystem's inodes, if the library is to count
     * them ({@link LookupCounter}; a {@link dev.fusepanama.inode.table.NodeTable} is one): asked
     * once, at mount. Then every entry the filesystem sends is counted for it, an entry the kernel
     * did not take is taken back, and {@link #forget} is never called (a filesystem that
     * overrides it as well does not mount). Null, the default, leaves the counting to
     * {@link #forget}: for a filesystem whose numbers never change (a fixed tree) or that keeps
     * its own table.
     *
     * @return the counter, or null
     */
    default LookupCounter lookups() {
        return null;
    }

    /**
     * The session is set up; {@code connection} shows what the kernel and libfuse agreed on, the
     * filesystem's {@link #kernelSettings()} and the {@link dev.fusepanama.MountOptions} applied.
     * Runs once, before any other operation.
     *
     * @param connection the connection's capabilities and limits, to read during this call
     * @throws IOException to fail the mount, as does any other exception
     */
    default void init(ConnectionInfo connection) throws IOException {}

    /**
     * The session ends; called once, after the last operation.
     *
     * @throws IOException logged; the unmount goes on
     */
    default void destroy() throws IOException {}

    /**
     * The inode of {@code name} in directory {@code parent}: an entry, or ENOENT / {@link EntryReply#noEntry}.
     * A successful entry adds one to the inode's lookup count ({@link #lookups()}). A filesystem
     * with a counter may be asked again for the same request, if the node it answered with was
     * dropped before the library could count it.
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the entry's name, valid during the call
     * @param reply where to answer: {@link EntryReply#entry}, {@link EntryReply#noEntry} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The kernel drops {@code lookups} of the inode's lookup count; at zero, it will not use the
     * number again until an entry names it anew, and a file without names can be freed. No
     * reply; called for each inode of the kernel's batches too. Not called at unmount for what
     * the kernel still holds: {@link #destroy} ends them all. What it throws is logged. Never
     * called for a filesystem with a {@link #lookups()} counter, which gets the forgets instead.
     *
     * @param ino the inode's number
     * @param lookups how many of its lookups the kernel drops, at least 1
     */
    default void forget(long ino, long lookups) {}

    /**
     * The inode's attributes ({@code stat(2)}, {@code fstat(2)}).
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the open file of an {@code fstat}, else {@link #NO_HANDLE}
     * @param reply where to answer: fill {@link AttrReply#attributes()}, then {@link AttrReply#send}
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Changes the attributes that {@code toSet} names ({@link #SET_MODE}, {@link #SET_SIZE}, ...)
     * to their values in {@code attributes} (chmod, chown, truncate, utimens), and answers with
     * all of the inode's attributes. {@code fh} is the open file of an ftruncate and the like,
     * else {@link #NO_HANDLE}.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param attributes the new values, of which only those {@code toSet} names count (valid during the call)
     * @param toSet the {@code SET_*} bits of what to change
     * @param fh the open file of an f-call ({@code ftruncate}, {@code fchmod}, ...), else {@link #NO_HANDLE}
     * @param reply where to answer: fill {@link AttrReply#attributes()} with the attributes after the
     *     change, then {@link AttrReply#send}
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The target of the symbolic link {@code ino} ({@code readlink(2)}).
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param reply where to answer: {@link ReadlinkReply#target} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void readlink(Request request, long ino, ReadlinkReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates a file of any type ({@code mode}'s type bits): regular, FIFO, socket, device ({@code rdev}).
     * The kernel sends it for {@code mknod(2)}, and for an {@code open} with {@code O_CREAT} where
     * {@link #create} is not implemented.
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the new entry's name, valid during the call
     * @param mode the file type bits and permissions, the caller's umask applied (unless
     *     {@link ConnectionInfo#CAP_DONT_MASK})
     * @param rdev the device number, for a character or block device
     * @param reply where to answer: the new inode's {@link EntryReply#entry}, or an error (EEXIST, ...)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates a directory; {@code mode} has no type bits (they are S_IFDIR).
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the new directory's name, valid during the call
     * @param mode the permissions, the caller's umask applied (unless {@link ConnectionInfo#CAP_DONT_MASK})
     * @param reply where to answer: the new directory's {@link EntryReply#entry}, or an error (EEXIST, ...)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Removes a name; the inode lives on while it has other names, a lookup count or open handles.
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the name to remove, not a directory's, valid during the call
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Removes the name of an empty directory ({@code rmdir(2)}); ENOTEMPTY if it has entries. The
     * inode lives on while the kernel holds a lookup of it or it is open.
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the directory's name, valid during the call
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates a symbolic link {@code name} to {@code target} (bytes, not NUL-terminated).
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the link's name, valid during the call
     * @param target the link's content, kept as given: any bytes but NUL, not necessarily a path of this mount
     * @param reply where to answer: the new link's {@link EntryReply#entry}, or an error (EEXIST, ...)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Renames; {@code flags} are renameat2(2)'s ({@link dev.fusepanama.Posix#RENAME_NOREPLACE},
     * RENAME_EXCHANGE), 0 for rename(2). A replaced file keeps living while it is looked up or open.
     *
     * @param request who asks, valid during the call
     * @param parent the directory {@code name} is in
     * @param name the name to move, valid during the call
     * @param newParent the directory to move it to
     * @param newName its new name there, valid during the call
     * @param flags 0, RENAME_NOREPLACE (EEXIST if {@code newName} exists) or RENAME_EXCHANGE (swap the
     *     two); answer EINVAL to flags you do not support
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void rename(Request request, long parent, Name name, long newParent, Name newName, int flags,
            EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * A new name {@code newName} in {@code newParent} for the inode {@code ino} ({@code link(2)}).
     *
     * @param request who asks, valid during the call
     * @param ino the existing file's inode number
     * @param newParent the directory of the new name
     * @param newName the new name, valid during the call
     * @param reply where to answer: the inode's {@link EntryReply#entry} (one lookup more), or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Opens a file; {@code flags} are open(2)'s (without O_CREAT, O_EXCL and O_NOCTTY).
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param flags the open flags: access mode, O_APPEND, O_TRUNC (the filesystem truncates where
     *     {@link ConnectionInfo#CAP_ATOMIC_O_TRUNC} is on), ...
     * @param reply where to answer: {@link OpenReply#open} with a handle, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Up to {@code size} bytes at {@code offset} of the open file {@code fh}; fewer at the end of the file.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param size the most bytes to answer
     * @param offset the file offset in bytes to read from
     * @param reply where to answer: {@link DataReply#data} (fewer bytes than {@code size} mean the end
     *     of the file, unless with direct I/O), or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Writes {@code data} (read-only, valid during the call) at {@code offset}; answers the count
     * written, all of it unless the file was opened with direct I/O.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param data the bytes to write, from its position to its limit
     * @param offset the file offset in bytes to write at
     * @param reply where to answer: {@link WriteReply#written}, or an error (ENOSPC, ...)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Called at each close(2) of a descriptor of the open file; {@code lockOwner} identifies its
     * POSIX locks. An error answered here is what close(2) returns.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param lockOwner the closing owner's lock identity
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The last reference to the open file {@code fh} is gone; the kernel ignores the answer's errno.
     * Called once per successful open or create.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param flags the flags the file was opened with
     * @param reply where to answer: {@link EmptyReply#ok()} (the default)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void release(Request request, long ino, long fh, int flags, EmptyReply reply) throws IOException {
        reply.ok();
    }

    /**
     * {@code fsync(2)}, or {@code fdatasync(2)} when {@code dataOnly}: make the open file's data
     * (and metadata) durable.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param dataOnly whether only the data (and what reading it needs, such as the size) must be durable
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Opens a directory for listing ({@code opendir(3)}). Not called with
     * {@link KernelSettings.Builder#noOpendir}.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param flags the open flags
     * @param reply where to answer: {@link OpenReply#open} with a handle (and {@link OpenReply#CACHE_DIR}
     *     to let the kernel keep the listing), or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * A batch of entries of the open directory {@code fh}, continuing after the entry whose
     * {@code nextOffset} was {@code offset} (0: from the start), at most {@code size} bytes: the
     * one listing call for the kernel's READDIR and READDIRPLUS ({@link DirReply#plus()} says
     * which). A filesystem that overrides it gets both; one that wants the kernel never to ask
     * for attributes with a listing unwants {@link dev.fusepanama.ConnectionInfo#CAP_READDIRPLUS}
     * in its {@link #kernelSettings()}.
     *
     * @param request who asks, valid during the call
     * @param ino the directory's inode number
     * @param fh the handle opendir answered (0 with {@link KernelSettings.Builder#noOpendir})
     * @param size the most bytes the kernel takes; the reply's {@link DirReply#add} says when it is full
     * @param offset 0 to start, else the {@code nextOffset} of the last entry sent
     * @param reply where to answer: {@link DirReply#add} entries, then {@link DirReply#send} (an empty
     *     batch ends the listing)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The last reference to the open directory {@code fh} is gone; the kernel ignores the
     * answer's errno.
     *
     * @param request who asks, valid during the call
     * @param ino the directory's inode number
     * @param fh the handle opendir answered
     * @param reply where to answer: {@link EmptyReply#ok()} (the default)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void releasedir(Request request, long ino, long fh, EmptyReply reply) throws IOException {
        reply.ok();
    }

    /**
     * {@code fsync(2)} on an open directory: make its entries durable.
     *
     * @param request who asks, valid during the call
     * @param ino the directory's inode number
     * @param fh the handle opendir answered (0 with {@link KernelSettings.Builder#noOpendir})
     * @param dataOnly whether {@code fdatasync(2)} was called
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * {@code statvfs(2)} of the filesystem: its sizes and free space.
     *
     * @param request who asks, valid during the call
     * @param ino the inode {@code statvfs} was called on (any file of the mount)
     * @param reply where to answer: fill {@link StatfsReply#statvfs()}, then {@link StatfsReply#send()}
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void statfs(Request request, long ino, StatfsReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Sets an extended attribute; {@code flags} are XATTR_CREATE or XATTR_REPLACE, or 0.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param name the attribute's name, with its namespace ({@code user.comment}), valid during the call
     * @param value the attribute's value (read-only, valid during the call), possibly empty
     * @param flags 0, XATTR_CREATE (EEXIST if it exists) or XATTR_REPLACE (ENODATA if it does not)
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * An extended attribute's value: its size when {@code size} is 0, else the value or ERANGE; ENODATA if none.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param name the attribute's name, with its namespace, valid during the call
     * @param size 0 to ask the value's size, else the most bytes the caller takes
     * @param reply where to answer: {@link XattrReply#size} when {@code size} is 0, else
     *     {@link XattrReply#data}; or an error (ENODATA, ERANGE)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The names of the extended attributes, each followed by a NUL: their total size when {@code size}
     * is 0, else them or ERANGE.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param size 0 to ask the list's size, else the most bytes the caller takes
     * @param reply where to answer: {@link XattrReply#size} when {@code size} is 0, else
     *     {@link XattrReply#data}; or an error (ERANGE)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Removes an extended attribute ({@code removexattr(2)}); ENODATA if there is none of that name.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param name the attribute's name, with its namespace, valid during the call
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * access(2): whether the caller may {@code mask} (R_OK, W_OK, X_OK, F_OK); not called with {@code defaultPermissions}.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param mask {@link dev.fusepanama.Posix#F_OK} (exists), or R_OK, W_OK and X_OK combined
     * @param reply where to answer: {@link EmptyReply#ok()} if allowed, else an error (EACCES)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void access(Request request, long ino, int mask, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * Creates and opens a regular file (open with O_CREAT); without it the kernel uses mknod and
     * open. {@code mode} carries S_IFREG.
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number
     * @param name the new file's name, valid during the call
     * @param mode S_IFREG and the permissions, the caller's umask applied (unless
     *     {@link ConnectionInfo#CAP_DONT_MASK})
     * @param flags the open flags (with O_EXCL, an existing name is EEXIST)
     * @param reply where to answer: {@link CreateReply#created} with the new inode and a handle, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * F_GETLK: the lock that would block {@code lock}, or {@code lock} with type F_UNLCK. Implement with {@link #setlk}.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param lockOwner the asking owner's lock identity (its own locks never block it)
     * @param lock the lock asked about: type, range, pid (valid during the call)
     * @param reply where to answer: {@link LockReply#lock}, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void getlk(Request request, long ino, long fh, long lockOwner, Flock lock, LockReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * F_SETLK, or F_SETLKW with {@code sleep}: take or release a POSIX record lock. Implement with {@link #getlk}.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param lockOwner the owner of the lock
     * @param lock the lock to take (F_RDLCK, F_WRLCK) or release (F_UNLCK): type and range (valid
     *     during the call)
     * @param sleep whether to wait for a conflicting lock to go (F_SETLKW) rather than fail (EAGAIN)
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void setlk(Request request, long ino, long fh, long lockOwner, Flock lock, boolean sleep, EmptyReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * flock(2): {@code operation} is LOCK_SH, LOCK_EX or LOCK_UN, with LOCK_NB.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param operation {@link dev.fusepanama.Posix#LOCK_SH}, LOCK_EX or LOCK_UN, possibly with LOCK_NB
     * @param reply where to answer: {@link EmptyReply#ok()}, or an error (EWOULDBLOCK for a conflict
     *     with LOCK_NB)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void flock(Request request, long ino, long fh, int operation, EmptyReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * fallocate(2): {@code mode} 0 allocates, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE frees, ...
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param mode 0 or FALLOC_FL_* bits ({@link dev.fusepanama.Posix#FALLOC_FL_KEEP_SIZE}, ...); answer
     *     EOPNOTSUPP to modes you do not support
     * @param offset the range's start in bytes
     * @param length the range's length in bytes
     * @param reply where to answer: {@link EmptyReply#ok()} or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * copy_file_range(2) between two open files; answers the count copied. Absent, the kernel
     * copies by reading and writing.
     *
     * @param request who asks, valid during the call
     * @param inoIn the source's inode number
     * @param fhIn the source's handle
     * @param offsetIn the offset in bytes to copy from
     * @param inoOut the destination's inode number
     * @param fhOut the destination's handle
     * @param offsetOut the offset in bytes to copy to
     * @param length the most bytes to copy
     * @param flags the caller's flags (0 so far)
     * @param reply where to answer: {@link WriteReply#written} (fewer than {@code length} at the end of
     *     the source), or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * The device block of the file's block {@code index} (FIBMAP). The kernel asks only on a
     * mount backed by a block device (the {@code blkdev} option with {@code fsName} naming it,
     * root only); elsewhere it answers FIBMAP itself.
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param blockSize the block size in bytes that {@code index} counts
     * @param index the block's index within the file
     * @param reply where to answer: {@link BmapReply#block}, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
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
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or opendir answered
     * @param cmd the command, with its direction and size encoded
     * @param arg the caller's argument itself
     * @param flags FUSE_IOCTL_* bits: 1 (FUSE_IOCTL_COMPAT) for a 32-bit caller, 16 (FUSE_IOCTL_DIR) on a directory
     * @param in the caller's input, empty for a command that sends none (read-only, valid during the call)
     * @param outSize the most bytes the caller takes back
     * @param reply where to answer: {@link IoctlReply#result}, with the output for a command that reads
     *     data back, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
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
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param events the events asked about ({@link dev.fusepanama.Posix#POLLIN}, ...)
     * @param handle the kernel's wish to be told of a change, or null
     * @param reply where to answer: {@link PollReply#events} with the ready ones, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
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
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param data the data, to copy once during the call
     * @param offset the file offset in bytes to write at
     * @param reply where to answer: {@link WriteReply#written}, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void writeBuf(Request request, long ino, long fh, WriteBuffer data, long offset, WriteReply reply)
            throws IOException {
        reply.error(Errno.ENOSYS);
    }

    /**
     * lseek(2) with SEEK_DATA or SEEK_HOLE (the kernel answers the other kinds itself).
     *
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the handle open or create answered
     * @param offset where to look from, in bytes
     * @param whence {@link dev.fusepanama.Posix#SEEK_DATA} or SEEK_HOLE
     * @param reply where to answer: {@link LseekReply#offset} of the next data or hole at or after
     *     {@code offset}, or an error (ENXIO past the end of the file, or for SEEK_DATA past the last data)
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
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
     *
     * @param request who asks, valid during the call
     * @param parent the directory's inode number the file is made in
     * @param mode S_IFREG and the permissions
     * @param flags the open flags (with O_TMPFILE)
     * @param reply where to answer: {@link CreateReply#created} with the new inode and a handle, or an error
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
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
     * @param request who asks, valid during the call
     * @param ino the inode's number
     * @param fh the open file's handle, or {@link #NO_HANDLE}
     * @param flags the caller's {@code AT_STATX_*} flags (how fresh the answer must be)
     * @param mask the {@code STATX_*} fields asked for
     * @param reply where to answer: fill {@link StatxReply#attributes()}, its mask saying what is filled,
     *     then {@link StatxReply#send}
     * @throws IOException to fail: {@code reply} is answered with the errno it maps to, unless
     *     already answered or deferred
     */
    default void statx(Request request, long ino, long fh, int flags, int mask, StatxReply reply) throws IOException {
        reply.error(Errno.ENOSYS);
    }
}
