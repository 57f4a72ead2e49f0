package dev.fusepanama.nio;

import static dev.fusepanama.inode.InodeFileSystem.NO_HANDLE;
import static dev.fusepanama.nio.NioErrors.call;
import static dev.fusepanama.nio.NioFileSystem.key;
import static dev.fusepanama.nio.NioFileSystem.newName;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.nio.NioFileSystem.NioNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a {@link NioFileSystem} has open: one {@link FileChannel} per handle the kernel
 * holds, read and written at its offsets, forced at fsync and (if written) at close(2), closed
 * at release. Apart because a channel outlives the calls that use it and is shared between
 * them (a node's latest channel gives its size while open; a flush may close a channel that a
 * dup of the descriptor still uses), and that bookkeeping has locking rules of its own.
 */
final class OpenFiles {
    /** The filesystem's own logger: what goes wrong here is the filesystem's, and log settings name it. */
    private static final Logger LOG = LoggerFactory.getLogger(NioFileSystem.class);

    /**
     * An open file: its node, how it was opened, its channel (null once a flush closed it, see
     * {@link #flush}; written under the node), and whether it was written since its last flush.
     */
    static final class OpenFile {
        private final NioNode node;
        private final Set<OpenOption> options;
        private volatile FileChannel channel;
        volatile boolean dirty;
        /** Calls using the channel share it; a flush that closes the channel takes it alone. */
        private final ReentrantReadWriteLock io = new ReentrantReadWriteLock();

        OpenFile(NioNode node, Set<OpenOption> options, FileChannel channel) {
            this.node = node;
            this.options = options;
            this.channel = channel;
        }

        NioNode node() {
            return node;
        }
    }

    private static final int READ_BUFFER = 1 << 20;

