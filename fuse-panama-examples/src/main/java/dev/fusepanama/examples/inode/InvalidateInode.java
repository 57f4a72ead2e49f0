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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file whose content changes behind the kernel's back, kept exact with the inode invalidation
 * notification ({@link InodeMount#invalidateInode}), as libfuse's {@code example/notify_inval_inode.c}.
 * The one file, {@code current_time}, reads {@code The time is 14:03:07} and is rewritten every
 * second. The kernel may cache everything for an hour (name, attributes, and the pages across
 * opens: {@link OpenReply#KEEP_CACHE}), so a process sees a change only because the filesystem
 * says which inode changed: the kernel drops that inode's pages, and the next read asks again.
 *
 * <p>Run it from the checkout:
 * <pre>
 * mkdir -p /tmp/clock
 * ./fuse-panama example InvalidateInode /tmp/clock [--no-notify]
 * </pre>
 * then {@code cat /tmp/clock/current_time; sleep 2; cat /tmp/clock/current_time} prints two
 * times two or three seconds apart. With {@code --no-notify} the second {@code cat} prints the first time
 * again: the kernel answers from its cache and never asks. Ctrl-C unmounts.
 */
public final class InvalidateInode implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(InvalidateInode.class);
    static final byte[] NAME = "current_time".getBytes(StandardCharsets.UTF_8);
    static final Inode FILE = Inode.of(2);
    /** The kernel may trust everything for an hour: the notifications keep it exact. */
    private static final Timeouts HOUR = Timeouts.NONE.withAttributes(3600).withEntries(3600);
    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** Always the same length, so the size the kernel caches stays right: only the data changes. */
    private volatile byte[] text;

    public InvalidateInode(LocalTime now) {
        text = render(now);
    }

    static byte[] render(LocalTime now) {
        return ("The time is " + HH_MM_SS.format(now) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Shows {@code now}; with a {@code mount}, tells its kernel to drop the file's cached data
     * (from offset 0 to the end) and attributes. Call it from the application's own thread, not
     * from inside an operation.
     *
     * @return whether the kernel held anything to drop (false if no process has looked the file up)
     */
    public boolean update(LocalTime now, InodeMount mount) throws IOException {
        text = render(now);
        return mount != null && mount.invalidateInode(FILE.nodeId(), 0, 0);
    }

    /** Updates the file every second until the mount ends, telling the kernel unless {@code notify} is false. */
    public Thread updateEverySecond(InodeMount mount, boolean notify) {
        return Thread.ofPlatform().daemon().name("current-time").start(() -> {
            try {
                while (mount.isMounted()) {
                    Thread.sleep(1000);
                    try {
                        update(LocalTime.now(), notify ? mount : null);
                    } catch (IOException e) { // one refused notification; the next second tries again
                        LOG.warn("the kernel refused the notification: {}", e.getMessage());
                    }
                }
            } catch (InterruptedException | IllegalStateException ended) {
                // interrupted, or the mount ended between the check and the notification
            }
        });
    }

    private boolean fill(long ino, Stat st) {
        if (ino == ROOT) {
            st.setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else if (ino == FILE.nodeId()) {
            st.setIno(ino).setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(text.length);
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
        reply.entry(FILE, HOUR);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        if (!fill(ino, reply.attributes())) {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.send(HOUR);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (offset == 0) {
            reply.add(NAME, FILE.nodeId(), Posix.S_IFREG, 1); // "." and ".." are optional: the kernel adds none, ls needs none
        }
        reply.send();
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if ((flags & Posix.O_ACCMODE) != Posix.O_RDONLY) {
            reply.error(Errno.EACCES);
            return;
        }
        reply.open(0, OpenReply.KEEP_CACHE); // without it, every open would drop the pages: no notification needed
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        byte[] now = text;
        int from = (int) Math.min(offset, now.length);
        reply.data(now, from, (int) Math.min(size, now.length - from));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--no-notify")) || args[0].isEmpty()) {
            LOG.error("usage: InvalidateInode MOUNTPOINT [--no-notify]");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            InvalidateInode fs = new InvalidateInode(LocalTime.now());
            InodeMount mount = Fuse.mount(fs, Path.of(args[0]), MountOptions.builder().fsName("current-time").build());
            boolean notify = args.length == 1;
            fs.updateEverySecond(mount, notify);
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; the time changes every second{}; Ctrl-C unmounts", mount.describe(),
                    notify ? ", and the kernel is told" : ", and the kernel is NOT told (--no-notify): cat keeps showing the first"));
        });
    }
}
