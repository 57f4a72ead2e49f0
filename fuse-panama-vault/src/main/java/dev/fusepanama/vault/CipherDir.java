package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EIO;
import static dev.fusepanama.Errno.ENAMETOOLONG;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.Errno.ENOTEMPTY;
import static dev.fusepanama.Posix.O_CLOEXEC;
import static dev.fusepanama.Posix.O_CREAT;
import static dev.fusepanama.Posix.O_DIRECTORY;
import static dev.fusepanama.Posix.O_EXCL;
import static dev.fusepanama.Posix.O_NOFOLLOW;
import static dev.fusepanama.Posix.O_PATH;
import static dev.fusepanama.Posix.O_RDONLY;
import static dev.fusepanama.Posix.O_WRONLY;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.FileNames;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.vault.crypto.InvalidNameException;
import dev.fusepanama.vault.crypto.NameCipher;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cipher directory as the vault reads and writes it: where a node's file is (its
 * directory's chain of stored names, opened beneath the top), and the names in it, encrypted
 * under each directory's IV ({@code gocryptfs.diriv}), hashed with a {@code .name} file when
 * too long, and decrypted into listings. The vault's own files there ({@code gocryptfs.conf},
 * the IVs, {@code .name} files) are not files of the mount.
 */
final class CipherDir {
    /** One logger for the whole vault, the one an application configures. */
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    static final int NAME_MAX = 255;
    static final byte[] DIRIV = "gocryptfs.diriv".getBytes(StandardCharsets.US_ASCII);
    static final byte[] CONF = "gocryptfs.conf".getBytes(StandardCharsets.US_ASCII);
    static final byte[] DOT = {'.'};
    static final byte[] DOT_DOT = {'.', '.'};
    static final int DIRIV_LENGTH = 16;
    /** Deeper than this, a directory is refused with ENAMETOOLONG (the kernel's own walks have no such limit; this one guards against a loop). */
    private static final int MAX_DEPTH = 65_536;
    private static final int MAX_REPORTED = 10_000;

    /** The cipher directory's path, for log lines. */
    private final String cipherDir;
    /** The cipher directory's top, open (O_PATH) while the vault is. */
    final int rootFd;
    private final NameCipher names;
    private final NodeTable<Node> table;
    private final Node rootNode;
    /** Names that failed to decrypt and blocks that failed authentication, logged once each (up to a bound). */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    CipherDir(String cipherDir, int rootFd, NameCipher names, NodeTable<Node> table) {
        this.cipherDir = cipherDir;
        this.rootFd = rootFd;
        this.names = names;
        this.table = table;
        this.rootNode = table.root();
    }

    /**
     * A descriptor of the directory {@code dir} in the cipher directory (O_PATH), opened beneath
     * the top without following links: the top's own descriptor for the root. Give it back with
     * {@link #closeDir}. A directory deeper than PATH_MAX allows (encrypted names are longer
     * than plain ones) is reached in steps, each from the last step's descriptor, as gocryptfs
     * works relative to directory descriptors.
     */
    int openDir(ThreadBuffers s, Node dir) throws ErrnoException {
        if (dir == rootNode) return rootFd;
        List<String> parts = cipherNames(dir);
        MemorySegment how = s.small;
        int from = rootFd;
        int next = 0;
        try {
            while (next < parts.size()) {
                long at = 0;
                int first = next;
                while (next < parts.size() && at + parts.get(next).length() + 1 < Scratch.PATH_MAX) {
                    String p = parts.get(next);
                    if (next > first) s.path.set(JAVA_BYTE, at++, (byte) '/');
                    for (int c = 0; c < p.length(); c++) s.path.set(JAVA_BYTE, at++, (byte) p.charAt(c));
                    next++;
                }
                if (next == first) throw new ErrnoException(ENAMETOOLONG);
                s.path.set(JAVA_BYTE, at, (byte) 0);
                how.set(JAVA_LONG, 0, O_PATH | O_DIRECTORY | O_CLOEXEC);
                how.set(JAVA_LONG, 8, 0);
                how.set(JAVA_LONG, 16, Libc.RESOLVE_BENEATH | Libc.RESOLVE_NO_SYMLINKS | Libc.RESOLVE_NO_MAGICLINKS);
                int rc;
                int tries = 0;
                // EAGAIN: a rename elsewhere raced with the resolution.
                while ((rc = Libc.openat2(from, s.path, how)) == -Errno.EAGAIN && ++tries < 8) {
                    Thread.onSpinWait();
                }
                check(rc);
                closeDir(s, from);
                from = rc;
            }
            int fd = from;
            from = rootFd;
            return fd;
        } finally {
            closeDir(s, from);
        }
    }

