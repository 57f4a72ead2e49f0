package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EEXIST;
import static dev.fusepanama.Errno.ENOTEMPTY;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.vault.LibcCalls.cString;
import static dev.fusepanama.vault.LibcCalls.ctime;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.libc.Libc;

/**
 * Names the vault removes and moves: unlink, rmdir and rename, each keeping a long name's
 * {@code .name} file in step with the file it names (written before a rename's new name, removed
 * with the old one, as gocryptfs does) and the node table told what changed. Apart from
 * {@link VaultFileSystem}, which creates names, because taking names away has its own order of
 * steps and its own failure cases (a replaced directory that still holds its
 * {@code gocryptfs.diriv}).
 */
final class NameChanges {
    private final VaultFileSystem fs;

    NameChanges(VaultFileSystem fs) {
        this.fs = fs;
    }

    void unlink(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        remove(parent, name, reply, (s, dfd, stored) -> Libc.unlinkat(dfd, cString(s.path, stored), 0));
    }

    void rmdir(Request request, long parent, Name name, EmptyReply reply) throws ErrnoException {
        remove(parent, name, reply, CipherDir::removeEmptyDirectory);
    }

    /** How a stored name is taken out of its cipher directory: 0 or -errno. */
    private interface Removal {
        int remove(ThreadBuffers s, int dfd, byte[] stored);
    }

    /** Takes {@code name} out of directory {@code parent} by {@code removal}, with its long-name file and its node's name. */
    private void remove(long parent, Name name, EmptyReply reply, Removal removal) throws ErrnoException {
        ThreadBuffers s = fs.scratch();
        Node p = fs.directory(parent);
        int dfd = fs.store.openDir(s, p);
        try {
            byte[] stored = fs.store.storedName(s, p, dfd, name);
            check(removal.remove(s, dfd, stored));
            fs.store.removeLongName(s, dfd, stored);
            fs.nodes.unnamed(p, stored);
            reply.ok();
        } finally {
            fs.store.closeDir(s, dfd);
        }
    }

    void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws ErrnoException {
        ThreadBuffers s = fs.scratch();
        Node p = fs.directory(parent);
        Node np = fs.directory(newParent);
        int dfd = fs.store.openDir(s, p);
        try {
            int ndfd = fs.store.openDir(s, np);
            try {
                byte[] stored = fs.store.storedName(s, p, dfd, name);
                byte[] newPlain = newName.bytes();
                byte[] newStored = fs.store.storedName(s, np, ndfd, newPlain);
                fs.changes.announce(newStored);
                boolean longName = fs.store.writeLongName(s, np, ndfd, newStored, newPlain);
                int rc = Libc.renameat2(dfd, cString(s.path, stored), ndfd, cString(s.path2, newStored), flags);
                if ((rc == -ENOTEMPTY || rc == -EEXIST) && flags == 0 && CipherDir.removeEmptyDirectory(s, ndfd, newStored) == 0) {
                    // The "empty" directory replaced still held its gocryptfs.diriv: removed first, as gocryptfs does.
                    rc = Libc.renameat2(dfd, cString(s.path, stored), ndfd, cString(s.path2, newStored), flags);
                }
                if (rc < 0) {
                    if (longName) fs.store.removeLongName(s, ndfd, newStored);
                    throw new ErrnoException(-rc);
                }
                if ((flags & Posix.RENAME_EXCHANGE) == 0) {
                    fs.store.removeLongName(s, dfd, stored);
                }
                long ctime = Libc.fstatat(ndfd, cString(s.path2, newStored), s.stat, Libc.AT_SYMLINK_NOFOLLOW) == 0
                        ? ctime(s.statView) : Long.MIN_VALUE;
                fs.nodes.renamed(p, stored, np, newStored, newPlain, name.bytes(), (flags & Posix.RENAME_EXCHANGE) != 0, ctime);
                reply.ok();
            } finally {
                fs.store.closeDir(s, ndfd);
            }
        } finally {
            fs.store.closeDir(s, dfd);
        }
    }
}
