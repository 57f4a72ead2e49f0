package dev.fusepanama;

import dev.fusepanama.libc.Arch;

/**
 * The POSIX and Linux constants that appear in {@link FuseFileSystem} arguments and results:
 * file types and permission bits, open flags, rename/xattr/fallocate flags, lock commands,
 * seek whences, access masks and poll events. Each field is named as its C macro; LayoutTest
 * compiles every name against the platform headers and checks the value.
 */
public final class Posix {
    private Posix() {}

    // sys/stat.h: file types and permission bits (octal, as in C)
    /** The bits of a mode that hold the file type: {@code mode & S_IFMT} is one of the {@code S_IF*} types. */
    public static final int S_IFMT = 0170000;
    /** File type: a socket. */
    public static final int S_IFSOCK = 0140000;
    /** File type: a symbolic link. */
    public static final int S_IFLNK = 0120000;
    /** File type: a regular file. */
    public static final int S_IFREG = 0100000;
    /** File type: a block device. */
    public static final int S_IFBLK = 0060000;
    /** File type: a directory. */
    public static final int S_IFDIR = 0040000;
    /** File type: a character device. */
    public static final int S_IFCHR = 0020000;
    /** File type: a FIFO (named pipe). */
    public static final int S_IFIFO = 0010000;
    /** Set-user-ID: an executable runs with its owner's user id. */
    public static final int S_ISUID = 04000;
    /** Set-group-ID: an executable runs with its group's id; on a directory, new files take its group. */
    public static final int S_ISGID = 02000;
    /** Sticky bit: in a directory, only a file's owner (or the directory's) may remove or rename it. */
    public static final int S_ISVTX = 01000;

    // fcntl.h: open flags
    /** The bits of the open flags that hold the access mode: {@code flags & O_ACCMODE} is O_RDONLY, O_WRONLY or O_RDWR. */
    public static final int O_ACCMODE = 03;
    /** Access mode: open for reading only. */
    public static final int O_RDONLY = 0;
    /** Access mode: open for writing only. */
    public static final int O_WRONLY = 01;
    /** Access mode: open for reading and writing. */
    public static final int O_RDWR = 02;
    /** Create the file if it does not exist. */
    public static final int O_CREAT = 0100;
    /** With O_CREAT: fail with EEXIST if the file exists. */
    public static final int O_EXCL = 0200;
    /** Do not make a terminal device the controlling terminal. */
    public static final int O_NOCTTY = 0400;
    /** Truncate a regular file opened for writing to length 0. */
    public static final int O_TRUNC = 01000;
    /** Every write goes to the end of the file. */
    public static final int O_APPEND = 02000;
    /** Non-blocking I/O: calls that would wait fail with EAGAIN instead. */
    public static final int O_NONBLOCK = 04000;
    /** Each write returns once its data (and the metadata needed to read it) is on stable storage. */
    public static final int O_DSYNC = 010000;
    /** Each write returns once its data and all its metadata are on stable storage. */
    public static final int O_SYNC = 04010000;
    // These three are numbered per architecture (x86-64 and riscv64: asm-generic's; arm64: as 32-bit ARM).
    /** Bypass the page cache: I/O goes to the device directly, with alignment rules. */
    public static final int O_DIRECT = Arch.constants().oDirect;
    /** Fail with ENOTDIR unless the path is a directory. */
    public static final int O_DIRECTORY = Arch.constants().oDirectory;
    /** Fail with ELOOP if the path's last component is a symbolic link. */
    public static final int O_NOFOLLOW = Arch.constants().oNofollow;
    /** {@code O_TMPFILE}: a file with no name in the directory opened (the generic {@code __O_TMPFILE} with {@code O_DIRECTORY}). */
    public static final int O_TMPFILE = 020000000 | O_DIRECTORY;
    /** Do not update the access time on reads (the owner or a privileged caller only). */
    public static final int O_NOATIME = 01000000;
    /** Close the descriptor on execve(2). */
    public static final int O_CLOEXEC = 02000000;
    /** A descriptor that only names the file (for *at calls, fstat), without opening it for I/O. */
    public static final int O_PATH = 010000000;

    // linux/fs.h: renameat2 flags
    /** renameat2: fail with EEXIST rather than replace an existing target. */
    public static final int RENAME_NOREPLACE = 1;
    /** renameat2: swap the source and the target, which must both exist. */
    public static final int RENAME_EXCHANGE = 2;
    /** renameat2: leave a whiteout (an overlay filesystem's marker) at the source. */
    public static final int RENAME_WHITEOUT = 4;

    // sys/xattr.h
    /** setxattr: fail with EEXIST if the attribute exists. */
    public static final int XATTR_CREATE = 1;
    /** setxattr: fail with ENODATA if the attribute does not exist. */
    public static final int XATTR_REPLACE = 2;

