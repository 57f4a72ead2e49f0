package dev.fusepanama.nio;

import static dev.fusepanama.inode.InodeFileSystem.NO_HANDLE;
import static dev.fusepanama.inode.InodeFileSystem.SET_ATIME;
import static dev.fusepanama.inode.InodeFileSystem.SET_ATIME_NOW;
import static dev.fusepanama.inode.InodeFileSystem.SET_GID;
import static dev.fusepanama.inode.InodeFileSystem.SET_MODE;
import static dev.fusepanama.inode.InodeFileSystem.SET_MTIME;
import static dev.fusepanama.inode.InodeFileSystem.SET_MTIME_NOW;
import static dev.fusepanama.inode.InodeFileSystem.SET_SIZE;
import static dev.fusepanama.inode.InodeFileSystem.SET_UID;
import static dev.fusepanama.nio.NioErrors.call;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.SetId;
import dev.fusepanama.nio.NioFileSystem.NioNode;
import dev.fusepanama.nio.OpenFiles.OpenFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * The attributes of a {@link NioFileSystem}'s nodes: read for every call that answers with them,
 * shown to the kernel ({@link #fill}), served by getattr and changed by setattr (truncate,
 * chmod, chown, utimens). Apart because this is where providers differ most from a kernel
 * filesystem (which {@link Attributes.View} holds the permission bits and owners, whether a
 * ctime is kept, who clears set-ID bits), and the rules that make up for it belong together,
 * with the cache of permission bits that spares a posix view its second read.
 */
final class NodeAttributes {
    private final NioFileSystem fs;
    /** Nanoseconds the kernel trusts attributes: also how long permission bits read are reused. */
    private final long timeoutNanos;

    NodeAttributes(NioFileSystem fs) {
        this.fs = fs;
        this.timeoutNanos = fs.options.attributeTimeout().toNanos();
    }

    Attributes attributes(Path p) throws IOException {
        return call(() -> Attributes.read(p, fs.view, fs.realOwners, fs.owner, fs.group));
    }

    /**
     * The attributes of {@code p}, which names {@code known} if the table has a node for it (else
     * null). On a posix view, permission bits read less than the cache timeout ago are taken as
     * they were, and only the basic view is read: within that time the kernel would not have seen
     * a chmod made behind the mount either (see the consistency rule), and a chmod through the
     * mount reads them again ({@link #bitsChanged}).
     */
    Attributes attributes(Path p, NioNode known) throws IOException {
        if (known == null || fs.view != Attributes.View.POSIX) return attributes(p);
        int bits;
        long read;
        int epoch;
        synchronized (known) {
            bits = known.bits;
            read = known.bitsRead;
            epoch = known.bitsEpoch;
        }
        if (read != 0 && System.nanoTime() - read < timeoutNanos) {
            Attributes a = call(() -> Attributes.readKnowingBits(p, bits, fs.owner, fs.group));
            if (a.type() == known.type()) return a;
        }
        Attributes a = attributes(p);
        synchronized (known) {
            if (known.bitsEpoch == epoch) { // else a chmod came meanwhile, and a may predate it
                known.bits = a.mode() & 07777;
                known.bitsRead = System.nanoTime();
            }
        }
        return a;
    }

    /**
     * After a write or truncate through the mount: clears set-ID bits as a local filesystem does
     * ({@link SetId}). The provider writes as this process, which may keep them (root), so the
     * adapter applies the rule itself where files have such bits at all (the unix view). The
     * attributes last sent to the kernel tell whether the file has any, so a file without costs
     * nothing; a file removed while open is left as it is.
     */
    void dataChanged(Request request, NioNode n) throws IOException {
        if (fs.view != Attributes.View.UNIX) return;
        Attributes last = n.last;
        if (last != null && (last.mode() & (Posix.S_ISUID | Posix.S_ISGID)) == 0) return;
        if (fs.table.name(n) == null) return;
        Path p = fs.path(n);
        if (last == null && (attributes(n, p).mode() & (Posix.S_ISUID | Posix.S_ISGID)) == 0) return;
        Attributes now = attributes(n, p);
        int mode = now.mode() & 07777;
        int kept = SetId.afterDataChange(mode, now.gid(), request);
        if (kept != mode) {
            setMode(p, false, kept);
            bitsChanged(n);
            attributes(n, p);
        }
    }

    /** The permission bits of {@code n} were changed, or may have been: the next read asks the provider. */
    static void bitsChanged(NioNode n) {
        if (n == null) return;
        synchronized (n) {
            n.bitsRead = 0;
            n.bitsEpoch++;
        }
    }

    /** {@code n}'s attributes, remembered for when its names are gone and only an open file is left. */
    Attributes attributes(NioNode n, Path p) throws IOException {
        Attributes a = attributes(p, n);
        n.last = a;
        return a;
    }

    /**
     * Fills {@code st} with {@code a} as {@code n}'s. Where the provider keeps no change time
     * (no {@code unix} view: its ctime is the modification time), the last change made through
     * the mount counts too, so chmod, rename and link move ctime as on a kernel filesystem while
     * mounted.
     */
    void fill(NioNode n, Attributes a, Stat st) {
        FileTime changed = n.changed;
        long size = a.size();
        if (!fs.defaultProvider) {
            try {
                long open = fs.openFiles.openSize(n, NO_HANDLE); // a provider may show a file's new size only when it is closed (zipfs)
                if (open >= 0) size = open;
            } catch (IOException failed) {
                // the provider's size stands
            }
        }
        if ((changed != null && changed.compareTo(a.ctime()) > 0) || size != a.size()) {
            a = new Attributes(a.mode(), a.ino(), a.nlink(), a.uid(), a.gid(), a.rdev(), size, a.atime(), a.mtime(),
                    changed != null && changed.compareTo(a.ctime()) > 0 ? changed : a.ctime(), a.fileKey());
        }
        a.fill(st, n.nodeId());
        // As libfuse's path API shows them with -o uid=, gid=, umask= (lib/fuse.c, set_stat).
        if (fs.options.owner() >= 0) st.setUid(fs.options.owner());
        if (fs.options.group() >= 0) st.setGid(fs.options.group());
        if (fs.options.umask() >= 0) st.setMode(a.type() | (0777 & ~fs.options.umask()));
    }

    /** {@code n} changed through the mount now (see {@link #fill}); nothing where the provider keeps ctime. */
    void changed(NioNode n) {
        if (n != null && fs.view != Attributes.View.UNIX) n.changed = FileTime.from(Instant.now());
    }

    void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        NioNode n = fs.node(ino);
        long size = fs.table.name(n) == null && n.last != null ? fs.openFiles.openSize(n, fh) : -1;
        if (size >= 0) {
            // Removed while open: NIO has no fstat, so the last attributes, with the size the channel has now.
            Attributes a = n.last;
            fill(n, new Attributes(a.mode(), a.ino(), 0, a.uid(), a.gid(), a.rdev(), size, a.atime(), a.mtime(), a.ctime(), a.fileKey()), reply.attributes());
        } else {
            fill(n, attributes(n, fs.path(n)), reply.attributes());
        }
        reply.send(fs.timeouts);
    }

    void setattr(Request request, long ino, Stat in, int toSet, long fh, AttrReply reply) throws IOException {
        NioNode n = fs.node(ino);
        OpenFile f = fh == NO_HANDLE ? null : fs.openFiles.find(fh);
        if (f != null && fs.table.name(n) == null && toSet == SET_SIZE) {
            f.dirty = true;
            fs.openFiles.withChannel(f, c -> resize(c, in.size())); // ftruncate of a file removed while open
            changed(n);
            getattr(request, ino, fh, reply);
            return;
        }
        Path p = fs.path(n);
        if ((toSet & SET_SIZE) != 0) {
            if (f != null) {
                f.dirty = true;
                fs.openFiles.withChannel(f, c -> resize(c, in.size()));
            } else {
                call(() -> {
                    try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
                        return resize(c, in.size());
                    }
                });
            }
        }
        if ((toSet & SET_SIZE) != 0) {
            dataChanged(request, n);
        }
        if ((toSet & SET_MODE) != 0) {
            setMode(p, n.isDirectory(), in.mode() & 07777);
            bitsChanged(n);
        }
        if ((toSet & (SET_UID | SET_GID)) != 0) {
            setOwner(p, (toSet & SET_UID) != 0 ? in.uid() : -1, (toSet & SET_GID) != 0 ? in.gid() : -1);
        }
        if ((toSet & (SET_ATIME | SET_MTIME)) != 0) {
            FileTime now = FileTime.from(Instant.now());
            FileTime atime = (toSet & SET_ATIME) == 0 ? null : (toSet & SET_ATIME_NOW) != 0 ? now
                    : FileTime.from(Instant.ofEpochSecond(in.atimeSeconds(), in.atimeNanos()));
            FileTime mtime = (toSet & SET_MTIME) == 0 ? null : (toSet & SET_MTIME_NOW) != 0 ? now
                    : FileTime.from(Instant.ofEpochSecond(in.mtimeSeconds(), in.mtimeNanos()));
            call(() -> {
                Files.getFileAttributeView(p, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setTimes(mtime, atime, null);
                return null;
            });
        }
        changed(n);
        fill(n, attributes(n, p), reply.attributes());
        reply.send(fs.timeouts);
    }

    /** Truncates or extends through {@code c}: a FileChannel only shrinks, so a longer size writes its last byte. */
    private static Void resize(FileChannel c, long size) throws IOException {
        long now = c.size();
        if (size < now) {
            c.truncate(size);
        } else if (size > now) {
            c.write(ByteBuffer.allocate(1), size - 1);
        }
        return null;
    }

    /**
     * chmod: through the unix view (every bit), else posix permissions (no set-ID or sticky bits),
     * else DOS's readonly attribute as vfat sets it ({@link DosMode}), else EPERM.
     */
    private void setMode(Path p, boolean directory, int mode) throws IOException {
        if (fs.view == Attributes.View.UNIX) {
            try {
                Files.setAttribute(p, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
                return;
            } catch (UnsupportedOperationException | IllegalArgumentException | ClassCastException readOnlyView) {
                // jimfs's unix view is read-only: its posix view takes the permission bits
            }
        }
        if (fs.view == Attributes.View.DOS) {
            boolean readOnly = DosMode.readOnlyAfterChmod(directory, mode);
            call(() -> Files.setAttribute(p, "dos:readonly", readOnly, LinkOption.NOFOLLOW_LINKS));
            return;
        }
        if (fs.view == Attributes.View.BASIC || (mode & 07000) != 0) throw new ErrnoException(Errno.EPERM);
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission pp : PosixFilePermission.values()) {
            if ((mode & (0400 >> pp.ordinal())) != 0) perms.add(pp);
        }
        call(() -> Files.setPosixFilePermissions(p, perms));
    }

    /**
     * chown through the unix view (-1: leave as it is). Where the provider's owners are not this
     * machine's users, files belong to the mounting user: a chown to them changes nothing, any
     * other is EPERM, as on a FAT mount.
     */
    void setOwner(Path p, int uid, int gid) throws IOException {
        if (!fs.realOwners) {
            if ((uid == -1 || uid == fs.owner) && (gid == -1 || gid == fs.group)) return;
            throw new ErrnoException(Errno.EPERM);
        }
        try {
            if (uid != -1) Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            if (gid != -1) Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new ErrnoException(Errno.EPERM);
        } catch (IOException e) {
            call(() -> {
                throw e;
            });
        }
    }

    /**
     * A new file as the caller asked: its mode exactly (the process's umask undone) and, as root,
     * the caller's. Returns its attributes, read once more only if something had to change. Only
     * a view with permission bits keeps the mode: a dos view's file starts writable, as vfat's
     * create ignores the mode (and a mkstemp's 0600 is no mode DOS can show).
     */
    Attributes settle(Request request, Path p, int mode) throws IOException {
        Attributes a = attributes(p);
        boolean changed = false;
        boolean bits = fs.view == Attributes.View.UNIX || fs.view == Attributes.View.POSIX;
        // In a set-group-ID directory the store gave the entry the directory's group, and a new
        // directory the bit: both stay, as on a local filesystem.
        boolean inherited = fs.view == Attributes.View.UNIX && setGroupId(p.getParent());
        int wanted = (mode & 07777) | (inherited && a.type() == Posix.S_IFDIR ? Posix.S_ISGID : 0);
        if (bits && (a.mode() & 07777) != wanted) {
            setMode(p, a.type() == Posix.S_IFDIR, wanted);
            changed = true;
        }
        int gid = inherited ? a.gid() : request.gid();
        if (fs.owner == 0 && fs.realOwners && (request.uid() != 0 || gid != 0)) {
            setOwner(p, request.uid(), gid);
            changed = true;
        }
        return changed ? attributes(p) : a;
    }

    /** Whether directory {@code dir} has the set-group-ID bit (unix view). */
    boolean setGroupId(Path dir) throws IOException {
        if (dir == null) return false;
        int mode = call(() -> (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS));
        return (mode & Posix.S_ISGID) != 0;
    }
}