    void closeDir(ThreadBuffers s, int fd) {
        if (fd != rootFd && fd >= 0) Libc.close(fd);
    }

    /** The stored names from the top down to {@code dir}, read as one consistent path whatever is renamed meanwhile. */
    List<String> cipherNames(Node dir) throws ErrnoException {
        List<String> parts = shared(() -> {
            List<String> names = new ArrayList<>();
            // A loop, which no rename can make, would end here too.
            for (Node n = dir; n != rootNode && names.size() <= MAX_DEPTH; ) {
                dev.fusepanama.inode.table.Node.Link l = table.name(n); // full name: the vault's own Node is another
                if (l == null) return null; // removed
                names.add(l.name());
                n = (Node) l.parent();
            }
            return names;
        });
        if (parts == null) throw new ErrnoException(ENOENT);
        if (parts.size() > MAX_DEPTH) throw new ErrnoException(ENAMETOOLONG);
        Collections.reverse(parts);
        return parts;
    }

    /**
     * The plaintext path of {@code n} in the mount, for log lines: from the names the vault last
     * gave or learnt ({@link Node#named}), without the table's lock, so that it may be called
     * holding a node's content lock.
     */
    String plainPath(Node n) {
        StringBuilder b = new StringBuilder();
        for (Node x = n; x != rootNode && b.length() < Scratch.PATH_MAX; ) {
            Node.Named at = x.named;
            b.insert(0, at == null ? "(removed)" : FileNames.fromBytes(at.plain())).insert(0, '/');
            if (at == null) break;
            x = at.parent();
        }
        return b.isEmpty() ? "/" : b.toString();
    }

    /** The IV of directory {@code dir} (open as {@code dfd}), read from its gocryptfs.diriv once. */
    byte[] dirIv(ThreadBuffers s, Node dir, int dfd) throws ErrnoException {
        byte[] iv = dir.dirIv;
        if (iv != null) return iv;
        int fd = Libc.openat(dfd, cString(s.path2, DIRIV), O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0) {
            LOG.error("vault {}: directory {} has no readable gocryptfs.diriv ({}): its names cannot be decrypted",
                    cipherDir, plainPath(dir), Errno.name(-fd));
            throw new ErrnoException(EIO);
        }
        try {
            long n = Libc.pread(fd, s.small, DIRIV_LENGTH + 1, 0);
            if (n != DIRIV_LENGTH) {
                LOG.error("vault {}: gocryptfs.diriv of {} has {} bytes, not {}", cipherDir, plainPath(dir), n, DIRIV_LENGTH);
                throw new ErrnoException(EIO);
            }
            iv = s.small.asSlice(0, DIRIV_LENGTH).toArray(JAVA_BYTE);
        } finally {
            Libc.close(fd);
        }
        dir.dirIv = iv;
        return iv;
    }

    /** The name {@code plain} has in the cipher directory {@code dir}: encrypted, hashed if too long. */
    byte[] storedName(ThreadBuffers s, Node dir, int dfd, byte[] plain) throws ErrnoException {
        if (plain.length > NAME_MAX) throw new ErrnoException(ENAMETOOLONG);
        return names.diskName(names.encrypt(plain, dirIv(s, dir, dfd)));
    }

    byte[] storedName(ThreadBuffers s, Node dir, int dfd, Name plain) throws ErrnoException {
        if (plain.length() > NAME_MAX) throw new ErrnoException(ENAMETOOLONG);
        return storedName(s, dir, dfd, plain.bytes());
    }

