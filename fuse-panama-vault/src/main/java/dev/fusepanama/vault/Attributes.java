package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EIO;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.inode.InodeFileSystem.SET_ATIME;
import static dev.fusepanama.inode.InodeFileSystem.SET_ATIME_NOW;
import static dev.fusepanama.inode.InodeFileSystem.SET_GID;
import static dev.fusepanama.inode.InodeFileSystem.SET_MODE;
import static dev.fusepanama.inode.InodeFileSystem.SET_MTIME;
import static dev.fusepanama.inode.InodeFileSystem.SET_MTIME_NOW;
import static dev.fusepanama.inode.InodeFileSystem.SET_UID;
import static dev.fusepanama.Posix.S_IFLNK;
import static dev.fusepanama.Posix.S_IFREG;
import static dev.fusepanama.Posix.S_ISGID;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;
import static dev.fusepanama.vault.LibcCalls.ctime;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.SetId;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.vault.CipherDir.Place;
import dev.fusepanama.vault.crypto.ContentCipher;
import dev.fusepanama.vault.crypto.CorruptDataException;
import java.lang.foreign.MemorySegment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file's attributes as the mount shows them: the ciphertext file's, with the plaintext's size
 * (a regular file's from its ciphertext size, a symbolic link's from its decrypted target), and
 * changes to them made on the ciphertext file (mode, owner, times; set-ID bits cleared after a
 * write as a local filesystem clears them; a new file's owner when the vault runs as root).
 */
final class Attributes {
    /** One logger for the whole vault, the one an application configures. */
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    private final String cipherDir;
    private final ContentCipher content;
    private final CipherDir store;
    private final OpenFiles openFiles;
    private final Node rootNode;
    private final boolean root;

    Attributes(String cipherDir, ContentCipher content, CipherDir store, OpenFiles openFiles, boolean root) {
        this.cipherDir = cipherDir;
        this.content = content;
        this.store = store;
        this.openFiles = openFiles;
        this.rootNode = store.rootNode();
        this.root = root;
    }

    /** Turns the ciphertext file's attributes in {@code st} into the plaintext file's. */
    void present(ThreadBuffers s, Node n, Stat st, int dfd, MemorySegment storedName) throws ErrnoException {
        n.seenCtime = ctime(st);
        if (n.type() == S_IFREG) {
            if (!ContentCipher.isValidCipherSize(st.size())) reportCutShort(n, st.size());
            st.setSize(ContentCipher.plainSize(st.size())); // gocryptfs's guess for a size it cannot have written
        } else if (n.type() == S_IFLNK) {
            st.setSize(target(s, n, dfd, storedName).length);
        }
    }

    /**
     * Logs once that {@code n}'s ciphertext file has a size no gocryptfs file can have (cut short
     * by a crash, a sync client or a full disk): it is listed with gocryptfs's guess of its size,
     * and opening or reading it answers EIO until it is truncated.
     */
    void reportCutShort(Node n, long cipherSize) {
        if (store.reportOnce(n.backingIno + " size " + cipherSize)) {
            LOG.error("vault {}: {} has a ciphertext size ({}) no gocryptfs file can have (cut short?): it answers EIO"
                    + " until it is truncated", cipherDir, store.plainPath(n), cipherSize);
        }
    }

    /**
     * Records the ctime the open file has after the vault changed it (under its content write
     * lock), leaving its {@code struct stat} in {@code s.stat}; false if it could not be read.
     */
    static boolean seen(ThreadBuffers s, OpenFile h) {
        if (Libc.fstat(h.fd, s.stat) != 0) return false;
        h.node.seenCtime = ctime(s.statView);
        return true;
    }

    /** A symbolic link's decrypted target, read once. */
    byte[] target(ThreadBuffers s, Node n, int dfd, MemorySegment storedName) throws ErrnoException {
        byte[] t = n.target;
        if (t != null) return t;
        long len = check(Libc.readlinkat(dfd, storedName, s.cipher, Scratch.PATH_MAX));
        byte[] encrypted = s.cipher.asSlice(0, len).toArray(JAVA_BYTE);
        try {
            t = content.decryptSymlink(encrypted);
        } catch (CorruptDataException e) {
            LOG.error("vault {}: the target of symbolic link {} fails authentication", cipherDir, store.plainPath(n));
            throw new ErrnoException(EIO);
        }
        n.target = t;
        return t;
    }

    /** Fills {@code st} with the attributes of {@code n} as the mount shows them. */
    void stat(ThreadBuffers s, Node n, long fh, Stat st) throws ErrnoException {
        OpenFile h = openFiles.given(n, fh);
        Place at = n == rootNode || h != null ? null : store.place(s, n);
        try {
            stat(s, n, h, at, st);
        } finally {
            if (at != null) store.closeDir(s, at.dfd());
        }
    }

    /**
     * Fills {@code st} with the attributes of {@code n}: through its handle {@code h} if given,
     * else by its name {@code at} (null: none left), else through any open handle.
     */
    void stat(ThreadBuffers s, Node n, OpenFile h, Place at, Stat st) throws ErrnoException {
        if (n == rootNode) {
            check(Libc.fstatat(store.rootFd, cString(s.path2, new byte[0]), st.segment(), Libc.AT_EMPTY_PATH));
            return;
        }
        if (h != null) {
            check(Libc.fstat(h.fd, st.segment()));
            present(s, n, st, -1, null);
            return;
        }
        int rc = -ENOENT;
        if (at != null) {
            MemorySegment name = cString(s.path2, at.stored());
            rc = Libc.fstatat(at.dfd(), name, st.segment(), Libc.AT_SYMLINK_NOFOLLOW);
            if (rc == 0) {
                present(s, n, st, at.dfd(), name);
                return;
            }
        }
        OpenFile any = openFiles.borrow(n); // an open file whose names are gone
        if (any == null) throw new ErrnoException(-rc);
        try {
            check(Libc.fstat(any.fd, st.segment()));
        } finally {
            any.letGo();
        }
        present(s, n, st, -1, null);
    }

    /**
     * Files created for another user by a vault that runs as root belong to that user and its
     * group, or in a set-group-ID directory to the directory's group, as on a local filesystem
     * (the store gave the file that group already: a chown to the caller's would undo it).
     */
    void own(ThreadBuffers s, Request request, int dfd, MemorySegment name) {
        int gid = groupOfNewEntry(s, request, dfd);
        if (root && (request.uid() != 0 || gid != 0)) {
            Libc.fchownat(dfd, name, request.uid(), gid, Libc.AT_SYMLINK_NOFOLLOW);
        }
    }

    /** The group a new entry of directory {@code dfd} gets: the directory's if it is set-group-ID, else the caller's. */
    private static int groupOfNewEntry(ThreadBuffers s, Request request, int dfd) {
        return setGroupId(s, dfd) ? s.statView.gid() : request.gid();
    }

    /**
     * Whether directory {@code dfd} is set-group-ID (its new subdirectories are too), leaving its
     * {@code struct stat} in {@code s.stat}.
     */
    static boolean setGroupId(ThreadBuffers s, int dfd) {
        return Libc.fstat(dfd, s.stat) == 0 && (s.statView.mode() & S_ISGID) != 0;
    }

    /** chmod, chown, utimens of {@code name} in {@code dirfd}, following a last link only for a /proc link ({@code follow}). */
    static void change(ThreadBuffers s, int dirfd, MemorySegment name, boolean follow, Stat a, int toSet) throws ErrnoException {
        int nofollow = follow ? 0 : Libc.AT_SYMLINK_NOFOLLOW;
        if ((toSet & SET_MODE) != 0) {
            check(Libc.fchmodat(dirfd, name, a.mode() & 07777, 0));
        }
        if ((toSet & (SET_UID | SET_GID)) != 0) {
            check(Libc.fchownat(dirfd, name, (toSet & SET_UID) != 0 ? a.uid() : -1,
                    (toSet & SET_GID) != 0 ? a.gid() : -1, nofollow));
        }
        if ((toSet & (SET_ATIME | SET_MTIME)) != 0) {
            MemorySegment times = s.small.asSlice(0, 32);
            times.set(JAVA_LONG, 0, a.atimeSeconds());
            times.set(JAVA_LONG, 8, time(toSet, SET_ATIME, SET_ATIME_NOW, a.atimeNanos()));
            times.set(JAVA_LONG, 16, a.mtimeSeconds());
            times.set(JAVA_LONG, 24, time(toSet, SET_MTIME, SET_MTIME_NOW, a.mtimeNanos()));
            check(Libc.utimensat(dirfd, name, times, nofollow));
        }
    }

    /** A timespec's nanoseconds for utimensat(2): UTIME_OMIT, UTIME_NOW or the time given. */
    private static long time(int toSet, int set, int now, long nanos) {
        final long utimeNow = (1L << 30) - 1;
        final long utimeOmit = (1L << 30) - 2;
        return (toSet & set) == 0 ? utimeOmit : (toSet & now) != 0 ? utimeNow : nanos;
    }

    /**
     * After a write or truncate by {@code request}: clears set-ID bits as a local filesystem does
     * ({@link SetId}), on the ciphertext file, which carries the plaintext's mode. The kernel
     * leaves this to the vault with {@code handle_killpriv_v2}, and without it applies an older
     * rule (set-group-ID only beside group-execute). Under the content lock; true if it changed the mode.
     */
    boolean dataChanged(ThreadBuffers s, Request request, OpenFile h, Place at) throws ErrnoException {
        int rc = h != null ? Libc.fstat(h.fd, s.stat)
                : Libc.fstatat(at.dfd(), cString(s.path2, at.stored()), s.stat, Libc.AT_SYMLINK_NOFOLLOW);
        if (rc != 0) return false;
        int mode = s.statView.mode() & 07777;
        int kept = SetId.afterDataChange(mode, s.statView.gid(), request);
        if (kept == mode) return false;
        check(h != null ? Libc.fchmod(h.fd, kept) : Libc.fchmodat(at.dfd(), cString(s.path2, at.stored()), kept, 0));
        return true;
    }
}
