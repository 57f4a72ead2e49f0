package dev.fusepanama.examples.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.examples.Foreground;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The smallest filesystem on the inode API, as libfuse's {@code example/hello_ll.c}: a root
 * directory holding one read-only file, {@code hello}. It shows the four things every inode
 * filesystem answers: {@code lookup} (a name in a directory to an {@link Inode}, with the
 * attributes and how long the kernel may trust both), {@code getattr}, {@code readdir} (entries
 * added until the batch is full) and {@code open}/{@code read}.
 *
 * <p>Run it from the checkout (the launcher builds the project on first use):
 * <pre>
 * mkdir -p /tmp/hello
 * ./fuse-panama example HelloInode /tmp/hello
 * </pre>
 * then {@code ls -l /tmp/hello} shows {@code -r--r--r-- 1 ... 26 ... hello}, {@code cat
 * /tmp/hello/hello} prints {@code Hello from the inode API!}, and writing to it fails (EACCES).
 * Ctrl-C unmounts.
 */
public final class HelloInode implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(HelloInode.class);
    static final byte[] NAME = "hello".getBytes(StandardCharsets.UTF_8);
    static final byte[] TEXT = "Hello from the inode API!\n".getBytes(StandardCharsets.UTF_8);
    private static final Inode FILE = Inode.of(2);
    /** Nothing here ever changes: the kernel may trust what it was told for a minute. */
    private static final Timeouts CACHE = Timeouts.NONE.withAttributes(60).withEntries(60);

    private record Entry(byte[] name, long ino, int type) {}

    private static final Entry[] LISTING = {
        new Entry(".".getBytes(StandardCharsets.UTF_8), ROOT, Posix.S_IFDIR),
        new Entry("..".getBytes(StandardCharsets.UTF_8), ROOT, Posix.S_IFDIR),
        new Entry(NAME, FILE.nodeId(), Posix.S_IFREG),
    };

    private static boolean fill(long ino, Stat st) {
        if (ino == ROOT) {
            st.setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else if (ino == FILE.nodeId()) {
            st.setIno(ino).setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(TEXT.length);
        } else {
            return false;
        }
        return true;
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) {
        if (parent != ROOT || !name.is(NAME)) {
            reply.error(Errno.ENOENT);
            return;
        }
        fill(FILE.nodeId(), reply.attributes());
        reply.entry(FILE, CACHE);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        if (!fill(ino, reply.attributes())) {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.send(CACHE);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (ino != ROOT) {
            reply.error(Errno.ENOTDIR);
            return;
        }
        // An entry's nextOffset (i + 1) is where a later call resumes; add() is true when the batch is full.
        for (int i = (int) offset; i < LISTING.length; i++) {
            if (reply.add(LISTING[i].name(), LISTING[i].ino(), LISTING[i].type(), i + 1)) break;
        }
        reply.send();
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if (ino != FILE.nodeId()) {
            reply.error(Errno.EISDIR);
        } else if ((flags & Posix.O_ACCMODE) != Posix.O_RDONLY) {
            reply.error(Errno.EACCES);
        } else {
            reply.open(0, OpenReply.KEEP_CACHE); // the text never changes: keep the pages across opens
        }
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        int from = (int) Math.min(offset, TEXT.length);
        reply.data(TEXT, from, (int) Math.min(size, TEXT.length - from));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || args[0].isEmpty()) {
            LOG.error("usage: HelloInode MOUNTPOINT");
            System.exit(2);
        }
        Path mountpoint = Path.of(args[0]);
        Foreground.exit(LOG, () -> {
            InodeMount mount = Fuse.mount(new HelloInode(), mountpoint, MountOptions.builder().fsName("hello-inode").build());
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; try: cat {}/hello; Ctrl-C unmounts", mount.describe(), mountpoint));
        });
    }
}
