package dev.fusepanama.vault;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What makes two names one ciphertext file (a hard link), the key of the vault's nodes in the
 * node table. The inode number is not enough: ext4, xfs and btrfs give a deleted file's number to
 * the next file made, at once, while the table may still hold the deleted file's node (the kernel
 * has not forgotten it, or the vault's own unlink or rename has removed the file and not yet told
 * the table). A new file keyed by number alone then became that node, with its file id, and its
 * first write left the header out: the file read back as "format version 0". So a file is keyed by
 * its file handle ({@code name_to_handle_at(2)}), which carries the inode's generation and is never
 * given to another file; by its inode number only on a filesystem that has no handles. The stat
 * and the handle are two looks at a name: a name replaced between them (by another program) gives
 * a key of one file with another's attributes until the next lookup.
 */
final class FileKeys {
    private static final int EOPNOTSUPP = 95;
    private static final int EOVERFLOW = 75;
    private static final MemorySegment EMPTY = Arena.global().allocate(1);

    /** A file's handle: its bytes (type and handle), with the inode number for log lines. */
    private record Handle(long ino, byte[] bytes) implements NodeTable.LastingKey {
        @Override
        public boolean equals(Object o) {
            return o instanceof Handle h && h.ino == ino && Arrays.equals(h.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(ino) * 31 + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "inode " + ino + " handle " + HexFormat.of().formatHex(bytes);
        }
    }

    private final boolean handles;

    /** Finds out whether the cipher directory's filesystem, open as {@code rootFd}, has file handles. */
    FileKeys(int rootFd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = a.allocate(Libc.FILE_HANDLE_SIZE, 8);
            handle.set(JAVA_INT, 0, Libc.MAX_HANDLE_SZ);
            handles = Libc.nameToHandleAt(rootFd, EMPTY, handle, a.allocate(JAVA_INT), Libc.AT_EMPTY_PATH) == 0;
        }
    }

    /** Whether files are keyed by handle (false: by inode number, on a filesystem without handles). */
    boolean byHandle() {
        return handles;
    }

    /** The key of the file {@code name} in {@code dfd} (not following a link), whose inode number is {@code ino}. */
    Object of(ThreadBuffers s, int dfd, MemorySegment name, long ino) throws ErrnoException {
        return key(s, dfd, name, 0, ino);
    }

    /** The key of the open file {@code fd}, whose inode number is {@code ino}. */
    Object of(ThreadBuffers s, int fd, long ino) throws ErrnoException {
        return key(s, fd, EMPTY, Libc.AT_EMPTY_PATH, ino);
    }

    private Object key(ThreadBuffers s, int dfd, MemorySegment name, int flags, long ino) throws ErrnoException {
        if (!handles) return ino;
        MemorySegment handle = s.handle;
        handle.set(JAVA_INT, 0, Libc.MAX_HANDLE_SZ);
        int rc = Libc.nameToHandleAt(dfd, name, handle, s.mountId, flags);
        if (rc == -EOPNOTSUPP || rc == -EOVERFLOW) return ino; // a directory of another filesystem inside
        if (rc < 0) throw new ErrnoException(-rc);
        int bytes = handle.get(JAVA_INT, 0);
        return new Handle(ino, handle.asSlice(4, 4 + bytes).toArray(JAVA_BYTE));
    }
}
