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
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.libc.Libc;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file served by the kernel itself from a backing file (kernel passthrough), as the data path
 * of libfuse's {@code example/passthrough_hp.cc}. The root holds one file, named as the backing
 * file given. Its {@code open} opens the backing file and hands the descriptor to the reply
 * ({@link OpenReply#passthrough}): from then on the kernel reads, writes and maps that open file
 * straight from the backing file, and no read or write request reaches the filesystem.
 *
 * <p>Passthrough needs libfuse 3.17 or later, a kernel with {@code CONFIG_FUSE_PASSTHROUGH}
 * (Linux 6.9+) and CAP_SYS_ADMIN (root). Where any is missing, {@code passthrough} returns false,
 * the mount's description says why, and this example serves the data itself with {@code read}
 * and {@code write} on the backing file: the same bytes, one request per call.
 * ({@code mirror.InodeMirror} does the same for a whole directory tree.)
 *
 * <p>Run it from the checkout (as root, for passthrough), with any file (not on overlayfs or
 * another FUSE mount):
 * <pre>
 * head -c 10M /dev/urandom > /var/tmp/data.bin
 * mkdir -p /tmp/pt
 * ./fuse-panama example PassthroughFile /tmp/pt /var/tmp/data.bin
 * </pre>
 * The first log line says {@code kernel passthrough}, or {@code no passthrough: } and why. Then
 * {@code cmp /tmp/pt/data.bin /var/tmp/data.bin} finds them equal, and writes through the mount
 * land in the backing file. Without passthrough a warning says so at the first open, and the
 * debug log shows each read and write request the example serves. Ctrl-C unmounts.
 */
public final class PassthroughFile implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(PassthroughFile.class);
    static final Inode FILE = Inode.of(2);

    private final Path backing;
    private final byte[] name;
    private final MemorySegment backingPath;
    /** The data path when the kernel does not pass the file through. */
    private final FileChannel channel;
    final AtomicInteger passedThrough = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    private final AtomicBoolean toldWhy = new AtomicBoolean();

    public PassthroughFile(Path backing) throws IOException {
        this.backing = backing.toAbsolutePath();
        this.name = backing.getFileName().toString().getBytes(StandardCharsets.UTF_8);
        this.backingPath = Arena.ofAuto().allocateFrom(this.backing.toString());
        this.channel = FileChannel.open(backing, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Options a passthrough mount needs: passthrough asked for (it is off by default). */
    public static MountOptions mountOptions() {
        return MountOptions.builder().fsName("passthrough").passthrough(true).build();
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if (ino != FILE.nodeId()) {
            reply.error(Errno.EISDIR);
            return;
        }
        // Only the access mode: the kernel applies O_APPEND, O_TRUNC and the rest itself.
        int fd = Libc.openat(Libc.AT_FDCWD, backingPath, flags & Posix.O_ACCMODE, 0);
        if (fd < 0) {
            reply.error(-fd);
            return;
        }
        if (reply.passthrough(fd)) {
            passedThrough.incrementAndGet();
        } else if (!toldWhy.getAndSet(true)) {
            LOG.warn("the kernel does not pass this mount's files through (libfuse 3.17+, Linux 6.9+ and root needed; "
                    + "the mount's description says which is missing): reads and writes are served by the example");
        }
        reply.open(fd, 0); // the descriptor stays open until release, passed through or not
    }

    @Override
    public void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        Libc.close((int) fh);
        reply.ok();
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        requests.incrementAndGet();
        LOG.debug("read request: {} bytes at {}", size, offset);
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) > 0) {
            // until the end of the file or the size asked
        }
        reply.data(buffer.flip());
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        requests.incrementAndGet();
        LOG.debug("write request: {} bytes at {}", data.remaining(), offset);
        long written = 0;
        while (data.hasRemaining()) {
            written += channel.write(data, offset + written);
        }
        reply.written(written);
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        if ((toSet & SET_SIZE) != 0) {
            channel.truncate(attributes.size()); // FileChannel only shrinks: growing is a write at the end
            if (channel.size() < attributes.size()) channel.write(ByteBuffer.allocate(1), attributes.size() - 1);
        }
        getattr(request, ino, fh, reply);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        if (ino == ROOT) {
            reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else {
            fill(reply.attributes());
        }
        reply.send(Timeouts.NONE); // the backing file may change underneath: ask every time
    }

    private void fill(Stat st) throws IOException {
        PosixFileAttributes a = Files.readAttributes(backing, PosixFileAttributes.class);
        st.setIno(FILE.nodeId()).setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(a.size())
                .setMtime(a.lastModifiedTime().toInstant());
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        if (parent != ROOT || !name.is(this.name)) {
            reply.error(Errno.ENOENT);
            return;
        }
        fill(reply.attributes());
        reply.entry(FILE, Timeouts.NONE);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (offset == 0) {
            reply.add(name, FILE.nodeId(), Posix.S_IFREG, 1);
        }
        reply.send();
    }

    @Override
    public void destroy() throws IOException {
        channel.close();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || args[0].isEmpty() || args[1].isEmpty() || !Files.isRegularFile(Path.of(args[1]))) {
            LOG.error("usage: PassthroughFile MOUNTPOINT FILE (FILE: an existing regular file, served read-write)");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            InodeMount mount = Fuse.mount(new PassthroughFile(Path.of(args[1])), Path.of(args[0]), mountOptions());
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; Ctrl-C unmounts", mount.describe()));
        });
    }
}
