package dev.fusepanama.nio;

import static dev.fusepanama.nio.NioErrors.call;
import static dev.fusepanama.nio.NioFileSystem.key;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.nio.NioFileSystem.NioNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directories a {@link NioFileSystem} has open, and their listings: readdir and readdirplus
 * page by offset through the names taken at opendir. Apart because a listing outlives the call
 * that took it (a {@link DirectoryStream} cannot be resumed at an offset, so the names are kept,
 * and taken again at a rewind), and each entry readdirplus gives is a lookup the node table must
 * count, or take back when the reply is not sent. An entry the provider lists that no Linux
 * directory can hold (a zip archive's entry named with 256 bytes or a NUL) is left out, and told
 * once: the kernel would refuse the whole listing for it.
 */
final class Listings {
    private static final Logger LOG = LoggerFactory.getLogger(NioFileSystem.class);

    /**
     * An open directory: the names listed at opendir, taken again at each later read from offset
     * 0 (rewinddir) so that a rewind shows what changed. Readdirs of one open directory are
     * serialized by the kernel.
     */
    private static final class OpenDir {
        private final NioNode node;
        private volatile List<String> names;
        /** Whether the listing was read from offset 0 since it was taken. */
        private volatile boolean listedFromStart;

        OpenDir(NioNode node, List<String> names) {
            this.node = node;
            this.names = names;
        }

        NioNode node() {
            return node;
        }

        List<String> names() {
            return names;
        }
    }

    private final NioFileSystem fs;
    private final Map<Long, OpenDir> dirs = new ConcurrentHashMap<>();
    /** An entry left out of a listing: warned of once, not at each listing. */
    private record LeftOut(Path dir, String name) {}
    private final Set<LeftOut> leftOut = ConcurrentHashMap.newKeySet();

    Listings(NioFileSystem fs) {
        this.fs = fs;
    }

    void opendir(Request request, long ino, int flags, OpenReply reply) throws IOException {
        NioNode n = fs.node(ino);
        List<String> names = names(fs.path(n));
        long fh = fs.handles.getAndIncrement();
        dirs.put(fh, new OpenDir(n, names));
        if (!reply.open(fh, 0)) dirs.remove(fh);
    }

    private List<String> names(Path dir) throws IOException {
        return call(() -> {
            List<String> all = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                for (Path e : s) {
                    String name = e.getFileName() == null ? "" : e.getFileName().toString();
                    String unlistable = unlistable(name);
                    if (unlistable == null) {
                        all.add(name);
                    } else if (leftOut.add(new LeftOut(dir, name))) {
                        LOG.warn("{}: left out of its listing: the entry {}, with {}, which no Linux directory holds", dir, shown(name), unlistable);
                    }
                }
            }
            return all;
        });
    }

    /**
     * Why no Linux directory can hold the entry {@code name}, or null if one can: empty, "." or
     * "..", a '/' or NUL in it, or more than 255 bytes (NAME_MAX) in UTF-8, the names' encoding here.
     */
    static String unlistable(String name) {
        if (name.isEmpty()) return "an empty name";
        if (name.equals(".") || name.equals("..")) return "the name " + name + ", which is the directory's own link";
        if (name.indexOf('/') >= 0) return "a '/' in its name";
        if (name.indexOf('\0') >= 0) return "a NUL in its name";
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > 255) return "a name of " + bytes + " bytes, more than 255";
        return null;
    }

    /** {@code name} for a log line: quoted, control characters escaped, at most 80 characters of it. */
    private static String shown(String name) {
        StringBuilder b = new StringBuilder("\"");
        name.codePoints().limit(80).forEach(c -> {
            if (c == 0) b.append("\\0");
            else if (c < 0x20 || c == 0x7f) b.append(String.format("\\x%02x", c));
            else b.appendCodePoint(c);
        });
        if (name.codePointCount(0, name.length()) > 80) b.append("...");
        return b.append('"').toString();
    }

    /** The open directory {@code fh} for a read from {@code offset}: listed again at a rewind. */
    private OpenDir dir(long fh, long offset) throws IOException {
        OpenDir d = dirs.get(fh);
        if (d == null) throw new ErrnoException(Errno.EBADF);
        if (offset == 0) {
            if (d.listedFromStart) d.names = names(fs.path(d.node()));
            d.listedFromStart = true;
        }
        return d;
    }

    /** Offsets: 1 ".", 2 "..", then 3 + the entry's index in the listing taken at opendir. */
    void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        OpenDir d = dir(fh, offset);
        if (offset < 1 && reply.add(new byte[] {'.'}, d.node().nodeId(), Posix.S_IFDIR, 1)) {
            reply.send();
            return;
        }
        if (offset < 2 && reply.add(new byte[] {'.', '.'}, d.node().nodeId(), Posix.S_IFDIR, 2)) {
            reply.send();
            return;
        }
        eachListed(d, offset, (cookie, s, a) ->
                reply.add(s.getBytes(StandardCharsets.UTF_8), a.ino() != 0 ? a.ino() : cookie, a.type(), cookie));
        reply.send();
    }

    /** What a listing does with an entry: true when the reply is full (as the replies' add). */
    private interface Listed {
        boolean add(long cookie, String name, Attributes a) throws IOException;
    }

    /**
     * Hands {@code listed} the entries of {@code d}'s listing from {@code offset} on (cookies: 1
     * ".", 2 "..", then 3 + the index in the listing), with their attributes, until it is full;
     * names removed since the listing was taken are left out.
     */
    private void eachListed(OpenDir d, long offset, Listed listed) throws IOException {
        Path dirPath = fs.path(d.node());
        for (int i = (int) Math.max(0, offset - 2); i < d.names().size(); i++) {
            String s = d.names().get(i);
            Attributes a;
            try {
                a = fs.attrs.attributes(dirPath.resolve(s), fs.table.child(d.node(), key(s)));
            } catch (ErrnoException gone) {
                continue;
            }
            if (listed.add(i + 3L, s, a)) return;
        }
    }

    void readdirplus(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        OpenDir d = dir(fh, offset);
        NioNode dir = d.node();
        Path dirPath = fs.path(dir);
        if (offset < 1) {
            fs.attrs.fill(dir, fs.attrs.attributes(dir, dirPath), reply.attributes());
            if (reply.add(new byte[] {'.'}, dir, fs.timeouts, 1)) {
                reply.send();
                return;
            }
        }
        if (offset < 2) {
            NioNode parent = dir == fs.table.root() ? dir : (NioNode) fs.table.name(dir).parent();
            fs.attrs.fill(parent, fs.attrs.attributes(parent, fs.path(parent)), reply.attributes());
            if (reply.add(new byte[] {'.', '.'}, parent, fs.timeouts, 2)) {
                reply.send();
                return;
            }
        }
        eachListed(d, offset, (cookie, s, a) -> {
            NioNode n = fs.remember(dir, s, a);
            fs.attrs.fill(n, a, reply.attributes());
            return reply.add(s.getBytes(StandardCharsets.UTF_8), n, fs.timeouts, cookie); // the library counts what the batch takes
        });
        reply.send();
    }

    void releasedir(Request request, long ino, long fh, EmptyReply reply) {
        dirs.remove(fh);
        reply.ok();
    }
}