    private final NioFileSystem fs;
    /**
     * Whether the provider keeps a file's written data apart until its channel closes, showing a
     * new file only then (jdk.zipfs): a flush then closes the channel, so the data is in place
     * when close(2) returns, and a release the kernel sends later cannot put back a file removed
     * meanwhile. Known for zipfs, and learnt from the first create on any other provider.
     */
    private volatile boolean deferredWrites;
    /**
     * Whether file data stays cached across opens (KEEP_CACHE): where the kernel checks size and
     * mtime before it reads cached data ({@code auto_inval_data}, which
     * {@link NioFileSystem#mountOptions} asks for); without it an open drops the data, so changes
     * behind the mount are still seen. Set at init.
     */
    volatile boolean keepData;
    private final Map<Long, OpenFile> files = new ConcurrentHashMap<>();
    private final ThreadLocal<ByteBuffer> readBuffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(READ_BUFFER));

    OpenFiles(NioFileSystem fs) {
        this.fs = fs;
        this.deferredWrites = "jar".equals(fs.root.getFileSystem().provider().getScheme());
    }

    /** The open file {@code fh}, or null if there is none. */
    OpenFile find(long fh) {
        return files.get(fh);
    }

    /**
     * The size of a channel open on {@code n}: the handle's, else the latest (the kernel asks for an
     * {@code fstat} by the inode alone); -1 if none is. Under the node, as every close of a channel
     * is: the latest may be another handle's, which its release (on another thread) would
     * otherwise close during the call. A provider that wakes the threads in a call on a channel it
     * closes (jimfs, cryptofs: Thread.interrupt) leaves this worker interrupted, and the worker's
     * next call on any channel, for another request and another file, then closes that channel
     * (ClosedByInterruptException): every later read, write and close(2) of that file is EBADF.
     */
    long openSize(NioNode n, long fh) throws IOException {
        synchronized (n) {
            OpenFile f = fh == NO_HANDLE ? null : files.get(fh);
            FileChannel c = f != null && f.node() == n && f.channel != null ? f.channel : n.channel;
            return c == null ? -1 : call(c::size);
        }
    }

    private static Set<OpenOption> options(int flags) {
        Set<OpenOption> o = new HashSet<>();
        int access = flags & Posix.O_ACCMODE;
        if (access != Posix.O_WRONLY) o.add(StandardOpenOption.READ);
        if (access != Posix.O_RDONLY) o.add(StandardOpenOption.WRITE);
        // O_APPEND is the kernel's: it sends each write at the end of the file. O_TRUNC arrives as a setattr.
        return o;
    }

    private long register(NioNode n, Set<OpenOption> options, FileChannel c) {
        fs.table.hold(n);
        synchronized (n) {
            n.channels.addLast(c);
            n.channel = c;
        }
        long fh = fs.handles.getAndIncrement();
        files.put(fh, new OpenFile(n, options, c));
        return fh;
    }

    /** What a call does with an open file's channel. */
    interface ChannelUse<T> {
        T run(FileChannel c) throws IOException;
    }

    /**
     * Runs {@code use} on {@code f}'s channel, which a flush on another thread (the close of a
     * dup of the descriptor) does not close meanwhile; errors as {@link NioErrors#call} maps them.
     */
    <T> T withChannel(OpenFile f, ChannelUse<T> use) throws IOException {
        f.io.readLock().lock();
        try {
            FileChannel c = channel(f);
            return call(() -> use.run(c));
        } finally {
            f.io.readLock().unlock();
        }
    }

    /** The channel of {@code f}, opened again if a flush closed it (a descriptor used after a close of its dup). */
    private FileChannel channel(OpenFile f) throws IOException {
        FileChannel c = f.channel;
        if (c != null) return c;
        NioNode n = f.node();
        synchronized (n) {
            if (f.channel == null) {
                Path p = fs.path(n);
                FileChannel opened = call(() -> FileChannel.open(p, f.options));
                n.channels.addLast(opened);
                n.channel = opened;
                f.channel = opened;
            }
            return f.channel;
        }
    }

    /** Closes {@code f}'s channel if it has one; under the node. */
    private static void closeChannel(OpenFile f) throws IOException {
        NioNode n = f.node();
        FileChannel c = f.channel;
        if (c == null) return;
        f.channel = null;
        n.channels.remove(c);
        n.channel = n.channels.peekLast();
        c.close();
    }

    /**
     * Closes the handle {@code fh}. Under the node, as {@link #open} opens: the kernel sends a
     * release without waiting for it, so a program that closes and opens a file again may have
     * both running at once, and a provider that keeps one state per open file (cryptofs) may hand
     * the new channel the state its last close is tearing down (its data then reads as zeros).
     */
    private void close(long fh) {
        OpenFile f = files.remove(fh);
        if (f != null) {
            NioNode n = f.node();
            synchronized (n) {
                try {
                    closeChannel(f);
                } catch (IOException e) {
                    // only what was written after the last flush can be lost here: no program is told any more
                    LOG.warn("closing {}: {}", n.path != null ? n.path : "a file", e.toString());
                }
            }
            fs.table.letGo(n);
        }
    }

    private OpenFile file(long fh) throws ErrnoException {
        OpenFile f = files.get(fh);
        if (f == null) throw new ErrnoException(Errno.EBADF);
        return f;
    }

    void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        NioNode n = fs.node(ino);
        Path p = fs.path(n);
        Set<OpenOption> o = options(flags);
        FileChannel c;
        synchronized (n) { // see close
            c = call(() -> FileChannel.open(p, o));
        }
        long fh = register(n, o, c);
        // an open for reading writes nothing its close would have to flush (see flush)
        boolean readOnly = (flags & Posix.O_ACCMODE) == Posix.O_RDONLY;
        if (!reply.open(fh, (keepData ? OpenReply.KEEP_CACHE : 0) | (readOnly ? OpenReply.NO_FLUSH : 0))) close(fh);
    }

    void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        NioNode dir = fs.node(parent);
        String s = newName(name);
        Path p = fs.child(dir, s);
        Set<OpenOption> o = options(flags);
        boolean exclusive = (flags & Posix.O_EXCL) != 0;
        // The kernel sends create for a name it holds a miss for, which may exist by now (made
        // behind the mount): then it is opened as it is (truncated for O_TRUNC, which the kernel
        // leaves to a create), keeping its mode and owner.
        boolean existed = false;
        FileChannel c;
        if ((flags & Posix.O_ACCMODE) == Posix.O_RDONLY) {
            // A FileChannel opened only for reading ignores CREATE (O_RDONLY|O_CREAT is legal): make the file first.
            existed = call(() -> {
                try {
                    Files.createFile(p);
                    return false;
                } catch (FileAlreadyExistsException e) {
                    if (exclusive) throw e;
                    return true;
                }
            });
            c = call(() -> FileChannel.open(p, o));
        } else {
            Set<OpenOption> creating = new HashSet<>(o);
            creating.add(StandardOpenOption.CREATE_NEW);
            try {
                c = call(() -> FileChannel.open(p, creating));
            } catch (ErrnoException e) {
                if (exclusive || e.errno() != Errno.EEXIST) throw e;
                existed = true;
                Set<OpenOption> truncating = new HashSet<>(o);
                if ((flags & Posix.O_TRUNC) != 0) truncating.add(StandardOpenOption.TRUNCATE_EXISTING);
                c = call(() -> FileChannel.open(p, truncating));
            }
            if (!existed && !fs.defaultProvider && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                // A provider whose new file appears only when its channel closes (zipfs): close it, open it again.
                deferredWrites = true;
                c.close();
                c = call(() -> FileChannel.open(p, o));
            }
        }
        try {
            Attributes a = existed ? fs.attrs.attributes(p, fs.table.child(dir, key(s))) : fs.attrs.settle(request, p, mode);
            NioNode n = fs.remember(dir, s, a);
            fs.attrs.fill(n, a, reply.attributes());
            long fh = register(n, o, c);
            if (!reply.created(n, fs.timeouts, fh, keepData ? OpenReply.KEEP_CACHE : 0)) close(fh);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        ByteBuffer buf = readBuffers.get().clear().limit((int) Math.min(size, READ_BUFFER));
        withChannel(file(fh), c -> {
            while (buf.hasRemaining()) {
                int n = c.read(buf, offset + buf.position());
                if (n < 0) break;
            }
            return null;
        });
        reply.data(buf.flip());
    }

    void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        OpenFile f = file(fh);
        f.dirty = true;
        long written = withChannel(f, c -> {
            long at = offset;
            try {
                while (data.hasRemaining()) at += c.write(data, at);
            } catch (IOException e) {
                if (at == offset) throw e;
                // Part of it was stored (a full disk): a short write, as the kernel's own filesystems
                // answer; the caller's next write gets the error. Answering the error for the whole
                // would leave bytes the writer was told were not written.
            }
            return at - offset;
        });
        fs.attrs.dataChanged(request, f.node());
        reply.written((int) written);
    }

    void fsync(Request request, long ino, long fh, boolean dataOnly, EmptyReply reply) throws IOException {
        withChannel(file(fh), c -> {
            c.force(!dataOnly);
            return null;
        });
        reply.ok();
    }

    /**
     * At each close(2): a provider that keeps written data in memory until its channel is forced
     * or closed (cryptofs writes whole encrypted chunks, and fills a gap a write leaves with
     * encrypted zeros) fails there when its store is full, and the kernel ignores what a release
     * answers: so a file written since the last flush is forced here, and close(2) reports the
     * failure (ENOSPC) as on a kernel filesystem, instead of the data going missing after a close
     * that succeeded. The default provider writes through to the kernel at each write, whose
     * errors the write answers: there flush answers ENOSYS once and the kernel stops sending it.
     */
    void flush(Request request, long ino, long fh, long lockOwner, EmptyReply reply) throws IOException {
        if (fs.defaultProvider) throw new ErrnoException(Errno.ENOSYS);
        OpenFile f = file(fh);
        if (deferredWrites && f.options.contains(StandardOpenOption.WRITE)) {
            // even unwritten: closing a channel opened for writing puts the file back as it was opened
            f.dirty = false;
            f.io.writeLock().lock();
            try {
                synchronized (f.node()) {
                    call(() -> {
                        closeChannel(f);
                        return null;
                    });
                }
            } finally {
                f.io.writeLock().unlock();
            }
        } else if (f.dirty) {
            f.dirty = false;
            withChannel(f, c -> {
                c.force(false);
                return null;
            });
        }
        reply.ok();
    }

    void release(Request request, long ino, long fh, int flags, EmptyReply reply) {
        close(fh);
        reply.ok();
    }

    /** The session ended: every file still open is closed. */
    void closeAll() {
        for (Long fh : List.copyOf(files.keySet())) close(fh);
    }
}
