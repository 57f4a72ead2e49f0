package dev.fusepanama.vault;

import static dev.fusepanama.Posix.O_CLOEXEC;
import static dev.fusepanama.Posix.O_DIRECTORY;
import static dev.fusepanama.Posix.O_NOFOLLOW;
import static dev.fusepanama.Posix.O_RDONLY;
import static dev.fusepanama.Posix.SEEK_SET;
import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.inode.InodeFileSystem.NO_HANDLE;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;
import static dev.fusepanama.vault.CipherDir.DOT;
import static dev.fusepanama.vault.CipherDir.DOT_DOT;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.vault.VaultFileSystem.CACHE;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.vault.CipherDir.Place;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The vault's open directories: opendir reads and decrypts the whole listing once (a
 * {@link Listing}), readdir and readdirplus answer from it by position, and a rewind reads it
 * again, as a kernel filesystem shows what changed meanwhile. Apart from {@link VaultFileSystem}
 * because listing is one idea with its own state, the listing kept with each open directory.
 */
final class Directories {
    private final VaultFileSystem fs;

    Directories(VaultFileSystem fs) {
        this.fs = fs;
    }

    void opendir(Request request, long ino, int flags, OpenReply reply) throws ErrnoException {
        ThreadBuffers s = fs.scratch();
        Node n = fs.directory(ino);
        int fd;
        if (n == fs.rootNode) {
            fd = check(Libc.openat(fs.store.rootFd, cString(s.path2, DOT), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0));
        } else {
            Place at = fs.store.named(s, n);
            try {
                fd = check(Libc.openat(at.dfd(), cString(s.path2, at.stored()),
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0));
            } finally {
                fs.store.closeDir(s, at.dfd());
            }
        }
        Listing listing;
        try {
            listing = fs.store.list(s, n, fd);
        } catch (ErrnoException e) {
            Libc.close(fd);
            throw e;
        }
        long fh = fs.openFiles.register(new OpenFile(n, fd, listing));
        if (!reply.open(fh, 0)) fs.openFiles.closeHandle(fh);
    }

    /**
     * The entries of the open directory {@code h} for a read from {@code offset}: read again from
     * the fs.store at a rewind (a second read from offset 0), as a kernel filesystem shows what was
     * added or removed meanwhile.
     */
    private List<Listing.Entry> entries(OpenFile h, long offset) throws ErrnoException {
        if (offset == 0) {
            if (h.listedFromStart) {
                ThreadBuffers s = fs.scratch();
                check(Libc.lseek(h.fd, 0, SEEK_SET));
                h.listing = fs.store.list(s, h.node, h.fd);
            }
            h.listedFromStart = true;
        }
        return h.listing.entries();
    }

    void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws ErrnoException {
        OpenFile h = fs.handle(fh);
        List<Listing.Entry> entries = entries(h, offset);
        for (long i = offset; i < entries.size() + 2; i++) {
            boolean full;
            // d_ino is the ciphertext inode number, as st_ino is (".." of a removed directory: its own).
            if (i == 0) full = reply.add(DOT, h.node.backingIno, S_IFDIR, 1);
            else if (i == 1) {
                Node parent = fs.table.parent(h.node);
                full = reply.add(DOT_DOT, (parent != null ? parent : h.node).backingIno, S_IFDIR, 2);
            }
            else {
                Listing.Entry e = entries.get((int) i - 2);
                full = reply.add(e.plain(), e.backingIno(), e.type(), i + 1);
            }
            if (full) break;
        }
        reply.send();
    }

    void readdirplus(Request request, long ino, long fh, long size, long offset, DirReply reply) throws ErrnoException {
        ThreadBuffers s = fs.scratch();
        OpenFile h = fs.handle(fh);
        List<Listing.Entry> entries = entries(h, offset);
        for (long i = offset; i < entries.size() + 2; i++) {
            Stat st = reply.attributes();
            if (i < 2) {
                fs.attrs.stat(s, h.node, NO_HANDLE, st);
                if (reply.add(i == 0 ? DOT : DOT_DOT, h.node, CACHE, i + 1)) break;
                continue;
            }
            Listing.Entry e = entries.get((int) i - 2);
            MemorySegment name = cString(s.path, e.stored());
            if (Libc.fstatat(h.fd, name, st.segment(), Libc.AT_SYMLINK_NOFOLLOW) < 0) {
                st.clear();
                continue; // removed since opendir
            }
            Object key;
            try {
                key = fs.keys.of(s, h.fd, name, st.ino());
            } catch (ErrnoException gone) {
                st.clear();
                continue; // removed since the stat
            }
            Node n = fs.nodes.remember(h.node, e.stored(), e.plain(), st, key);
            try {
                fs.attrs.present(s, n, st, h.fd, name);
            } catch (ErrnoException bad) {
                st.clear();
                continue;
            }
            if (reply.add(e.plain(), n, CACHE, i + 1)) break; // full; the library counts what the batch takes
        }
        reply.send();
    }
}
