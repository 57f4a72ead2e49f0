package dev.fusepanama.bench;

import dev.fusepanama.DirFiller;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Stat;
import dev.fusepanama.Timespec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Heap bytes allocated per upcall, by operation, measured inside the filesystem process while the
 * kernel drives it. Wraps {@link PanamaBenchFs} (overriding exactly its methods, so the same
 * operations are registered) and, on each libfuse worker thread, charges to an operation every
 * byte that thread allocated since the end of its previous upcall: the binding's work for this
 * request (decoding the path, the views) plus the filesystem method's own. Worker threads run
 * nothing but upcalls, so nothing else is counted; the per-thread counter is HotSpot's
 * ({@code getCurrentThreadAllocatedBytes}), read twice per upcall.
 *
 * <p>Counting is off until asked for, and then costs two counter reads and a few adds per upcall;
 * while off, one volatile read. {@link #serve(Path)} takes one command byte per connection to a
 * Unix socket ({@code +} counting on, {@code -} off, anything else nothing) and answers with a
 * snapshot, lines of {@code OPERATION CALLS BYTES}, and {@code readdir-entries N}.
 */
final class AllocationStats implements FuseFileSystem {
    enum Op { GETATTR, READDIR, OPEN, READ, CREATE, WRITE, TRUNCATE, UNLINK, RENAME, UTIMENS }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final FuseFileSystem fs;
    private final LongAdder[] calls = adders();
    private final LongAdder[] bytes = adders();
    private final LongAdder entries = new LongAdder();
    /**
     * Per worker thread: its allocation counter at the end of its last counted upcall, and the
     * {@link #epoch} that upcall ran in (a thread's first upcall of an epoch has nothing before it to charge).
     */
    private final ThreadLocal<long[]> lastExit = ThreadLocal.withInitial(() -> new long[] {0, -1});
    /** Incremented each time counting is turned on. */
    private volatile long epoch;
    private final ThreadLocal<CountingFiller> fillers = ThreadLocal.withInitial(CountingFiller::new);
    private volatile boolean counting;

    AllocationStats(FuseFileSystem fs) {
        this.fs = fs;
    }

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[Op.values().length];
        for (int i = 0; i < a.length; i++) a[i] = new LongAdder();
        return a;
    }

    private static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private void charge(Op op, long atEntry) {
        long now = allocated();
        long[] last = lastExit.get();
        long e = epoch;
        long before = last[1] != e ? 0 : atEntry - last[0];
        last[1] = e;
        calls[op.ordinal()].increment();
        bytes[op.ordinal()].add(before + now - atEntry);
        last[0] = allocated();
    }

    /** The snapshot: {@code OPERATION CALLS BYTES} per operation, then the readdir entries added. */
    Map<String, long[]> snapshot() {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (Op op : Op.values()) m.put(op.name().toLowerCase(), new long[] {calls[op.ordinal()].sum(), bytes[op.ordinal()].sum()});
        m.put("readdir-entries", new long[] {entries.sum(), 0});
        return m;
    }

    /** Answers each connection to {@code socket} with a snapshot, on a daemon thread. */
    void serve(Path socket) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread t = new Thread(() -> {
            try (server) {
                while (true) {
                    try (SocketChannel c = server.accept()) {
                        ByteBuffer command = ByteBuffer.allocate(1);
                        if (c.read(command) == 1) {
                            byte b = command.get(0);
                            if (b == '+' && !counting) {
                                epoch++;
                                counting = true;
                            }
                            if (b == '-') counting = false;
                        }
                        StringBuilder sb = new StringBuilder();
                        snapshot().forEach((k, v) -> sb.append(k).append(' ').append(v[0]).append(' ').append(v[1]).append('\n'));
                        ByteBuffer out = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.US_ASCII));
                        while (out.hasRemaining()) c.write(out);
                    }
                }
            } catch (IOException e) {
                // the socket was removed or the process is ending
            } finally {
                try {
                    Files.deleteIfExists(socket);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }, "allocation-stats");
        t.setDaemon(true);
        t.start();
    }

    /** Reads one snapshot from a filesystem serving {@code socket}. */
    static Map<String, long[]> read(Path socket) throws IOException {
        return command(socket, '?');
    }

    /** Sends {@code command} ({@code +} counting on, {@code -} off) and reads the snapshot that follows. */
    static Map<String, long[]> command(Path socket, char command) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            c.write(ByteBuffer.wrap(new byte[] {(byte) command}));
            String text = new String(java.nio.channels.Channels.newInputStream(c).readAllBytes(), StandardCharsets.US_ASCII);
            Map<String, long[]> m = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                String[] f = line.split(" ");
                if (f.length == 3) m.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
            }
            return m;
        }
    }

    /** {@code after - before}, per key. */
    static Map<String, long[]> minus(Map<String, long[]> after, Map<String, long[]> before) {
        Map<String, long[]> m = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            long[] b = before.getOrDefault(k, new long[2]);
            m.put(k, new long[] {v[0] - b[0], v[1] - b[1]});
        });
        return m;
    }

    /** Counts the entries a readdir added; one per worker thread, pointed at each call's filler. */
    private static final class CountingFiller implements DirFiller {
        DirFiller target;
        long added;

        @Override public boolean add(String name, long nextOffset) { return counted(target.add(name, nextOffset)); }
        @Override public boolean add(String name, long nextOffset, Stat attributes) { return counted(target.add(name, nextOffset, attributes)); }
        @Override public Stat attributes() { return target.attributes(); }

        private boolean counted(boolean full) {
            if (!full) added++;
            return full;
        }
    }

    // ---- the wrapped operations: exactly those PanamaBenchFs implements --------------------------

    @Override
    public int getattr(String path, Stat st, FileInfo fi) throws IOException {
        if (!counting) return fs.getattr(path, st, fi);
        long t = allocated();
        try { return fs.getattr(path, st, fi); } finally { charge(Op.GETATTR, t); }
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException {
        if (!counting) return fs.readdir(path, filler, offset, fi, flags);
        long t = allocated();
        CountingFiller cf = fillers.get();
        cf.target = filler;
        cf.added = 0;
        try {
            return fs.readdir(path, cf, offset, fi, flags);
        } finally {
            entries.add(cf.added);
            cf.target = null;
            charge(Op.READDIR, t);
        }
    }

    @Override
    public int open(String path, FileInfo fi) throws IOException {
        if (!counting) return fs.open(path, fi);
        long t = allocated();
        try { return fs.open(path, fi); } finally { charge(Op.OPEN, t); }
    }

    @Override
    public int read(String path, ByteBuffer buf, long offset, FileInfo fi) throws IOException {
        if (!counting) return fs.read(path, buf, offset, fi);
        long t = allocated();
        try { return fs.read(path, buf, offset, fi); } finally { charge(Op.READ, t); }
    }

    @Override
    public int create(String path, int mode, FileInfo fi) throws IOException {
        if (!counting) return fs.create(path, mode, fi);
        long t = allocated();
        try { return fs.create(path, mode, fi); } finally { charge(Op.CREATE, t); }
    }

    @Override
    public int write(String path, ByteBuffer buf, long offset, FileInfo fi) throws IOException {
        if (!counting) return fs.write(path, buf, offset, fi);
        long t = allocated();
        try { return fs.write(path, buf, offset, fi); } finally { charge(Op.WRITE, t); }
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) throws IOException {
        if (!counting) return fs.truncate(path, size, fi);
        long t = allocated();
        try { return fs.truncate(path, size, fi); } finally { charge(Op.TRUNCATE, t); }
    }

    @Override
    public int unlink(String path) throws IOException {
        if (!counting) return fs.unlink(path);
        long t = allocated();
        try { return fs.unlink(path); } finally { charge(Op.UNLINK, t); }
    }

    @Override
    public int rename(String from, String to, int flags) throws IOException {
        if (!counting) return fs.rename(from, to, flags);
        long t = allocated();
        try { return fs.rename(from, to, flags); } finally { charge(Op.RENAME, t); }
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws IOException {
        if (!counting) return fs.utimens(path, atime, mtime, fi);
        long t = allocated();
        try { return fs.utimens(path, atime, mtime, fi); } finally { charge(Op.UTIMENS, t); }
    }
}
