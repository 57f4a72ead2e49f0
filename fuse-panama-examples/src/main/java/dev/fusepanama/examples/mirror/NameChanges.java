package dev.fusepanama.examples.mirror;

import static dev.fusepanama.examples.mirror.SourceNodes.EMPTY;
import static dev.fusepanama.examples.mirror.SourceNodes.PATH_FLAGS;
import static dev.fusepanama.examples.mirror.SourceNodes.nativeName;
import static dev.fusepanama.examples.mirror.SourceNodes.seen;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirror's changes of names: what makes a file under a name (mknod, mkdir, symlink), a new
 * name for a file (link), and what takes names away or moves them (unlink, rmdir, rename). Each is
 * one system call relative to the descriptor of the directory it changes; the nodes involved are
 * kept where they can be opened again after ({@link SourceNodes}).
 */
final class NameChanges {
    private static final Logger LOG = LoggerFactory.getLogger(InodeMirror.class);

    private final SourceNodes table;
    private final Callers callers;

    NameChanges(SourceNodes table, Callers callers) {
        this.table = table;
        this.callers = callers;
    }

    void mknod(Request request, long parent, Name name, int mode, long rdev, EntryReply reply) throws IOException {
        make(request, parent, name, mode & Posix.S_IFMT, true, (dir, n) -> Libc.mknodat(dir, n, mode, rdev), reply);
    }

