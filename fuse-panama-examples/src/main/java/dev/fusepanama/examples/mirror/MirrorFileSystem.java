package dev.fusepanama.examples.mirror;

import dev.fusepanama.libc.Libc;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FileNames;
import dev.fusepanama.FuseConfig;
import dev.fusepanama.FuseContext;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.LinkTarget;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.ReadReply;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.Timespec;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.XattrNames;
import dev.fusepanama.examples.mirror.Scratch.Where;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A pass-through ("mirror") of a real directory: every operation is one libc call (or two) on the
 * source, relative to a descriptor of it, and open files are real descriptors kept in
 * {@link FileInfo#fh()}. In the manner of libfuse's {@code example/passthrough_fh.c}, with three
 * differences a mirror for untrusted sources needs: no link in the source is ever followed
 * ({@link SourceDir}), names are bytes end to end, and files created for another user belong to
 * that user.
 *
 * <p>{@link #zeroCopy} adds {@code read_buf}/{@code write_buf}: file data then moves between the
 * source and the kernel by {@code splice(2)} without entering the JVM. The plain instance answers
 * with {@code read}/{@code write} through libfuse's buffers, for comparison.
 *
 * <p>POSIX record locks ({@code fcntl(F_SETLK)}) are not forwarded: the kernel keeps them for the
 * mount, which is exact between the mount's users, whereas forwarding them would make every
 * client's lock one process's lock on the source (or, as OFD locks, make two descriptors of one
 * process conflict). {@code flock(2)} is forwarded: its locks belong to one open file, and each
 * open of the mount is one open of the source.
 */
public class MirrorFileSystem implements FuseFileSystem, AutoCloseable {
    /** {@code ENOSYS} from fchmodat2 before Linux 6.6; then glibc's fchmodat emulates AT_SYMLINK_NOFOLLOW. */
    private static volatile boolean fchmodat2 = true;

    private final SourceDir source;
    private final boolean root = Libc.geteuid() == 0;
    /** Directory streams by descriptor: where the descriptor's position is, to seek only when needed. */
    private final ConcurrentHashMap<Integer, DirStream> dirs = new ConcurrentHashMap<>();
    /**
     * Descriptors of open files: closed by release, or at the end of the mount for the handles
     * whose release never came (the kernel drops what is still queued when the connection ends).
     */
    private final DescriptorSet files = new DescriptorSet();
    private volatile boolean attributesInReaddir;

    protected MirrorFileSystem(SourceDir source) {
        this.source = source;
    }

    /**
     * A mirror of {@code source} with read/write through memory, contained by the strongest
     * {@link Containment} this process may use.
     */
    public static MirrorFileSystem of(Path source) throws IOException {
        return of(source, null);
    }

    /**
     * A mirror of {@code source} with read/write through memory and the given containment (null:
     * the strongest this process may use).
     *
     * @throws IOException if {@code source} cannot be opened as a directory, or
     *     {@link Containment#PRIVATE_MOUNT} is asked for where it is not allowed
     */
    public static MirrorFileSystem of(Path source, Containment containment) throws IOException {
        return new MirrorFileSystem(SourceDir.open(source, containment));
    }

    /**
     * A mirror of {@code source} whose file data can bypass the JVM ({@code read_buf}/{@code write_buf},
     * splice), contained by the strongest {@link Containment} this process may use.
     */
    public static MirrorFileSystem zeroCopy(Path source) throws IOException {
        return zeroCopy(source, null);
    }

    /** As {@link #zeroCopy(Path)}, with the given containment (null: the strongest available); see {@link #of(Path, Containment)}. */
    public static MirrorFileSystem zeroCopy(Path source, Containment containment) throws IOException {
        return zeroCopy(source, containment, true);
    }

    /**
     * As {@link #zeroCopy(Path, Containment)}; with {@code passthrough}, each open file's data is
     * read and written by the kernel itself from the source file where the mount can
     * ({@link FileInfo#setPassthrough}: libfuse 3.17+, CAP_SYS_ADMIN), and spliced otherwise.
     */
    public static MirrorFileSystem zeroCopy(Path source, Containment containment, boolean passthrough) throws IOException {
        return new ZeroCopy(SourceDir.open(source, containment), passthrough);
    }

    /** As {@link #zeroCopy(Path, Containment)}, naming files through /proc/self/fd for the extended attribute calls, as before Linux 6.13 (tests). */
    static MirrorFileSystem zeroCopyWithProcXattrPaths(Path source, Containment containment) throws IOException {
        return new ZeroCopy(SourceDir.open(source, containment, false), true);
    }

    /** After open or create gave {@code fd} for {@code fi}: a subclass may hand it to the kernel. */
    void opened(FileInfo fi, int fd) {}

    /** How this mirror keeps paths beneath its source. */
    public Containment containment() {
        return source.containment();
    }

    /**
     * The options the launcher mounts with. The kernel checks permissions itself
     * ({@code default_permissions}, since the mirror may run as root); nothing is cached (the
     * source may change underneath, and with the high-level API two hard links are two kernel
     * inodes whose cached attributes could disagree); an unlinked open file stays usable through
     * its descriptor ({@code hard_remove}, {@code nullpath_ok}); inode numbers are the source's;
     * and a file changed in the source while a program keeps it open through the mirror is read
     * fresh ({@code auto_inval_data}, off by default in fuse-panama, costs a getattr per read);
     * {@code flock} locks are the source's.
     */
    public MountOptions.Builder mountOptions() {
        return MountOptions.builder()
                .fsName("mirror")
                .subtype("mirror")
                .defaultPermissions(true)
                .attrTimeout(0)
                .entryTimeout(0)
                .negativeTimeout(0)
                .hardRemove(true)
                .nullPathOk(true)
                .useIno(true)
                .autoInvalData(true)
                .want(ConnectionInfo.CAP_FLOCK_LOCKS);
    }

    @Override
    public void init(ConnectionInfo connection, FuseConfig config) {
        // With attributes cached for no time, readdirplus attributes would expire on arrival:
        // a stat per entry would buy nothing.
        attributesInReaddir = config.attrTimeout() > 0 && config.entryTimeout() > 0;
    }

    /**
     * The mount has ended: every descriptor still open for a handle is closed, then the source's
     * (a mirror serves one mount).
     */
    @Override
    public void destroy() {
        Scratch s = Scratch.get();
        files.drain(fd -> Libc.close(s.errno, fd));
        for (Integer fd : dirs.keySet()) {
            dirs.remove(fd);
            Libc.close(s.errno, fd);
        }
        close();
    }

    /** Closes the source's descriptor; for a mirror that was never mounted, or at any time after. */
    @Override
    public void close() {
        source.close();
    }

    SourceDir source() {
        return source;
    }

    // ---- attributes -------------------------------------------------------------------------

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) {
        Scratch s = Scratch.get();
        if (fi != null) {
            return Libc.fstat(s.errno, (int) fi.fh(), stat.segment());
        }
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            rc = Libc.fstatat(s.errno, w.dirfd, w.name, stat.segment(), Libc.AT_SYMLINK_NOFOLLOW);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int readlink(String path, LinkTarget target) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc != 0) {
            return rc;
        }
        long n = Libc.readlinkat(s.errno, w.dirfd, w.name, s.text, Scratch.PATH_MAX - 1);
        source.done(s, w);
        if (n < 0) {
            return (int) n;
        }
        s.text.set(JAVA_BYTE, n, (byte) 0);
        target.set(FileNames.fromNative(s.text));
        return 0;
    }

    @Override
    public int chmod(String path, int mode, FileInfo fi) {
        Scratch s = Scratch.get();
        if (fi != null) {
            return Libc.fchmod(s.errno, (int) fi.fh(), mode);
        }
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            rc = chmodNoFollow(s, w, mode);
            source.done(s, w);
        }
        return rc;
    }

    private static int chmodNoFollow(Scratch s, Where w, int mode) {
        if (fchmodat2) {
            int rc = Libc.fchmodat2(s.errno, w.dirfd, w.name, mode, Libc.AT_SYMLINK_NOFOLLOW);
            if (rc != -Errno.ENOSYS) {
                return rc;
            }
            fchmodat2 = false;
        }
        return Libc.fchmodat(s.errno, w.dirfd, w.name, mode, Libc.AT_SYMLINK_NOFOLLOW);
    }

    @Override
    public int chown(String path, int uid, int gid, FileInfo fi) {
        Scratch s = Scratch.get();
        if (fi != null) {
            return Libc.fchown(s.errno, (int) fi.fh(), uid, gid);
        }
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            rc = Libc.fchownat(s.errno, w.dirfd, w.name, uid, gid, Libc.AT_SYMLINK_NOFOLLOW);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) {
        Scratch s = Scratch.get();
        if (fi != null) {
            return Libc.ftruncate(s.errno, (int) fi.fh(), size);
        }
        int fd = source.open(s, path, Posix.O_WRONLY | Posix.O_NONBLOCK, 0);
        if (fd < 0) {
            return fd;
        }
        int rc = Libc.ftruncate(s.errno, fd, size);
        Libc.close(s.errno, fd);
        return rc;
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) {
        Scratch s = Scratch.get();
        MemorySegment times = s.small;
        times.set(JAVA_LONG, 0, atime.seconds());
        times.set(JAVA_LONG, 8, atime.nanos());
        times.set(JAVA_LONG, 16, mtime.seconds());
        times.set(JAVA_LONG, 24, mtime.nanos());
        if (fi != null) {
            return Libc.utimensat(s.errno, (int) fi.fh(), MemorySegment.NULL, times, 0);
        }
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            rc = Libc.utimensat(s.errno, w.dirfd, w.name, times, Libc.AT_SYMLINK_NOFOLLOW);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int statfs(String path, StatVfs stat) {
        Scratch s = Scratch.get();
        MemorySegment v = s.small;
        int rc = Libc.fstatvfs(s.errno, source.fd(), v);
        if (rc == 0) {
            stat.setBlockSize(v.get(JAVA_LONG, 0)).setFragmentSize(v.get(JAVA_LONG, 8))
                    .setBlocks(v.get(JAVA_LONG, 16)).setBlocksFree(v.get(JAVA_LONG, 24))
                    .setBlocksAvailable(v.get(JAVA_LONG, 32)).setFiles(v.get(JAVA_LONG, 40))
                    .setFilesFree(v.get(JAVA_LONG, 48)).setFilesAvailable(v.get(JAVA_LONG, 56))
                    .setFsid(v.get(JAVA_LONG, 64)).setFlags(v.get(JAVA_LONG, 72)).setNameMax(v.get(JAVA_LONG, 80));
        }
        return rc;
    }

    // ---- names ------------------------------------------------------------------------------

    @Override
    public int mknod(String path, int mode, long rdev) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            int caller = enterCaller();
            rc = Libc.mknodat(s.errno, w.dirfd, w.name, mode, rdev);
            rc = leaveCaller(s, caller, rc, w, -1);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int mkdir(String path, int mode) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            int caller = enterCaller();
            rc = Libc.mkdirat(s.errno, w.dirfd, w.name, mode);
            rc = leaveCaller(s, caller, rc, w, -1);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int symlink(String target, String linkPath) {
        Scratch s = Scratch.get();
        if (FileNames.toNative(target, s.path2) < 0) {
            return -Errno.ENAMETOOLONG;
        }
        Where w = s.where;
        int rc = source.locate(s, linkPath, s.path, w);
        if (rc == 0) {
            int caller = enterCaller();
            rc = Libc.symlinkat(s.errno, s.path2, w.dirfd, w.name);
            rc = leaveCaller(s, caller, rc, w, -1);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int unlink(String path) {
        return unlinkat(path, 0);
    }

    @Override
    public int rmdir(String path) {
        return unlinkat(path, Libc.AT_REMOVEDIR);
    }

    private int unlinkat(String path, int flags) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = source.locate(s, path, s.path, w);
        if (rc == 0) {
            rc = Libc.unlinkat(s.errno, w.dirfd, w.name, flags);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int rename(String from, String to, int flags) {
        Scratch s = Scratch.get();
        Where a = s.where;
        Where b = s.where2;
        int rc = source.locate(s, from, s.path, a);
        if (rc != 0) {
            return rc;
        }
        rc = source.locate(s, to, s.path2, b);
        if (rc == 0) {
            rc = Libc.renameat2(s.errno, a.dirfd, a.name, b.dirfd, b.name, flags);
            source.done(s, b);
        }
        source.done(s, a);
        return rc;
    }

    @Override
    public int link(String from, String to) {
        Scratch s = Scratch.get();
        Where a = s.where;
        Where b = s.where2;
        int rc = source.locate(s, from, s.path, a);
        if (rc != 0) {
            return rc;
        }
        rc = source.locate(s, to, s.path2, b);
        if (rc == 0) {
            rc = Libc.linkat(s.errno, a.dirfd, a.name, b.dirfd, b.name, 0);
            source.done(s, b);
        }
        source.done(s, a);
        return rc;
    }

    // ---- ownership of what a caller creates ----------------------------------------------------

    /**
     * When the mirror runs as root for other users, a new file must belong to its creator. The
     * group is set by creating with the caller's fsgid (so a set-group-ID directory still passes
     * its group on, as the source's filesystem decides); the owner by a chown after.
     *
     * @return the caller's uid to chown to, or -1 when nothing is to be done
     */
    private int enterCaller() {
        if (!root) {
            return -1;
        }
        FuseContext c = FuseContext.current();
        if (c.uid() == 0 && c.gid() == 0) {
            return -1;
        }
        Libc.setfsgid(c.gid());
        return c.uid();
    }

    /** Restores root's fsgid and gives the new file (at {@code w}, or the open {@code fd}) to {@code uid}. */
    private static int leaveCaller(Scratch s, int uid, int rc, Where w, int fd) {
        if (uid < 0) {
            return rc;
        }
        Libc.setfsgid(0);
        if (rc < 0 || uid == 0) {
            return rc;
        }
        int owned = fd >= 0 ? Libc.fchown(s.errno, fd, uid, -1)
                : Libc.fchownat(s.errno, w.dirfd, w.name, uid, -1, Libc.AT_SYMLINK_NOFOLLOW);
        return owned < 0 ? owned : rc;
    }

    // ---- open files -------------------------------------------------------------------------

    /**
     * The flags to open the source with: the client's, without O_DIRECT. The client's O_DIRECT is
     * honoured between it and the kernel (no page cache for that open of the mount); forwarding it
     * would demand of libfuse's buffers the alignment the source's direct I/O needs, which they
     * do not have (reads fail with EINVAL).
     */
    private static int sourceFlags(FileInfo fi) {
        return fi.flags() & ~Posix.O_DIRECT;
    }

    @Override
    public int create(String path, int mode, FileInfo fi) {
        Scratch s = Scratch.get();
        int caller = enterCaller();
        int fd = source.open(s, path, sourceFlags(fi) | Posix.O_CREAT, mode);
        int rc = leaveCaller(s, caller, fd, null, fd);
        if (rc >= 0 && caller > 0 && (mode & (Posix.S_ISUID | Posix.S_ISGID)) != 0) {
            // chown clears the set-ID bits, even root's chown; the creator asked for them.
            rc = Libc.fchmod(s.errno, fd, mode & 07777);
        }
        if (rc < 0) {
            if (fd >= 0) {
                Libc.close(s.errno, fd);
            }
            return rc;
        }
        files.add(fd);
        fi.setFh(fd);
        opened(fi, fd);
        return 0;
    }

    @Override
    public int open(String path, FileInfo fi) {
        int fd = source.open(Scratch.get(), path, sourceFlags(fi), 0);
        if (fd < 0) {
            return fd;
        }
        files.add(fd);
        fi.setFh(fd);
        opened(fi, fd);
        return 0;
    }

    @Override
    public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) {
        Scratch s = Scratch.get();
        return (int) Libc.pread(s.errno, (int) fi.fh(), MemorySegment.ofBuffer(buffer), buffer.remaining(), offset);
    }

    @Override
    public int write(String path, ByteBuffer buffer, long offset, FileInfo fi) {
        Scratch s = Scratch.get();
        return (int) Libc.pwrite(s.errno, (int) fi.fh(), MemorySegment.ofBuffer(buffer), buffer.remaining(), offset);
    }

    @Override
    public int release(String path, FileInfo fi) {
        int fd = (int) fi.fh();
        files.remove(fd); // before the close: once closed, the number may be handed out again
        return Libc.close(Scratch.get().errno, fd);
    }

    @Override
    public int fsync(String path, boolean dataOnly, FileInfo fi) {
        return Libc.fsync(Scratch.get().errno, (int) fi.fh(), dataOnly);
    }

    @Override
    public int fallocate(String path, int mode, long offset, long length, FileInfo fi) {
        return Libc.fallocate(Scratch.get().errno, (int) fi.fh(), mode, offset, length);
    }

    @Override
    public long copyFileRange(String pathIn, FileInfo fiIn, long offsetIn,
                              String pathOut, FileInfo fiOut, long offsetOut, long size, int flags) {
        Scratch s = Scratch.get();
        MemorySegment offsets = s.small;
        offsets.set(JAVA_LONG, 0, offsetIn);
        offsets.set(JAVA_LONG, 8, offsetOut);
        return Libc.copyFileRange(s.errno, (int) fiIn.fh(), offsets, (int) fiOut.fh(), offsets.asSlice(8), size, flags);
    }

    @Override
    public long lseek(String path, long offset, int whence, FileInfo fi) {
        return Libc.lseek(Scratch.get().errno, (int) fi.fh(), offset, whence);
    }

    @Override
    public int flock(String path, FileInfo fi, int operation) {
        return Libc.flock(Scratch.get().errno, (int) fi.fh(), operation);
    }

    // ---- directories ------------------------------------------------------------------------

    /** An open directory: its descriptor and the offset its position is at (-1: unknown). */
    private static final class DirStream {
        final int fd;
        long position;

        DirStream(int fd) {
            this.fd = fd;
        }
    }

    @Override
    public int opendir(String path, FileInfo fi) {
        int fd = source.open(Scratch.get(), path, Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
        if (fd < 0) {
            return fd;
        }
        dirs.put(fd, new DirStream(fd));
        fi.setFh(fd);
        return 0;
    }

    /**
     * Entries come from {@code getdents64(2)} with the source's own offsets ({@code d_off}), so the
     * listing is stable under concurrent change exactly as the source's is. A call that stops
     * mid-batch (the kernel's buffer is full) leaves the descriptor ahead of the kernel's next
     * offset; only then does the next call seek.
     */
    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        Scratch s = Scratch.get();
        DirStream d = dirs.get((int) fi.fh());
        if (d.position != offset) {
            long rc = Libc.lseek(s.errno, d.fd, offset, Posix.SEEK_SET);
            if (rc < 0) {
                return (int) rc;
            }
            d.position = offset;
        }
        boolean plus = attributesInReaddir && (flags & DirFiller.READDIR_PLUS) != 0;
        MemorySegment dents = s.dents();
        while (true) {
            long n = Libc.getdents64(s.errno, d.fd, dents, Scratch.DENTS);
            if (n <= 0) {
                return (int) n;
            }
            long next = d.position;
            for (long p = 0; p < n; ) {
                next = dents.get(JAVA_LONG, p + 8);
                int length = Short.toUnsignedInt(dents.get(JAVA_SHORT, p + Libc.DIRENT64_RECLEN));
                MemorySegment name = dents.asSlice(p + Libc.DIRENT64_NAME);
                Stat st = filler.attributes();
                if (!plus || dotOrDotDot(name)
                        || Libc.fstatat(s.errno, d.fd, name, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0) {
                    st.setIno(dents.get(JAVA_LONG, p + Libc.DIRENT64_INO)).setMode((dents.get(JAVA_BYTE, p + Libc.DIRENT64_TYPE) & 0xff) << 12);
                }
                if (filler.add(FileNames.fromNative(name), next, st)) {
                    d.position = -1;
                    return 0;
                }
                p += length;
            }
            // The whole batch went out: the descriptor stands at its last entry's offset.
            d.position = next;
        }
    }

    private static boolean dotOrDotDot(MemorySegment name) {
        return name.get(JAVA_BYTE, 0) == '.' && (name.get(JAVA_BYTE, 1) == 0
                || name.get(JAVA_BYTE, 1) == '.' && name.get(JAVA_BYTE, 2) == 0);
    }

    @Override
    public int releasedir(String path, FileInfo fi) {
        int fd = (int) fi.fh();
        dirs.remove(fd);
        return Libc.close(Scratch.get().errno, fd);
    }

    @Override
    public int fsyncdir(String path, boolean dataOnly, FileInfo fi) {
        return Libc.fsync(Scratch.get().errno, (int) fi.fh(), dataOnly);
    }

    // ---- extended attributes ------------------------------------------------------------------

    /*
     * Linux 6.13 has *xattrat calls: the file is named as every other call of the mirror names it,
     * by a directory descriptor and a path relative to it, with AT_SYMLINK_NOFOLLOW. Before (and
     * where a seccomp filter refuses them) the file is named /proc/self/fd/DIRFD/NAME for the l*
     * calls, which needs /proc mounted and leaves PATH_MAX minus the prefix for the name
     * ({@link SourceDir#xattrAt}).
     */

    /**
     * Resolves {@code path} into {@code w} and writes the attribute name into {@code s.path2}; without
     * the *xattrat calls, also {@code /proc/self/fd/<dirfd>/<name>} into {@code s.text}.
     */
    private int xattrTarget(Scratch s, String path, String attribute, Where w) {
        int rc = source.locate(s, path, s.path, w);
        if (rc != 0) {
            return rc;
        }
        if (attribute != null && FileNames.toNative(attribute, s.path2) < 0) {
            source.done(s, w);
            return -Errno.ERANGE;
        }
        if (source.xattrAt()) {
            return 0;
        }
        MemorySegment t = s.text;
        int n = 0;
        for (byte c : PROC_FD) {
            t.set(JAVA_BYTE, n++, c);
        }
        // The descriptor's digits, written in place: the kernel asks for security.capability
        // before every write, so this runs once per write and must not allocate.
        int digits = 1;
        for (int v = w.dirfd; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = digits - 1, v = w.dirfd; i >= 0; i--, v /= 10) {
            t.set(JAVA_BYTE, n + i, (byte) ('0' + v % 10));
        }
        n += digits;
        t.set(JAVA_BYTE, n++, (byte) '/');
        long nameLength = 0;
        while (w.name.get(JAVA_BYTE, nameLength) != 0) {
            nameLength++;
        }
        if (n + nameLength >= Scratch.PATH_MAX) {
            source.done(s, w);
            return -Errno.ENAMETOOLONG;
        }
        MemorySegment.copy(w.name, 0, t, n, nameLength + 1);
        return 0;
    }

    private static final byte[] PROC_FD = "/proc/self/fd/".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Override
    public int setxattr(String path, String name, ByteBuffer value, int flags) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = xattrTarget(s, path, name, w);
        if (rc == 0) {
            MemorySegment v = MemorySegment.ofBuffer(value);
            rc = source.xattrAt()
                    ? Libc.setxattrat(s.errno, w.dirfd, w.name, Libc.AT_SYMLINK_NOFOLLOW, s.path2, v, value.remaining(), flags, s.small)
                    : Libc.lsetxattr(s.errno, s.text, s.path2, v, value.remaining(), flags);
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int getxattr(String path, String name, ByteBuffer value) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = xattrTarget(s, path, name, w);
        if (rc == 0) {
            // A size query comes with an empty (heap) buffer: ask with NULL, as the caller did.
            MemorySegment into = value.capacity() == 0 ? MemorySegment.NULL : MemorySegment.ofBuffer(value);
            rc = (int) (source.xattrAt()
                    ? Libc.getxattrat(s.errno, w.dirfd, w.name, Libc.AT_SYMLINK_NOFOLLOW, s.path2, into, value.remaining(), s.small)
                    : Libc.lgetxattr(s.errno, s.text, s.path2, into, value.remaining()));
            source.done(s, w);
        }
        return rc;
    }

    @Override
    public int listxattr(String path, XattrNames names) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = xattrTarget(s, path, null, w);
        if (rc != 0) {
            return rc;
        }
        MemorySegment list = s.xattrList();
        long n = source.xattrAt()
                ? Libc.listxattrat(s.errno, w.dirfd, w.name, Libc.AT_SYMLINK_NOFOLLOW, list, Scratch.XATTR_LIST_MAX)
                : Libc.llistxattr(s.errno, s.text, list, Scratch.XATTR_LIST_MAX);
        source.done(s, w);
        if (n < 0) {
            return (int) n;
        }
        for (long p = 0; p < n; ) {
            MemorySegment name = list.asSlice(p);
            String attribute = FileNames.fromNative(name);
            names.add(attribute);
            while (list.get(JAVA_BYTE, p) != 0) {
                p++;
            }
            p++;
        }
        return 0;
    }

    @Override
    public int removexattr(String path, String name) {
        Scratch s = Scratch.get();
        Where w = s.where;
        int rc = xattrTarget(s, path, name, w);
        if (rc == 0) {
            rc = source.xattrAt()
                    ? Libc.removexattrat(s.errno, w.dirfd, w.name, Libc.AT_SYMLINK_NOFOLLOW, s.path2)
                    : Libc.lremovexattr(s.errno, s.text, s.path2);
            source.done(s, w);
        }
        return rc;
    }

    /**
     * The mirror with {@code read_buf}/{@code write_buf}: data spliced between the source and the
     * kernel, or, with passthrough, not passing through the mirror at all.
     */
    private static final class ZeroCopy extends MirrorFileSystem {
        private final boolean passthrough;

        ZeroCopy(SourceDir source, boolean passthrough) {
            super(source);
            this.passthrough = passthrough;
        }

        @Override
        void opened(FileInfo fi, int fd) {
            if (passthrough) {
                fi.setPassthrough(fd);
            }
        }

        /**
         * SPLICE_WRITE: libfuse may splice replies (our read_buf's file ranges) into /dev/fuse;
         * SPLICE_MOVE: and move the pages rather than copy; SPLICE_READ: read requests (write
         * data) from /dev/fuse into a pipe that write_buf splices into the file. Passthrough, where
         * asked for: files whose data the kernel moves itself, which replaces all three.
         */
        @Override
        public MountOptions.Builder mountOptions() {
            return super.mountOptions().want(ConnectionInfo.CAP_SPLICE_WRITE | ConnectionInfo.CAP_SPLICE_MOVE
                    | ConnectionInfo.CAP_SPLICE_READ).passthrough(passthrough);
        }

        @Override
        public int readBuf(String path, ReadReply reply, long size, long offset, FileInfo fi) {
            reply.fromFd((int) fi.fh(), offset, size);
            return 0;
        }

        @Override
        public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) throws IOException {
            return (int) data.copyToFd((int) fi.fh(), offset);
        }
    }
}
