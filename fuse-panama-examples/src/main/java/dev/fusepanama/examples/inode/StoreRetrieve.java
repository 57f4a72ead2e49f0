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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Data pushed into the kernel's page cache and read back from it, as libfuse's
 * {@code example/notify_store_retrieve.c}: where {@link InvalidateInode} makes the kernel ask
 * again, {@link InodeMount#store} hands it the new data at once, so the next read is answered
 * without a request at all; {@link InodeMount#retrieve} asks the kernel what its page cache
 * holds for a file, which the example compares with what it stored. The one file,
 * {@code current_time}, reads {@code The time is 14:03:07} and is stored anew every second.
 * The kernel may keep the pages across opens ({@link OpenReply#KEEP_CACHE}) and trust the
 * attributes for an hour.
 *
 * <p>Run it from the checkout:
 * <pre>
 * mkdir -p /tmp/store
 * ./fuse-panama example StoreRetrieve /tmp/store
 * </pre>
 * then {@code cat /tmp/store/current_time} a few times: the time moves on, and the log shows
 * no read request after the first (the kernel has every new second before anyone asks), and a
 * line each time what the kernel returned differs from what was stored (none, normally).
 * Ctrl-C unmounts.
 */
public final class StoreRetrieve implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(StoreRetrieve.class);
    static final byte[] NAME = "current_time".getBytes(StandardCharsets.UTF_8);
    static final Inode FILE = Inode.of(2);
    private static final Timeouts HOUR = Timeouts.NONE.withAttributes(3600).withEntries(3600);
    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** Always the same length: a store that ends at the file's end makes its last page valid too. */
    private volatile byte[] text;
    /** Read requests that reached the filesystem. */
    final AtomicInteger reads = new AtomicInteger();

    public StoreRetrieve(LocalTime now) {
        text = render(now);
    }

    static byte[] render(LocalTime now) {
        return ("The time is " + HH_MM_SS.format(now) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Shows {@code now} and stores it into {@code mount}'s page cache for the file.
     *
     * @return false if the kernel holds nothing for the file (no process looked it up): nothing was stored
     */
    public boolean update(LocalTime now, InodeMount mount) throws IOException {
        byte[] t = render(now);
        text = t;
        return mount.store(FILE.nodeId(), 0, ByteBuffer.wrap(t));
    }

    /** What {@code mount}'s page cache holds for the file: as many bytes as it has, from the start. */
    public CompletableFuture<byte[]> kernelCopy(InodeMount mount) throws IOException {
        return mount.retrieve(FILE.nodeId(), 0, text.length);
    }

    /** Stores the time every second, and checks it in the page cache, until the mount ends. */
    public Thread updateEverySecond(InodeMount mount) {
        return Thread.ofPlatform().daemon().name("store-time").start(() -> {
            try {
                while (mount.isMounted()) {
                    Thread.sleep(1000);
                    try {
                        if (update(LocalTime.now(), mount)) {
                            byte[] stored = text;
                            byte[] held = kernelCopy(mount).get(10, TimeUnit.SECONDS);
                            if (!Arrays.equals(stored, held)) {
                                LOG.warn("stored {} but the kernel holds {}", new String(stored, StandardCharsets.UTF_8).strip(),
                                        new String(held, StandardCharsets.UTF_8).strip());
                            }
                        }
                    } catch (IOException | ExecutionException | TimeoutException e) {
                        LOG.warn("this second's store or retrieve failed: {}; the next second tries again", e.toString());
                    }
                }
            } catch (InterruptedException | IllegalStateException ended) {
                // interrupted, or the mount ended
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
            reply.add(NAME, FILE.nodeId(), Posix.S_IFREG, 1);
        }
        reply.send();
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if ((flags & Posix.O_ACCMODE) != Posix.O_RDONLY) {
            reply.error(Errno.EACCES);
            return;
        }
        reply.open(0, OpenReply.KEEP_CACHE); // without it, each open would drop what was stored
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        LOG.info("read request at offset {}: the kernel did not have the data", offset);
        reads.incrementAndGet();
        byte[] now = text;
        int from = (int) Math.min(offset, now.length);
        reply.data(now, from, (int) Math.min(size, now.length - from));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || args[0].isEmpty()) {
            LOG.error("usage: StoreRetrieve MOUNTPOINT");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            StoreRetrieve fs = new StoreRetrieve(LocalTime.now());
            InodeMount mount = Fuse.mount(fs, Path.of(args[0]), MountOptions.builder().fsName("store-time").build());
            fs.updateEverySecond(mount);
            return Foreground.serve(mount, LOG,
                    () -> LOG.info("{}; the time is stored into the kernel every second; Ctrl-C unmounts", mount.describe()));
        });
    }
}