    void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
        make(request, parent, name, Posix.S_IFDIR, true, (dir, n) -> Libc.mkdirat(dir, n, mode), reply);
    }

    void symlink(Request request, long parent, Name name, byte[] target, EntryReply reply) throws IOException {
        if (target.length >= Scratch.PATH_MAX) {
            reply.error(Errno.ENAMETOOLONG);
            return;
        }
        MemorySegment link = Scratch.worker().path2;
        MemorySegment.copy(target, 0, link, JAVA_BYTE, 0, target.length);
        link.set(JAVA_BYTE, target.length, (byte) 0);
        make(request, parent, name, Posix.S_IFLNK, false, (dir, n) -> Libc.symlinkat(link, dir, n), reply);
    }

    /** The call that makes a name at a directory descriptor: 0 or -errno. */
    @FunctionalInterface
    private interface Make {
        int at(int dir, MemorySegment name);
    }

    /**
     * Makes {@code name} of {@code type} in {@code parent} with {@code call}, as the caller (and
     * under the caller's umask where the call takes a mode), then answers its entry ({@link #made}).
     */
    private void make(Request request, long parent, Name name, int type, boolean umask, Make call, EntryReply reply)
            throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = table.node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = table.descriptor(p);
        if (dir < 0) {
            table.fail(reply, (int) -dir);
            return;
        }
        try {
            int caller = callers.enterCaller(request);
            if (umask) callers.takeUmask(request);
            int rc = call.at((int) dir, n);
            if (umask) callers.dropUmask();
            Callers.leaveCaller(caller);
            made(s, p, (int) dir, name, n, rc, type, caller, reply);
        } finally {
            table.release(p, dir);
        }
    }

    /**
     * After {@code name} was made in {@code parent}, open at {@code dir} ({@code rc}): opens it
     * and, for another user, checks that it is still a file of the {@code type} made, by root
     * (another program could have put something else there meanwhile, which must not be given
     * away), and gives it to {@code caller}; then answers its entry from that descriptor.
     */
    private void made(Scratch s, SourceNode parent, int dir, Name name, MemorySegment nativeName, int rc, int type, int caller,
            EntryReply reply) {
        if (rc < 0) {
            table.fail(reply, -rc);
            return;
        }
        int fd = Libc.openat(dir, nativeName, PATH_FLAGS, 0);
        if (table.retry(fd)) {
            fd = Libc.openat(dir, nativeName, PATH_FLAGS, 0);
        }
        if (fd < 0) {
            table.fail(reply, -fd);
            return;
        }
        if (caller > 0) {
            Stat st = reply.attributes();
            rc = Libc.fstatat(fd, EMPTY, st.segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            if (rc == 0 && ((st.mode() & Posix.S_IFMT) != type || st.uid() != 0)) {
                LOG.warn("a new file in the source was replaced before it could be given to its creator");
                rc = -Errno.EIO;
            }
            if (rc == 0) {
                rc = Libc.fchownat(fd, EMPTY, caller, -1, Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
            }
            if (rc < 0) {
                Libc.close(fd);
                table.fail(reply, -rc);
                return;
            }
        }
        long id = table.nodeOf(s, fd, true, parent, name, reply.attributes());
        if (id < 0) {
            table.fail(reply, (int) -id);
        } else {
            reply.entry(Inode.of(id), table.timeouts(parent, id, reply.attributes()));
        }
    }

    /** A new name for the node's file, by its /proc/self/fd name (AT_EMPTY_PATH would need CAP_DAC_READ_SEARCH); the entry is the node's. */
    void link(Request request, long ino, long newParent, Name newName, EntryReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        SourceNode p = table.node(newParent);
        MemorySegment name = nativeName(newName, s.path);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        long dir = table.descriptor(p);
        if (dir < 0) {
            table.release(n, d);
            table.fail(reply, (int) -dir);
            return;
        }
        int rc = Libc.linkat(Libc.AT_FDCWD, s.procPath((int) d), (int) dir, name, Libc.AT_SYMLINK_FOLLOW);
        if (rc == 0) {
            rc = Libc.fstatat((int) d, EMPTY, reply.attributes().segment(), Libc.AT_EMPTY_PATH | Libc.AT_SYMLINK_NOFOLLOW);
        }
        table.release(p, dir);
        table.release(n, d);
        if (rc < 0) {
            table.fail(reply, -rc);
            return;
        }
        seen(n, p, newName);
        reply.entry(n, table.timeouts(p, n, reply.attributes()));
    }

    void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        removeName(parent, name, 0, reply);
    }

    void rmdir(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        removeName(parent, name, Libc.AT_REMOVEDIR, reply);
    }

    private void removeName(long parent, Name name, int flags, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = table.node(parent);
        MemorySegment n = nativeName(name, s.path);
        long dir = table.descriptor(p);
        if (dir < 0) {
            table.fail(reply, (int) -dir);
            return;
        }
        SourceNode kept = keepIfLastName(s, (int) dir, n);
        int rc = Libc.unlinkat((int) dir, n, flags);
        if (rc < 0 && kept != null) {
            table.descriptors.unkeep(kept);
        }
        table.release(p, dir);
        table.answer(rc, reply);
    }

    /**
     * Before {@code name} in the directory open at {@code dir} loses its file, if it is that
     * file's last name (a directory's only one): the file's node, if any, keeps its descriptor
     * until the kernel forgets it, since nothing could open the file again (its data lives as
     * long as a descriptor does), and the kernel may still ask about it (a client's O_PATH
     * descriptor, a working directory). Returns the node if this kept it, for {@link
     * NodeDescriptors#unkeep} should the name stay after all.
     */
    private SourceNode keepIfLastName(Scratch s, int dir, MemorySegment name) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstatat(dir, name, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0
                || (st.mode() & Posix.S_IFMT) != Posix.S_IFDIR && st.nlink() > 1) {
            return null;
        }
        SourceNode n = table.find(st);
        if (n == null) {
            return null;
        }
        long d = table.descriptor(n);
        if (d < 0) {
            return null;
        }
        boolean kept = table.descriptors.keep(n);
        table.release(n, d);
        return kept ? n : null;
    }

    /**
     * A file that a rename replaces keeps its node's descriptor as an unlinked one does; the
     * nodes renamed are seen under their new names after (for opening them again by name).
     */
    void rename(Request request, long parent, Name name, long newParent, Name newName, int flags,
            EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode p = table.node(parent);
        SourceNode np = table.node(newParent);
        MemorySegment from = nativeName(name, s.path);
        MemorySegment to = nativeName(newName, s.path2);
        long dir = table.descriptor(p);
        if (dir < 0) {
            table.fail(reply, (int) -dir);
            return;
        }
        long newDir = table.descriptor(np);
        if (newDir < 0) {
            table.release(p, dir);
            table.fail(reply, (int) -newDir);
            return;
        }
        try {
            boolean exchange = (flags & Posix.RENAME_EXCHANGE) != 0;
            SourceNode kept = exchange ? null : keepIfLastName(s, (int) newDir, to);
            int rc = Libc.renameat2((int) dir, from, (int) newDir, to, flags);
            if (rc < 0 && kept != null) {
                table.descriptors.unkeep(kept);
            }
            if (rc == 0) {
                seenAt(s, (int) newDir, to, np, newName);
                if (exchange) {
                    seenAt(s, (int) dir, from, p, name);
                }
            }
            table.answer(rc, reply);
        } finally {
            table.release(np, newDir);
            table.release(p, dir);
        }
    }

    /** The node of what is {@code name} in {@code parent} (open at {@code dir}) now, if any, is seen there. */
    private void seenAt(Scratch s, int dir, MemorySegment nativeName, SourceNode parent, Name name) {
        Stat st = Stat.over(s.stat());
        if (Libc.fstatat(dir, nativeName, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0) {
            return;
        }
        SourceNode n = table.find(st);
        if (n != null) {
            seen(n, parent, name);
        }
    }
}
