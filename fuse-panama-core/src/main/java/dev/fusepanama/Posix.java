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
    public static final int S_IFMT = 0170000;
    public static final int S_IFSOCK = 0140000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFREG = 0100000;
    public static final int S_IFBLK = 0060000;
    public static final int S_IFDIR = 0040000;
    public static final int S_IFCHR = 0020000;
    public static final int S_IFIFO = 0010000;
    public static final int S_ISUID = 04000;
    public static final int S_ISGID = 02000;
    public static final int S_ISVTX = 01000;

    // fcntl.h: open flags
    public static final int O_ACCMODE = 03;
    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 01;
    public static final int O_RDWR = 02;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_NOCTTY = 0400;
    public static final int O_TRUNC = 01000;
    public static final int O_APPEND = 02000;
    public static final int O_NONBLOCK = 04000;
    public static final int O_DSYNC = 010000;
    public static final int O_SYNC = 04010000;
    // These three are numbered per architecture (x86-64 and riscv64: asm-generic's; arm64: as 32-bit ARM).
    public static final int O_DIRECT = Arch.constants().oDirect;
    public static final int O_DIRECTORY = Arch.constants().oDirectory;
    public static final int O_NOFOLLOW = Arch.constants().oNofollow;
    /** {@code O_TMPFILE}: a file with no name in the directory opened (the generic {@code __O_TMPFILE} with {@code O_DIRECTORY}). */
    public static final int O_TMPFILE = 020000000 | O_DIRECTORY;
    public static final int O_NOATIME = 01000000;
    public static final int O_CLOEXEC = 02000000;
    public static final int O_PATH = 010000000;

    // linux/fs.h: renameat2 flags
    public static final int RENAME_NOREPLACE = 1;
    public static final int RENAME_EXCHANGE = 2;
    public static final int RENAME_WHITEOUT = 4;

    // sys/xattr.h
    public static final int XATTR_CREATE = 1;
    public static final int XATTR_REPLACE = 2;

    // linux/falloc.h
    public static final int FALLOC_FL_KEEP_SIZE = 0x01;
    public static final int FALLOC_FL_PUNCH_HOLE = 0x02;
    public static final int FALLOC_FL_COLLAPSE_RANGE = 0x08;
    public static final int FALLOC_FL_ZERO_RANGE = 0x10;
    public static final int FALLOC_FL_INSERT_RANGE = 0x20;

    // fcntl.h: record locks (64-bit off_t variants)
    public static final int F_GETLK = 5;
    public static final int F_SETLK = 6;
    public static final int F_SETLKW = 7;
    public static final short F_RDLCK = 0;
    public static final short F_WRLCK = 1;
    public static final short F_UNLCK = 2;

    // sys/file.h: flock(2)
    public static final int LOCK_SH = 1;
    public static final int LOCK_EX = 2;
    public static final int LOCK_NB = 4;
    public static final int LOCK_UN = 8;

    // unistd.h: lseek whences and access(2) masks
    public static final int SEEK_SET = 0;
    public static final int SEEK_CUR = 1;
    public static final int SEEK_END = 2;
    public static final int SEEK_DATA = 3;
    public static final int SEEK_HOLE = 4;
    public static final int F_OK = 0;
    public static final int X_OK = 1;
    public static final int W_OK = 2;
    public static final int R_OK = 4;

    // poll.h
    public static final int POLLIN = 0x001;
    public static final int POLLPRI = 0x002;
    public static final int POLLOUT = 0x004;
    public static final int POLLERR = 0x008;
    public static final int POLLHUP = 0x010;
    public static final int POLLNVAL = 0x020;
    public static final int POLLRDNORM = 0x040;
    public static final int POLLWRNORM = 0x100;

    // sys/statvfs.h: f_flag bits
    public static final long ST_RDONLY = 1;
    public static final long ST_NOSUID = 2;

    /** Whether {@code mode} is a directory. */
    public static boolean isDirectory(int mode) { return (mode & S_IFMT) == S_IFDIR; }

    /** Whether {@code mode} is a regular file. */
    public static boolean isRegularFile(int mode) { return (mode & S_IFMT) == S_IFREG; }

    /** Whether {@code mode} is a symbolic link. */
    public static boolean isSymlink(int mode) { return (mode & S_IFMT) == S_IFLNK; }
}
