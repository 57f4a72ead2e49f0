package dev.fusepanama.examples.mirror;

import static dev.fusepanama.examples.mirror.SourceNodes.DOT;
import static dev.fusepanama.examples.mirror.SourceNodes.nativeName;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.SetId;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.libc.structs.stat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The mirror's open files and directories: each a descriptor of the source's file of its own,
 * which is its handle, through which its data and listing go; while open, it keeps its node's
 * descriptor too ({@link NodeDescriptors#pin}).
 */
final class OpenFiles {
    /** Flags of a client's open that the source's open must not get (see {@link #open}). */
    private static final int NOT_FORWARDED = Posix.O_CREAT | Posix.O_EXCL | Posix.O_NOCTTY | Posix.O_DIRECT | Posix.O_NOFOLLOW;

    private final SourceNodes table;
    private final Callers callers;
    private final boolean passthrough;
    /** Directory streams by descriptor, with where each stands. */
    private final DirStreams dirs = new DirStreams();
    /** Descriptors of open files, closed at the end for releases that never came. */
    private final DescriptorSet files = new DescriptorSet();

    OpenFiles(SourceNodes table, Callers callers, boolean passthrough) {
        this.table = table;
        this.callers = callers;
        this.passthrough = passthrough;
    }

    /** The mount has ended: every file and directory still open is closed. */
    void closeAll() {
        files.drain(fd -> Libc.close(fd));
        dirs.closeAll();
    }

    /**
     * Opens with {@code O_NOATIME} where the mount's flags say a read changes no access time
     * (noatime, read-only, nodiratime for a directory), so that reading through the mount leaves
     * the source's atime as it was; the source's own mount decides the rest (relatime, strictatime).
     * O_NOATIME needs the file's owner or CAP_FOWNER: without it, opens as asked.
     */
    private static int openNoAtime(int dirFd, MemorySegment name, int flags, AccessTimes times, boolean directory) {
        boolean never = times.readOnly() || times.rule() == AccessTimes.Rule.NEVER || (directory && !times.directories());
        if (never) {
            int fd = Libc.openat(dirFd, name, flags | Posix.O_NOATIME, 0);
            if (fd != -Errno.EPERM) return fd;
        }
        return Libc.openat(dirFd, name, flags, 0);
    }

    /**
     * Opens the node's file again, by its {@code /proc/self/fd} name, with the client's flags
     * but those that only make sense for a name ({@code O_CREAT}, {@code O_EXCL},
     * {@code O_NOFOLLOW}) and {@code O_DIRECT}: the client's direct I/O holds between it and the
     * kernel, and forwarded it would demand of libfuse's buffers an alignment they lack.
     */
    void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int open = (flags & ~NOT_FORWARDED) | Posix.O_CLOEXEC;
        int fd = openNoAtime(Libc.AT_FDCWD, s.procPath((int) d), open, request.accessTimes(), false);
        if (table.retry(fd)) {
            fd = openNoAtime(Libc.AT_FDCWD, s.procPath((int) d), open, request.accessTimes(), false);
        }
        if (fd >= 0) {
            table.descriptors.pin(n);
        }
        table.release(n, d);
        if (fd < 0) {
            table.fail(reply, -fd);
            return;
        }
        files.add(fd);
        if ((flags & Posix.O_TRUNC) != 0) {
            dataChanged(request, ino, fd);
        }
        if (passthrough) {
            reply.passthrough(fd);
        }
        if (!reply.open(fd, table.keepsData(n, fd, request.accessTimes()) ? OpenReply.KEEP_CACHE : 0)) {
            files.remove(fd);
            Libc.close(fd);
            table.descriptors.unpin(n);
        }
    }

    /**
     * Creates with {@code O_NOFOLLOW} (a link put at the name meanwhile is not followed) and, when
     * the caller did not ask for {@code O_EXCL}, opens a file that appeared at the name meanwhile
     * instead; as root for another user, only a file it made is given to the caller, and one it
     * found is opened only if its permission bits allow the caller (the kernel checked the
     * directory only, believing the name free). The node comes from the open descriptor.
     */
    void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = table.node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = table.descriptor(p);
        if (dir < 0) {
            table.fail(reply, (int) -dir);
            return;
        }
        int open = (flags & ~(Posix.O_DIRECT | Posix.O_NOCTTY | Posix.O_EXCL | Posix.O_CREAT)) | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
        int caller = callers.enterCaller(request);
        boolean made = true;
        callers.takeUmask(request);
        int fd = Libc.openat((int) dir, n, open | Posix.O_CREAT | Posix.O_EXCL, mode);
        if (table.retry(fd)) {
            fd = Libc.openat((int) dir, n, open | Posix.O_CREAT | Posix.O_EXCL, mode);
        }
        callers.dropUmask();
        if (fd == -Errno.EEXIST && (flags & Posix.O_EXCL) == 0) {
            made = false;
            fd = Libc.openat((int) dir, n, open, 0);
        }
        Callers.leaveCaller(caller);
        int rc = fd;
        if (fd >= 0 && caller > 0) {
            if (made) {
                rc = Libc.fchown(fd, caller, -1);
                if (rc == 0 && (mode & (Posix.S_ISUID | Posix.S_ISGID)) != 0) {
                    // chown clears the set-ID bits, even root's chown; the creator asked for them.
                    rc = Libc.fchmod(fd, mode & 07777);
                }
            } else if (!mayOpen(s, fd, request, flags)) {
                rc = -Errno.EACCES;
            }
        }
        if (rc >= 0 && !made && (flags & Posix.O_TRUNC) != 0) {
            dropSetId(request, fd);
        }
        long id = rc < 0 ? rc : table.nodeOf(s, fd, false, p, name, reply.attributes());
        table.release(p, dir);
        if (id < 0) {
            if (fd >= 0) {
                Libc.close(fd);
            }
            table.fail(reply, (int) -id);
            return;
        }
        SourceNode node = table.nodeOrNull(id);
        for (int again = 0; node == null && again < 3; again++) {
            // The kernel forgot the node between nodeOf and here (it was the file's old inode):
            // found again, as a new node if need be.
            id = table.nodeOf(s, fd, false, p, name, reply.attributes());
            if (id < 0) {
                Libc.close(fd);
                table.fail(reply, (int) -id);
                return;
            }
            node = table.nodeOrNull(id);
        }
        if (node == null) {
            Libc.close(fd);
            table.fail(reply, Errno.ESTALE);
            return;
        }
        hold(node);
        files.add(fd);
        if (passthrough) {
            reply.passthrough(fd);
        }
        if (!reply.created(Inode.of(id), table.timeouts(p, node, reply.attributes()), fd,
                table.keepsData(node, fd, request.accessTimes()) ? OpenReply.KEEP_CACHE : 0)) {
            files.remove(fd);
            Libc.close(fd);
            table.descriptors.unpin(node);
        }
    }

    /** {@code n} is open: it keeps a descriptor until {@link #release}, one opened again if another operation's closed it meanwhile. */
    private void hold(SourceNode n) {
        table.descriptors.pin(n);
        long d = table.descriptor(n);
        if (d >= 0) {
            table.release(n, d);
        }
    }

    /** Whether the permission bits of the file open at {@code fd} let the caller open it with {@code flags}. */
    private static boolean mayOpen(Scratch s, int fd, Request request, int flags) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstat(fd, st.segment()) < 0) {
            return false;
        }
        int access = flags & Posix.O_ACCMODE;
        int need = (access == Posix.O_RDONLY ? 4 : access == Posix.O_WRONLY ? 2 : 6) | ((flags & Posix.O_TRUNC) != 0 ? 2 : 0);
        int bits;
        if (st.uid() == request.uid()) {
            bits = st.mode() >> 6;
        } else if (st.gid() == request.gid() || Arrays.stream(request.groups()).anyMatch(g -> g == st.gid())) {
            bits = st.mode() >> 3;
        } else {
            bits = st.mode();
        }
        return (bits & need) == need;
    }

    void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        Scratch s = Scratch.worker();
        long n = Libc.pread((int) fh, s.buffer(size), size, offset);
        if (n < 0) {
            table.fail(reply, (int) -n);
            return;
        }
        reply.data(s.bufferView().limit((int) n));
    }

    void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
        long n = Libc.pwrite((int) fh, MemorySegment.ofBuffer(data), data.remaining(), offset);
        if (n < 0) {
            table.fail(reply, (int) -n);
        } else {
            dataChanged(request, ino, (int) fh);
            reply.written(n);
        }
    }

    /**
     * After {@code caller} changed the data of the file open as {@code fd} (a write, truncate,
     * allocation or copy into it): its set-ID bits cleared as a local filesystem clears them
     * ({@link SetId#afterDataChange}), which the kernel leaves to the mirror under
     * {@code HANDLE_KILLPRIV_V2} ({@link InodeMirror#kernelSettings}). The source's own kernel
     * would not, since the mirror's process may keep them. One {@code fstat}; a {@code fchmod}
     * only for a file that has such a bit.
     */
    static boolean dropSetId(Request caller, int fd) {
        return dropSetId(caller, fd, null);
    }

    /** The same for a node's {@code O_PATH} descriptor {@code fd}, whose mode changes through its {@code procPath}. */
    static boolean dropSetId(Request caller, int fd, MemorySegment procPath) {
        MemorySegment st = Scratch.worker().stat();
        if (Libc.fstatat(fd, SourceNodes.EMPTY, st, Libc.AT_EMPTY_PATH) != 0) return false;
        int mode = stat.st_mode(st.address());
        if ((mode & Posix.S_IFMT) != Posix.S_IFREG || (mode & (Posix.S_ISUID | Posix.S_ISGID)) == 0) return false;
        mode &= 07777;
        int kept = SetId.afterDataChange(mode, stat.st_gid(st.address()), caller);
        if (kept == mode) return false;
        return (procPath == null ? Libc.fchmod(fd, kept) : Libc.fchmodat(Libc.AT_FDCWD, procPath, kept, 0)) == 0;
    }

    /**
     * Clears set-ID bits after a data change of node {@code ino} open as {@code fd}. The kernel
     * learns the new mode at its next look: a file with such bits has its attributes never kept
     * long ({@link SourceChanges#timeouts}), since a notification cannot be sent from inside the
     * request.
     */
    private void dataChanged(Request caller, long ino, int fd) {
        dropSetId(caller, fd);
    }

    void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        int fd = (int) fh;
        files.remove(fd); // before the close: once closed, the number may be handed out again
        int rc = Libc.close(fd);
        unpin(ino);
        table.answer(rc, reply);
    }

    /** An open file or directory of the node {@code ino} was released. */
    private void unpin(long ino) {
        SourceNode n = table.nodeOrNull(ino);
        if (n != null) {
            table.descriptors.unpin(n);
        }
    }

    void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        table.answer(Libc.fsync((int) fh, dataOnly), reply);
    }

    void fallocate(Request request, long ino, long fh, int mode, long offset, long length, EmptyReply reply) {
        int rc = Libc.fallocate((int) fh, mode, offset, length);
        if (rc == 0) dataChanged(request, ino, (int) fh);
        table.answer(rc, reply);
    }

    void copyFileRange(Request request, long inoIn, long fhIn, long offsetIn, long inoOut, long fhOut,
            long offsetOut, long length, int flags, WriteReply reply) {
        Scratch s = Scratch.worker();
        MemorySegment offsets = s.small;
        offsets.set(JAVA_LONG, 0, offsetIn);
        offsets.set(JAVA_LONG, 8, offsetOut);
        long n = Libc.copyFileRange((int) fhIn, offsets, (int) fhOut, offsets.asSlice(8), length, flags);
        if (n < 0) {
            table.fail(reply, (int) -n);
        } else {
            dataChanged(request, inoOut, (int) fhOut);
            reply.written(n);
        }
    }

    void lseek(Request request, long ino, long fh, long offset, int whence, LseekReply reply) {
        long n = Libc.lseek((int) fh, offset, whence);
        if (n < 0) {
            table.fail(reply, (int) -n);
        } else {
            reply.offset(n);
        }
    }

    void flock(Request request, long ino, long fh, int operation, EmptyReply reply) {
        table.answer(Libc.flock((int) fh, operation), reply);
    }

    // ---- directories ------------------------------------------------------------------------

    void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        SourceNode n = table.node(ino);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int open = Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC;
        int fd = openNoAtime((int) d, DOT, open, request.accessTimes(), true);
        if (table.retry(fd)) {
            fd = openNoAtime((int) d, DOT, open, request.accessTimes(), true);
        }
        if (fd >= 0) {
            table.descriptors.pin(n);
        }
        table.release(n, d);
        if (fd < 0) {
            table.fail(reply, -fd);
            return;
        }
        dirs.add(fd);
        // Listings are not kept in the kernel (CACHE_DIR), though the watch would keep them
        // exact: through Linux 6.18 a cached listing can end early while names in the directory
        // change (fs/fuse/readdir.c, fuse_readdir_cached; MemoryFileSystem's class comment), which
        // ListingRace caught on memfs.
        if (!reply.open(fd, 0)) {
            dirs.close(fd);
            table.descriptors.unpin(n);
        }
    }

    /** From the source's own offsets ({@link DirStreams}). */
    void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        dirs.read(fh, offset, reply);
    }

    void readdirplus(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        dirs.readPlus(fh, offset, table.node(ino), table, reply);
    }

    void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        int rc = dirs.close((int) fh);
        unpin(ino);
        table.answer(rc, reply);
    }

    void fsyncdir(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) {
        table.answer(Libc.fsync((int) fh, dataOnly), reply);
    }
}
