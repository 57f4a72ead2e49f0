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
import dev.fusepanama.inode.IoctlReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file whose size is read and set with ioctl(2), as libfuse's {@code example/ioctl.c}. The
 * one file, {@code fioc}, holds bytes that can be read and written as usual; two commands of its
 * own work on it: {@link #FIOC_GET_SIZE} copies the size (a {@code size_t}) to the caller, and
 * {@link #FIOC_SET_SIZE} cuts the content, or fills it with zero bytes, to the size the caller
 * passes. The kernel passes a FUSE filesystem only commands whose direction and argument size
 * are encoded in the number ({@code _IOR}, {@code _IOW}, {@code _IOWR}): it copies that many
 * bytes in ({@code in}) and back ({@code outSize}), so a filesystem never touches the caller's
 * memory. Any other command is answered ENOTTY, as for a file that knows none.
 *
 * <p>Run it from the checkout:
 * <pre>
 * mkdir -p /tmp/fioc
 * ./fuse-panama example IoctlSize /tmp/fioc
 * </pre>
 * then {@code echo hello world > /tmp/fioc/fioc} and
 * <pre>
 * python3 -c 'import fcntl, struct, sys; f = open(sys.argv[1])
 * fcntl.ioctl(f, 0x40084501, struct.pack("N", 5))
 * print(struct.unpack("N", fcntl.ioctl(f, 0x80084500, bytes(8)))[0])' /tmp/fioc/fioc
 * </pre>
 * prints {@code 5} (FIOC_SET_SIZE, then FIOC_GET_SIZE), and {@code cat /tmp/fioc/fioc} prints {@code hello}.
 * Ctrl-C unmounts.
 */
public final class IoctlSize implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(IoctlSize.class);
    static final byte[] NAME = "fioc".getBytes(StandardCharsets.UTF_8);
    static final Inode FILE = Inode.of(2);

    /** {@code _IOR('E', 0, size_t)}: the size, copied out to the caller. */
    public static final int FIOC_GET_SIZE = (2 << 30) | (Long.BYTES << 16) | ('E' << 8);
    /** {@code _IOW('E', 1, size_t)}: the new size, copied in from the caller. */
    public static final int FIOC_SET_SIZE = (1 << 30) | (Long.BYTES << 16) | ('E' << 8) | 1;

    private byte[] content = new byte[0];

    private synchronized void resize(long size) {
        content = Arrays.copyOf(content, (int) size);
    }

    @Override
    public void ioctl(Request request, long ino, long fh, int cmd, long arg, int flags, ByteBuffer in, int outSize,
            IoctlReply reply) {
        if (ino != FILE.nodeId()) {
            reply.error(Errno.EINVAL); // as ioctl.c: only the file takes them
            return;
        }
        ByteBuffer sizeT = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        switch (cmd) {
            case FIOC_GET_SIZE -> {
                synchronized (this) {
                    sizeT.putLong(0, content.length);
                }
                reply.result(0, sizeT);
            }
            case FIOC_SET_SIZE -> {
                long size = in.order(ByteOrder.nativeOrder()).getLong(0);
                if (size < 0 || size > 1 << 20) {
                    reply.error(Errno.EINVAL); // kept small: it lives in the heap
                    return;
                }
                resize(size);
                reply.result(0);
            }
            default -> reply.error(Errno.ENOTTY);
        }
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if (ino != FILE.nodeId()) {
            reply.error(Errno.EISDIR);
            return;
        }
        if ((flags & Posix.O_TRUNC) != 0) {
            resize(0);
        }
        // Direct I/O: the size changes by ioctl, which the kernel does not see, so it must not read from a cache.
        reply.open(0, OpenReply.DIRECT_IO);
    }

    @Override
    public synchronized void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        int from = (int) Math.min(offset, content.length);
        reply.data(content, from, (int) Math.min(size, content.length - from));
    }

    @Override
    public synchronized void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
        int n = data.remaining();
        if (offset + n > 1 << 20) {
            reply.error(Errno.EFBIG);
            return;
        }
        if (offset + n > content.length) {
            content = Arrays.copyOf(content, (int) offset + n);
        }
        data.get(data.position(), content, (int) offset, n);
        reply.written(n);
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) {
        if ((toSet & SET_SIZE) != 0) { // truncate(2), or open with O_TRUNC where libfuse does not pass it to open
            if (attributes.size() > 1 << 20) {
                reply.error(Errno.EFBIG); // kept small, as by ioctl and write
                return;
            }
            resize(attributes.size());
        }
        getattr(request, ino, fh, reply);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        if (ino == ROOT) {
            reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else {
            synchronized (this) {
                reply.attributes().setIno(ino).setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(content.length);
            }
        }
        reply.send(Timeouts.NONE); // the size changes by ioctl: stat must ask every time
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) {
        if (parent != ROOT || !name.is(NAME)) {
            reply.error(Errno.ENOENT);
            return;
        }
        synchronized (this) {
            reply.attributes().setIno(FILE.nodeId()).setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(content.length);
        }
        reply.entry(FILE, Timeouts.NONE);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (offset == 0) {
            reply.add(NAME, FILE.nodeId(), Posix.S_IFREG, 1);
        }
        reply.send();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || args[0].isEmpty()) {
            LOG.error("usage: IoctlSize MOUNTPOINT");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            InodeMount mount = Fuse.mount(new IoctlSize(), Path.of(args[0]), MountOptions.builder().fsName("fioc").build());
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; FIOC_GET_SIZE is 0x{}, FIOC_SET_SIZE 0x{} on {}/fioc; Ctrl-C unmounts", mount.describe(),
                    Integer.toHexString(FIOC_GET_SIZE), Integer.toHexString(FIOC_SET_SIZE), args[0]));
        });
    }
}