    // linux/falloc.h
    /** fallocate: allocate without changing the file's size. */
    public static final int FALLOC_FL_KEEP_SIZE = 0x01;
    /** fallocate: free the range, which then reads as zeros (with FALLOC_FL_KEEP_SIZE). */
    public static final int FALLOC_FL_PUNCH_HOLE = 0x02;
    /** fallocate: remove the range, moving the rest of the file down. */
    public static final int FALLOC_FL_COLLAPSE_RANGE = 0x08;
    /** fallocate: make the range read as zeros, allocated. */
    public static final int FALLOC_FL_ZERO_RANGE = 0x10;
    /** fallocate: insert a hole of the range's length, moving the rest of the file up. */
    public static final int FALLOC_FL_INSERT_RANGE = 0x20;

    // fcntl.h: record locks (64-bit off_t variants)
    /** fcntl: ask which lock would conflict with the one described. */
    public static final int F_GETLK = 5;
    /** fcntl: take or release a lock, failing at once if it conflicts. */
    public static final int F_SETLK = 6;
    /** fcntl: take a lock, waiting while it conflicts. */
    public static final int F_SETLKW = 7;
    /** Lock type: a shared (read) lock. */
    public static final short F_RDLCK = 0;
    /** Lock type: an exclusive (write) lock. */
    public static final short F_WRLCK = 1;
    /** Lock type: unlocked; in a getlk answer, no lock conflicts. */
    public static final short F_UNLCK = 2;

    // sys/file.h: flock(2)
    /** flock: take a shared lock. */
    public static final int LOCK_SH = 1;
    /** flock: take an exclusive lock. */
    public static final int LOCK_EX = 2;
    /** flock, with LOCK_SH or LOCK_EX: fail with EWOULDBLOCK rather than wait. */
    public static final int LOCK_NB = 4;
    /** flock: release the lock. */
    public static final int LOCK_UN = 8;

    // unistd.h: lseek whences and access(2) masks
    /** lseek: the offset counts from the start of the file. */
    public static final int SEEK_SET = 0;
    /** lseek: the offset counts from the current position. */
    public static final int SEEK_CUR = 1;
    /** lseek: the offset counts from the end of the file. */
    public static final int SEEK_END = 2;
    /** lseek: the next offset at or after the one given that holds data. */
    public static final int SEEK_DATA = 3;
    /** lseek: the next offset at or after the one given that is in a hole (or the end of the file). */
    public static final int SEEK_HOLE = 4;
    /** access: whether the file exists. */
    public static final int F_OK = 0;
    /** access: execute (search, for a directory) permission. */
    public static final int X_OK = 1;
    /** access: write permission. */
    public static final int W_OK = 2;
    /** access: read permission. */
    public static final int R_OK = 4;

    // poll.h
    /** poll: there is data to read. */
    public static final int POLLIN = 0x001;
    /** poll: there is urgent data to read. */
    public static final int POLLPRI = 0x002;
    /** poll: writing will not block. */
    public static final int POLLOUT = 0x004;
    /** poll: an error condition (reported whether asked for or not). */
    public static final int POLLERR = 0x008;
    /** poll: the other end hung up (reported whether asked for or not). */
    public static final int POLLHUP = 0x010;
    /** poll: the descriptor is not open (reported whether asked for or not). */
    public static final int POLLNVAL = 0x020;
    /** poll: there is normal data to read (as POLLIN on Linux). */
    public static final int POLLRDNORM = 0x040;
    /** poll: normal data may be written (as POLLOUT on Linux). */
    public static final int POLLWRNORM = 0x100;

    // sys/statvfs.h: f_flag bits
    /** statvfs f_flag: the filesystem is mounted read-only. */
    public static final long ST_RDONLY = 1;
    /** statvfs f_flag: set-user-ID and set-group-ID bits are ignored. */
    public static final long ST_NOSUID = 2;

    /**
     * Whether {@code mode} is a directory.
     *
     * @param mode a file mode, as {@link Stat#mode()} gives it
     * @return true if its type bits say a directory
     */
    public static boolean isDirectory(int mode) { return (mode & S_IFMT) == S_IFDIR; }

    /**
     * Whether {@code mode} is a regular file.
     *
     * @param mode a file mode, as {@link Stat#mode()} gives it
     * @return true if its type bits say a regular file
     */
    public static boolean isRegularFile(int mode) { return (mode & S_IFMT) == S_IFREG; }

    /**
     * Whether {@code mode} is a symbolic link.
     *
     * @param mode a file mode, as {@link Stat#mode()} gives it
     * @return true if its type bits say a symbolic link
     */
    public static boolean isSymlink(int mode) { return (mode & S_IFMT) == S_IFLNK; }
}
