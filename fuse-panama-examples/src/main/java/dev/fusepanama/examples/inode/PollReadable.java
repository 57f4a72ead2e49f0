package dev.fusepanama.examples.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.MountOptions;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Posix;
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
import dev.fusepanama.inode.PollReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file that becomes readable now and then and wakes the processes waiting for it in poll(2),
 * select(2) or epoll, as libfuse's {@code example/poll.c}. The one file, {@code ticks}, is a
 * stream: every second a line ({@code tick 14:03:07}) is queued, a read takes what is queued
 * (nothing, if nothing is), and {@code poll} answers POLLIN while something is. When nothing is
 * ready, the kernel's poll request carries a {@link PollHandle}: the filesystem keeps it
 * ({@link PollHandle#retain()}) and, once a line is queued, calls {@link PollHandle#notifyReady()},
 * upon which the kernel polls again and the waiting process wakes.
 *
 * <p>Run it from the checkout:
 * <pre>
 * mkdir -p /tmp/poll
 * ./fuse-panama example PollReadable /tmp/poll
 * </pre>
 * then wait for it as a program would:
 * <pre>
 * python3 -c 'import os, select, sys
 * fd = os.open(sys.argv[1], os.O_RDONLY); p = select.poll(); p.register(fd, select.POLLIN)
 * while True: p.poll(); print(os.read(fd, 100).decode(), end="", flush=True)' /tmp/poll/ticks
 * </pre>
 * which prints a line a second, each as it comes, without polling in a loop. Ctrl-C unmounts.
 */
public final class PollReadable implements InodeFileSystem {
    private static final Logger LOG = LoggerFactory.getLogger(PollReadable.class);
    static final byte[] NAME = "ticks".getBytes(StandardCharsets.UTF_8);
    static final Inode FILE = Inode.of(2);
    /** Lines not yet read are dropped past this, as a pipe's writer would block. */
    private static final int MAX_QUEUED = 4096;

    private final ByteArrayOutputStream queued = new ByteArrayOutputStream();
    /** The kernel's requests to be told, kept while nothing is ready. */
    private final List<PollHandle> waiting = new ArrayList<>();

    /** Queues {@code line} and wakes every process waiting for the file. */
    public void tick(String line) {
        List<PollHandle> wake;
        synchronized (this) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            if (queued.size() + b.length <= MAX_QUEUED) {
                queued.writeBytes(b);
            }
            wake = new ArrayList<>(waiting);
            waiting.clear();
        }
        wake.forEach(PollHandle::notifyReady); // outside the lock: the kernel polls again at once
    }

    /** Queues a line every second until the mount ends. */
    public Thread tickEverySecond(InodeMount mount) {
        return Thread.ofPlatform().daemon().name("ticks").start(() -> {
            try {
                while (mount.isMounted()) {
                    Thread.sleep(1000);
                    tick("tick " + LocalTime.now().withNano(0) + "\n");
                }
            } catch (InterruptedException stopped) {
                // asked to stop
            }
        });
    }

    /** At the end of the mount: the handles still kept are released (nothing will be ready for them). */
    @Override
    public void destroy() {
        List<PollHandle> left;
        synchronized (this) {
            left = new ArrayList<>(waiting);
            waiting.clear();
        }
        left.forEach(PollHandle::release);
    }

    @Override
    public void poll(Request request, long ino, long fh, int events, PollHandle handle, PollReply reply) {
        boolean ready;
        synchronized (this) {
            ready = queued.size() > 0;
            if (!ready && handle != null) {
                waiting.add(handle.retain()); // not retained, it would be released when poll returns
            }
        }
        reply.events(ready ? events & Posix.POLLIN : 0);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        byte[] out;
        synchronized (this) {
            byte[] all = queued.toByteArray();
            out = Arrays.copyOf(all, (int) Math.min(size, all.length));
            queued.reset();
            queued.writeBytes(Arrays.copyOfRange(all, out.length, all.length));
        }
        reply.data(out, 0, out.length); // offsets mean nothing in a stream
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        if ((flags & Posix.O_ACCMODE) != Posix.O_RDONLY) {
            reply.error(Errno.EACCES);
            return;
        }
        // Direct I/O: every read reaches the filesystem, whatever the file's size (0) says.
        reply.open(0, OpenReply.DIRECT_IO);
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) {
        if (parent != ROOT || !name.is(NAME)) {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.attributes().setIno(FILE.nodeId()).setMode(Posix.S_IFREG | 0444).setNlink(1);
        reply.entry(FILE, Timeouts.NONE);
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
        reply.send(Timeouts.NONE);
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
            LOG.error("usage: PollReadable MOUNTPOINT");
            System.exit(2);
        }
        Foreground.exit(LOG, () -> {
            PollReadable fs = new PollReadable();
            InodeMount mount = Fuse.mount(fs, Path.of(args[0]), MountOptions.builder().fsName("ticks").build());
            fs.tickEverySecond(mount);
            return Foreground.serve(mount, LOG, () -> LOG.info("{}; {}/ticks gets a line a second; Ctrl-C unmounts", mount.describe(), args[0]));
        });
    }
}
