package dev.fusepanama.nio;

import static dev.fusepanama.nio.NioErrors.call;
import static dev.fusepanama.nio.NioFileSystem.checkEmpty;
import static dev.fusepanama.nio.NioFileSystem.key;
import static dev.fusepanama.nio.NioFileSystem.newName;
import static dev.fusepanama.nio.NioFileSystem.text;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.nio.NioFileSystem.NioNode;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * rename(2) for a {@link NioFileSystem}: POSIX's replacing rename or RENAME_NOREPLACE made of
 * {@link Files#move}, then the node table told of the names that moved. Apart because a
 * provider's move is not rename(2): where it is not the kernel's own, what rename(2) checks
 * before it replaces, and what a provider cannot move over or move whole, is made up for here.
 */
final class Renames {
    private final NioFileSystem fs;

    Renames(NioFileSystem fs) {
        this.fs = fs;
    }

    void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws IOException {
        if ((flags & ~Posix.RENAME_NOREPLACE) != 0) throw new ErrnoException(Errno.EINVAL); // no NIO call exchanges
        if (name.length() > 255) throw new ErrnoException(Errno.ENAMETOOLONG);
        String from = text(name);
        if (from == null) throw new ErrnoException(Errno.ENOENT);
        String to = newName(newName);
        NioNode dir = fs.node(parent);
        NioNode newDir = fs.node(newParent);
        Path source = fs.child(dir, from);
        Path target = fs.child(newDir, to);
        call(() -> {
            if ((flags & Posix.RENAME_NOREPLACE) != 0) {
                return Files.move(source, target);
            }
            if (fs.defaultProvider) { // rename(2) itself: replaces, and answers type mismatches, as POSIX says
                return Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
            }
            boolean replaces = checkReplaceable(source, target);
            try {
                try {
                    return Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                    // A provider that cannot replace atomically (cryptofs replacing a directory),
                    // or whose atomic move never replaces: the same end, not atomically.
                    return Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (FileSystemException e) {
                int errno = NioErrors.errno(e);
                if (!replaces || (errno != Errno.ENOTEMPTY && errno != Errno.ENOTDIR && errno != Errno.EISDIR
                        && errno != Errno.EEXIST)) throw e;
                // The types match and a directory replaced is empty (checked above), but the
                // provider cannot move one over the other: it keeps a file as a directory of its
                // own (cryptofs's symbolic links), or replaces no directory (jdk.zipfs). The old
                // one goes first, so the name is absent for that moment.
                Files.delete(target);
                return Files.move(source, target);
            }
        });
        if (!fs.defaultProvider && !source.equals(target) && Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)
                && Files.exists(source, LinkOption.NOFOLLOW_LINKS) && !call(() -> Files.isSameFile(source, target))) {
            call(() -> moveEntries(source, target));
        }
        NioNode replaced = fs.table.write(() -> fs.table.move(dir, key(from), newDir, key(to)));
        fs.attrs.changed(fs.table.child(newDir, key(to)));
        fs.attrs.changed(replaced);
        reply.ok();
    }

    /**
     * Finishes moving the directory {@code from} to {@code to}, for a provider whose move made the
     * new directory but left the old one with its entries (jdk.zipfs moves a directory's own
     * entry only): its entries are moved one by one, then it is removed. Not atomic, as a rename
     * on such a provider cannot be.
     */
    private static Void moveEntries(Path from, Path to) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(from)) {
            for (Path e : s) entries.add(e);
        }
        for (Path e : entries) {
            Path moved = to.resolve(e.getFileName().toString());
            Files.move(e, moved);
            if (Files.isDirectory(moved, LinkOption.NOFOLLOW_LINKS) && Files.exists(e, LinkOption.NOFOLLOW_LINKS)) {
                moveEntries(e, moved);
            }
        }
        Files.delete(from);
        return null;
    }

    /**
     * What rename(2) checks before it replaces, which a provider's REPLACE_EXISTING does not: a
     * directory replaces only a directory (else ENOTDIR), an empty one (ENOTEMPTY), and is
     * replaced only by one (EISDIR). Returns whether something is about to be replaced.
     */
    private static boolean checkReplaceable(Path source, Path target) throws IOException {
        BasicFileAttributes to;
        try {
            to = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return false;
        }
        boolean fromDir = Files.readAttributes(source, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isDirectory();
        if (fromDir && !to.isDirectory()) throw new ErrnoException(Errno.ENOTDIR);
        if (!fromDir && to.isDirectory()) throw new ErrnoException(Errno.EISDIR);
        if (to.isDirectory()) checkEmpty(target);
        return true;
    }
}
