package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EINVAL;
import static dev.fusepanama.Errno.EIO;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.Errno.ERANGE;
import static dev.fusepanama.vault.CipherDir.NAME_MAX;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.libc.Scratch.cString;
import static dev.fusepanama.vault.LibcCalls.cString;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.inode.Name;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Xattr;
import dev.fusepanama.vault.CipherDir.Place;
import dev.fusepanama.vault.crypto.ContentCipher;
import dev.fusepanama.vault.crypto.CorruptDataException;
import dev.fusepanama.vault.crypto.InvalidNameException;
import dev.fusepanama.vault.crypto.NameCipher;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extended attributes of the vault's files, kept on the ciphertext files as gocryptfs keeps
 * them: names encrypted ({@link NameCipher#encryptXattrName}), values encrypted and
 * authenticated, POSIX ACLs unencrypted so that the kernel below can enforce them. Only the
 * namespaces the kernel's own filesystems know are accepted.
 */
final class Xattrs {
    /** One logger for the whole vault, the one an application configures. */
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    private static final byte[] ACL_ACCESS = "system.posix_acl_access".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ACL_DEFAULT = "system.posix_acl_default".getBytes(StandardCharsets.US_ASCII);
    /** The largest value (or list) the kernel passes: XATTR_SIZE_MAX, and its encryption's overhead. */
    private static final int XATTR_MAX = 65536 + ContentCipher.BLOCK_OVERHEAD;
    private static final byte[] SECURITY_CAPABILITY = "security.capability".getBytes(StandardCharsets.US_ASCII);
    private static final long ST_NOSUID = 2;

    private final String cipherDir;
    private final NameCipher names;
    private final ContentCipher content;
    private final CipherDir store;
    private final OpenFiles openFiles;
    private final Node rootNode;
    /** Set once mounted nosuid: {@code security.capability} then means nothing and is not looked up. */
    private volatile boolean capabilitiesIgnored;

    Xattrs(String cipherDir, NameCipher names, ContentCipher content, CipherDir store, OpenFiles openFiles) {
        this.cipherDir = cipherDir;
        this.names = names;
        this.content = content;
        this.store = store;
        this.openFiles = openFiles;
        this.rootNode = store.rootNode();
    }

    /** The vault is mounted at {@code mountpoint}: whether file capabilities apply there. */
    void mountedAt(Path mountpoint) {
        capabilitiesIgnored = mountedNosuid(mountpoint);
    }

    /** Whether the filesystem at {@code mountpoint} is mounted nosuid (statvfs's ST_NOSUID), where file capabilities do not apply. */
    private static boolean mountedNosuid(Path mountpoint) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(112, 8);
            int rc = Libc.statvfs(a.allocateFrom(mountpoint.toString()), buf);
            return rc == 0 && (buf.get(JAVA_LONG, 72) & ST_NOSUID) != 0;
        }
    }

    /**
     * Whether a getxattr of {@code name} is answered EOPNOTSUPP without looking: the kernel asks
     * for {@code security.capability} before every write, to clear it; on a nosuid mount it
     * grants nothing, so answer at once, as gocryptfs does without -suid (its issue 515).
     */
    boolean capabilityIgnored(Name name) {
        return capabilitiesIgnored && name.is(SECURITY_CAPABILITY);
    }

    /** POSIX ACLs, which gocryptfs keeps unencrypted so that the kernel below can enforce them. */
    private static boolean isAcl(byte[] name) {
        return Arrays.equals(name, ACL_ACCESS) || Arrays.equals(name, ACL_DEFAULT);
    }

    /**
     * Where the xattr calls reach the ciphertext file of {@code n}: a path through /proc to its
     * directory's descriptor and its name (not following a final link), the top's descriptor, or
     * an open descriptor of a file with no name left. Release with {@link #done}.
     */
    private record XattrTarget(MemorySegment path, boolean follow, int dfd, OpenFile borrowed) {}

    private XattrTarget xattrTarget(ThreadBuffers s, Node n) throws ErrnoException {
        if (n == rootNode) return new XattrTarget(s.procPath(store.rootFd), true, -1, null);
        Place at = store.place(s, n);
        if (at != null) {
            return new XattrTarget(cString(s.path, "/proc/self/fd/" + at.dfd() + "/" + at.stored()), false, at.dfd(), null);
        }
        OpenFile any = openFiles.borrow(n);
        if (any == null) throw new ErrnoException(ENOENT);
        return new XattrTarget(s.procPath(any.fd), true, -1, any);
    }

    private static boolean hasPrefix(byte[] name, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        return name.length > p.length && Arrays.equals(name, 0, p.length, p, 0, p.length);
    }

    private void done(ThreadBuffers s, XattrTarget t) {
        store.closeDir(s, t.dfd());
        if (t.borrowed() != null) t.borrowed().letGo();
    }

    /**
     * The stored name of the attribute {@code name}. Namespaces the kernel's filesystems do not
     * know answer EOPNOTSUPP, as there (gocryptfs would store them: a vault it wrote still lists them).
     */
    private byte[] storedXattrName(Name name) throws ErrnoException {
        byte[] plain = name.bytes();
        if (isAcl(plain)) return plain;
        if (!hasPrefix(plain, "user.") && !hasPrefix(plain, "trusted.") && !hasPrefix(plain, "security.")) {
            throw new ErrnoException(Errno.EOPNOTSUPP);
        }
        try {
            return names.encryptXattrName(plain);
        } catch (IllegalArgumentException e) {
            throw new ErrnoException(plain.length > NAME_MAX ? ERANGE : EINVAL);
        }
    }

    /** Sets attribute {@code name} of {@code n}'s file to {@code value}, both encrypted (a POSIX ACL as it is). */
    void set(ThreadBuffers s, Node n, Name name, ByteBuffer value, int flags) throws ErrnoException {
        byte[] stored = storedXattrName(name);
        byte[] plain = new byte[value.remaining()];
        value.get(value.position(), plain);
        byte[] encrypted = isAcl(stored) ? plain : content.encryptXattrValue(plain);
        XattrTarget t = xattrTarget(s, n);
        try {
            MemorySegment.copy(encrypted, 0, s.cipher, JAVA_BYTE, 0, encrypted.length);
            MemorySegment nameSeg = cString(s.path2, stored);
            check(t.follow() ? Xattr.setxattr(t.path(), nameSeg, s.cipher, encrypted.length, flags)
                    : Xattr.lsetxattr(t.path(), nameSeg, s.cipher, encrypted.length, flags));
        } finally {
            done(s, t);
        }
    }

    /** The plaintext value of attribute {@code name} of {@code n}'s file; EIO if it fails authentication. */
    byte[] get(ThreadBuffers s, Node n, Name name) throws ErrnoException {
        byte[] stored = storedXattrName(name);
        byte[] encrypted;
        XattrTarget t = xattrTarget(s, n);
        try {
            MemorySegment nameSeg = cString(s.path2, stored);
            long got = check(t.follow() ? Xattr.getxattr(t.path(), nameSeg, s.cipher, XATTR_MAX)
                    : Xattr.lgetxattr(t.path(), nameSeg, s.cipher, XATTR_MAX));
            encrypted = s.cipher.asSlice(0, got).toArray(JAVA_BYTE);
        } finally {
            done(s, t);
        }
        byte[] plain;
        try {
            plain = isAcl(stored) ? encrypted : content.decryptXattrValue(encrypted);
        } catch (CorruptDataException e) {
            LOG.error("vault {}: attribute {} of {} fails authentication", cipherDir, name, store.plainPath(n));
            throw new ErrnoException(EIO);
        }
        return plain;
    }

    /** The plaintext names of {@code n}'s attributes, each NUL-terminated; other programs' attributes on the ciphertext file are left out. */
    byte[] list(ThreadBuffers s, Node n) throws ErrnoException {
        byte[] list;
        XattrTarget t = xattrTarget(s, n);
        try {
            long got = check(t.follow() ? Xattr.listxattr(t.path(), s.cipher, XATTR_MAX)
                    : Xattr.llistxattr(t.path(), s.cipher, XATTR_MAX));
            list = s.cipher.asSlice(0, got).toArray(JAVA_BYTE);
        } finally {
            done(s, t);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int start = 0, i = 0; i < list.length; i++) {
            if (list[i] != 0) continue;
            byte[] stored = Arrays.copyOfRange(list, start, i);
            start = i + 1;
            byte[] plain = null;
            if (isAcl(stored)) {
                plain = stored;
            } else if (stored.length > NameCipher.XATTR_PREFIX.length()) {
                try {
                    plain = names.decryptXattrName(stored);
                } catch (InvalidNameException notOurs) {
                    // another program's attribute on the ciphertext file, or a damaged one: not the plaintext file's
                }
            }
            if (plain != null) {
                out.writeBytes(plain);
                out.write(0);
            }
        }
        return out.toByteArray();
    }

    /** Removes attribute {@code name} of {@code n}'s file. */
    void remove(ThreadBuffers s, Node n, Name name) throws ErrnoException {
        byte[] stored = storedXattrName(name);
        XattrTarget t = xattrTarget(s, n);
        try {
            MemorySegment nameSeg = cString(s.path2, stored);
            check(t.follow() ? Xattr.removexattr(t.path(), nameSeg) : Xattr.lremovexattr(t.path(), nameSeg));
        } finally {
            done(s, t);
        }
    }
}