    /**
     * Before a long name is created: writes its {@code .name} file holding the full encrypted
     * name, as gocryptfs does. Returns whether it made one (to remove if the creation fails).
     */
    boolean writeLongName(ThreadBuffers s, Node dir, int dfd, byte[] stored, byte[] plain) throws ErrnoException {
        if (!NameCipher.isLongName(stored)) return false;
        byte[] encrypted = names.encrypt(plain, dirIv(s, dir, dfd));
        int fd = Libc.openat(dfd, cString(s.path2, NameCipher.longNameFileFor(stored)),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
        if (fd == -Errno.EEXIST) return false; // the same name's, from a file already there
        check(fd);
        try {
            MemorySegment.copy(encrypted, 0, s.cipher, JAVA_BYTE, 0, encrypted.length);
            long n = Libc.write(fd, s.cipher, encrypted.length);
            if (n != encrypted.length) {
                Libc.unlinkat(dfd, s.path2, 0);
                throw new ErrnoException(n < 0 ? (int) -n : EIO);
            }
        } finally {
            Libc.close(fd);
        }
        return true;
    }

    /** Removes the {@code .name} file of a long name, if it is one. */
    void removeLongName(ThreadBuffers s, int dfd, byte[] stored) {
        if (NameCipher.isLongName(stored)) {
            Libc.unlinkat(dfd, cString(s.path2, NameCipher.longNameFileFor(stored)), 0);
        }
    }

    /** The plaintext of {@code name} in {@code dir}, or null if it does not decrypt. */
    byte[] decryptName(ThreadBuffers s, Node dir, int dfd, byte[] name) throws ErrnoException {
        byte[] encrypted = name;
        if (NameCipher.isLongName(name)) {
            encrypted = readLongName(s, dir, dfd, name);
            if (encrypted == null) return null;
        }
        try {
            return names.decrypt(encrypted, dirIv(s, dir, dfd));
        } catch (InvalidNameException bad) {
            return null;
        }
    }

    /** Where a node is named, with its directory opened: for the operations that act on the node by name. */
    record Place(Node dir, String stored, int dfd) {}

    /** {@code n}'s first name with its directory opened (give it back with {@link #closeDir}), or null if it has none left. */
    Place place(ThreadBuffers s, Node n) throws ErrnoException {
        dev.fusepanama.inode.table.Node.Link l = table.name(n); // full name: the vault's own Node is another
        if (l == null) return null;
        Node dir = (Node) l.parent();
        return new Place(dir, l.name(), openDir(s, dir));
    }

    /** As {@link #place}, failing with ENOENT for a node with no name left. */
    Place named(ThreadBuffers s, Node n) throws ErrnoException {
        Place at = place(s, n);
        if (at == null) throw new ErrnoException(ENOENT);
        return at;
    }

    /** Creates {@code name} in {@code dirfd} exclusively with {@code data}: 0 or -errno (nothing left behind on failure). */
    static int writeNew(ThreadBuffers s, int dirfd, byte[] name, byte[] data, int mode) {
        MemorySegment n = cString(s.path2, name);
        int fd = Libc.openat(dirfd, n, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0) return fd;
        MemorySegment.copy(data, 0, s.small, JAVA_BYTE, 0, data.length);
        long w = Libc.write(fd, s.small, data.length);
        Libc.close(fd);
        if (w != data.length) {
            Libc.unlinkat(dirfd, n, 0);
            return w < 0 ? (int) w : -EIO;
        }
        return 0;
    }

    /**
     * Removes the directory {@code stored} in {@code dfd} if it holds nothing but its
     * gocryptfs.diriv (which is put back if the removal fails after all): 0 or -errno.
     */
    static int removeEmptyDirectory(ThreadBuffers s, int dfd, byte[] stored) {
        int fd = Libc.openat(dfd, cString(s.path, stored), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0) return fd;
        try {
            boolean hasIv = false;
            for (byte[] entry : rawNames(s, fd)) {
                if (!Arrays.equals(entry, DIRIV)) return -ENOTEMPTY;
                hasIv = true;
            }
            byte[] iv = null;
            if (hasIv) {
                int ivFd = Libc.openat(fd, cString(s.path2, DIRIV), O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
                if (ivFd >= 0) {
                    if (Libc.pread(ivFd, s.small, DIRIV_LENGTH, 0) == DIRIV_LENGTH) {
                        iv = s.small.asSlice(0, DIRIV_LENGTH).toArray(JAVA_BYTE);
                    }
                    Libc.close(ivFd);
                }
                int rc = Libc.unlinkat(fd, cString(s.path2, DIRIV), 0);
                if (rc < 0) return rc;
            }
            int rc = Libc.unlinkat(dfd, cString(s.path, stored), Libc.AT_REMOVEDIR);
            if (rc < 0 && iv != null) writeNew(s, fd, DIRIV, iv, 0444); // put it back: the directory stays
            return rc;
        } catch (ErrnoException e) {
            return -e.errno();
        } finally {
            Libc.close(fd);
        }
    }

    /** The raw names in the open directory {@code fd}, without "." and "..". */
    static List<byte[]> rawNames(ThreadBuffers s, int fd) throws ErrnoException {
        List<byte[]> out = new ArrayList<>();
        Libc.lseek(fd, 0, Posix.SEEK_SET);
        Dirents d = s.dirents;
        while (check(d.read(fd)) > 0) {
            while (d.next()) {
                if (!d.isDotOrDotDot()) out.add(d.name());
            }
        }
        return out;
    }

    /** The decrypted listing of directory {@code dir}, open as {@code fd}. */
    Listing list(ThreadBuffers s, Node dir, int fd) throws ErrnoException {
        byte[] iv = dirIv(s, dir, fd);
        List<Listing.Entry> entries = new ArrayList<>();
        Dirents d = s.dirents;
        // Nothing in the loop reads a directory: a long name's .name file is read into s.cipher.
        while (check(d.read(fd)) > 0) {
            while (d.next()) {
                byte[] stored = d.name();
                if (hidden(dir, stored)) continue;
                byte[] encrypted = stored;
                if (NameCipher.isLongName(stored)) {
                    encrypted = readLongName(s, dir, fd, stored);
                    if (encrypted == null) continue;
                }
                byte[] plain;
                try {
                    plain = names.decrypt(encrypted, iv);
                } catch (InvalidNameException bad) {
                    undecryptable(dir, stored, bad.getMessage());
                    continue;
                }
                entries.add(new Listing.Entry(plain, stored, d.ino(), d.type() << 12));
            }
        }
        return new Listing(entries);
    }

    /** The vault's own files, which are not files of the mount. */
    boolean hidden(Node dir, byte[] stored) {
        if (Arrays.equals(stored, DOT) || Arrays.equals(stored, DOT_DOT) || Arrays.equals(stored, DIRIV)) return true;
        if (dir == rootNode && Arrays.equals(stored, CONF)) return true;
        return NameCipher.isLongNameFile(stored);
    }

    byte[] readLongName(ThreadBuffers s, Node dir, int fd, byte[] stored) throws ErrnoException {
        int nfd = Libc.openat(fd, cString(s.path2, NameCipher.longNameFileFor(stored)), O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (nfd < 0) {
            undecryptable(dir, stored, "its .name file is missing (" + Errno.name(-nfd) + ")");
            return null;
        }
        try {
            long n = check(Libc.pread(nfd, s.cipher, Scratch.PATH_MAX, 0));
            return s.cipher.asSlice(0, n).toArray(JAVA_BYTE);
        } finally {
            Libc.close(nfd);
        }
    }

    void undecryptable(Node dir, byte[] stored, String why) {
        String cipherName = new String(stored, StandardCharsets.ISO_8859_1);
        if (reportOnce(dir.backingIno + "/" + cipherName)) {
            LOG.warn("vault {}: name {} in {} does not decrypt ({}): left out of the listing", cipherDir, cipherName,
                    plainPath(dir), why);
        }
    }

    /** The top directory's node. */
    Node rootNode() {
        return rootNode;
    }

    /** Runs {@code section} under the table's shared lock: no name changes meanwhile. */
    private <T> T shared(Supplier<T> section) {
        try {
            return table.read(section::get);
        } catch (IOException e) {
            throw new IllegalStateException(e); // a Supplier throws none
        }
    }

    /** Whether {@code what} (a name that does not decrypt, a block that fails authentication) is logged now: once each, up to a bound. */
    boolean reportOnce(String what) {
        return reported.size() < MAX_REPORTED && reported.add(what);
    }
}
