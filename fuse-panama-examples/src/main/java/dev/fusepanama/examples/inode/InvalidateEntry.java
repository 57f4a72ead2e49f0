package dev.fusepanama.examples.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.examples.Foreground;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
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
 * A name that changes behind the kernel's back, kept exact with the entry invalidation
 * notification ({@link InodeMount#invalidateEntry}), as libfuse's {@code example/notify_inval_entry.c}.
 * The root holds one empty file named after the time, {@code Time_is_14h_03m_07s}, renamed
 * every second. The kernel may trust a name for an hour, so after the rename it would go on
 * finding the file under its old name; the filesystem tells it that the old name in the root
 * changed, and the kernel drops it: the next lookup of the old name asks, and fails.
 * ({@link InodeMount#expireEntry} is the gentler variant: the name is asked about again at its
 * next use, but a process using it as its working directory keeps it until then.)
 *
 * <p>Run it from the checkout:
 * <pre>
 * mkdir -p /tmp/names
 * ./fuse-panama example InvalidateEntry /tmp/names [--no-notify]
 * </pre>
 * then {@code f=$(ls /tmp/names); stat -c %n /tmp/names/$f; sleep 2; stat -c %n /tmp/names/$f}:
 * the second {@code stat} fails (No such file or directory) while {@code ls} shows the new
 * name. With {@code --no-notify} it still succeeds: the kernel's cached name, for an hour.
 * ({@code ls} is always right: listings are not cached here.) Ctrl-C unmounts.
 */
public final class InvalidateEntry implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(InvalidateEntry.class);
    static final Inode FILE = Inode.of(2);
    private static final Timeouts HOUR = Timeouts.NONE.withAttributes(3600).withEntries(3600);
    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("'Time_is_'HH'h_'mm'm_'ss's'");

    private volatile byte[] name;

    public InvalidateEntry(LocalTime now) {
        name = render(now);
    }

    static byte[] render(LocalTime now) {
        return NAME.format(now).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Renames the file after {@code now}; with a {@code mount}, tells its kernel that the old
     * name in the root is no longer what it cached. Call it from the application's own thread.
     *
     * @return whether the kernel held the old name (false if no process looked it up)
     */
    public boolean update(LocalTime now, InodeMount mount) throws IOException {
        byte[] old = name;
        name = render(now);
        return mount != null && mount.invalidateEntry(ROOT, old);
    }

    /** Renames the file every second until the mount ends, telling the kernel unless {@code notify} is false. */
    public Thread updateEverySecond(InodeMount mount, boolean notify) {
        return Thread.ofPlatform().daemon().name("time-name").start(() -> {
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

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) {
        if (parent != ROOT || !name.is(this.name)) {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.attributes().setIno(FILE.nodeId()).setMode(Posix.S_IFREG | 0444).setNlink(1);
        reply.entry(FILE, HOUR); // one inode under whatever name is current: a rename, not a new file
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        if (ino == ROOT) {
            reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else if (ino == FILE.nodeId()) {
            reply.attributes().setIno(ino).setMode(Posix.S_IFREG | 0444).setNlink(1);
        } else {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.send(HOUR);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (offset == 0) {
            reply.add(name, FILE.nodeId(), Posix.S_IFREG, 1);
        }
        reply.send();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].equals("--no-notify")) || args[0].isEmpty()) {
            LOG.error("usage: InvalidateEntry MOUNTPOINT [--no-notify]");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            InvalidateEntry fs = new InvalidateEntry(LocalTime.now());
            InodeMount mount = Fuse.mount(fs, Path.of(args[0]), MountOptions.builder().fsName("time-name").build());
            boolean notify = args.length == 1;
            fs.updateEverySecond(mount, notify);
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; the file is renamed every second{}; Ctrl-C unmounts", mount.describe(),
                    notify ? ", and the kernel is told" : ", and the kernel is NOT told (--no-notify): old names keep working"));
        });
    }
}
