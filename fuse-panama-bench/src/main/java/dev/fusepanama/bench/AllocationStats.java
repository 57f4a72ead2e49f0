package dev.fusepanama.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Heap bytes allocated per upcall, by operation, measured inside the filesystem process while the
 * kernel drives it. A wrapper of the bench filesystem ({@link CountingFileSystem} on the path
 * API, {@link CountingInodeFileSystem} on the inode API) is a forwarding filesystem, so the
 * wrapped one's operations are registered whatever it overrides, and on each libfuse worker thread
 * charges to an operation every byte that thread allocated since the end of its previous upcall:
 * the binding's work for this request (decoding the path or making the reply, the views) plus
 * the filesystem method's own. Worker threads run nothing but upcalls, so nothing else is
 * counted; the per-thread counter is HotSpot's ({@code getCurrentThreadAllocatedBytes}), read
 * twice per upcall.
 *
 * <p>Counting is off until asked for, and then costs two counter reads and a few adds per upcall;
 * while off, one volatile read. {@link #serve(Path)} takes one command byte per connection to a
 * Unix socket ({@code +} counting on, {@code -} off, anything else nothing) and answers with a
 * snapshot, lines of {@code OPERATION CALLS BYTES}, and {@code readdir-entries N}. The comparison
 * drives it with {@link #perMetric} and prints {@link #table}.
 */
final class AllocationStats {
    /** The operations of both APIs' bench filesystems. */
    enum Op { LOOKUP, FORGET, GETATTR, SETATTR, READDIR, READDIRPLUS, OPEN, READ, CREATE, WRITE, TRUNCATE, UNLINK, RENAME, UTIMENS }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

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
    private volatile boolean counting;

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[Op.values().length];
        for (int i = 0; i < a.length; i++) a[i] = new LongAdder();
        return a;
    }

    /** Whether upcalls are being counted; while not, a wrapper calls straight through. */
    boolean counting() {
        return counting;
    }

    /** This thread's allocation counter, read at an upcall's entry and passed to {@link #charge}. */
    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Charges to {@code op} what this thread allocated since its previous upcall ended, at its exit. */
    void charge(Op op, long atEntry) {
        long now = allocated();
        long[] last = lastExit.get();
        long e = epoch;
        long before = last[1] != e ? 0 : atEntry - last[0];
        last[1] = e;
        calls[op.ordinal()].increment();
        bytes[op.ordinal()].add(before + now - atEntry);
        last[0] = allocated();
    }

    /** Entries a listing upcall added to its reply. */
    void listed(long added) {
        entries.add(added);
    }

    /** The snapshot: {@code OPERATION CALLS BYTES} per operation, then the readdir entries added. */
    Map<String, long[]> snapshot() {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (Op op : Op.values()) m.put(op.name().toLowerCase(Locale.ROOT), new long[] {calls[op.ordinal()].sum(), bytes[op.ordinal()].sum()});
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

    // ---- the comparison's side ----------------------------------------------------------------

    /** A new path for a filesystem's socket, in a temporary directory that {@code cleanup} removes. */
    static Path socket(Cleanup cleanup) throws Exception {
        Path dir = Files.createTempDirectory("bench-stats-");
        Path socket = dir.resolve("allocation.sock");
        cleanup.add(() -> {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        });
        return socket;
    }

    /** Reads one snapshot from a filesystem serving {@code socket}. */
    static Map<String, long[]> read(Path socket) throws IOException {
        return command(socket, '?');
    }

    /** Sends {@code command} ({@code +} counting on, {@code -} off) and reads the snapshot that follows. */
    static Map<String, long[]> command(Path socket, char command) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            c.write(ByteBuffer.wrap(new byte[] {(byte) command}));
            String text = new String(Channels.newInputStream(c).readAllBytes(), StandardCharsets.US_ASCII);
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

    /**
     * Counts {@code fs}'s heap allocation per upcall for each metric, in a pass of its own after
     * the timed rounds so that counting costs them nothing; one untimed pass first lets each
     * worker thread set up. Returns per metric the counted snapshot, with the key
     * {@code client operations} for the operations the metric did.
     */
    static Map<String, Map<String, long[]>> perMetric(Path socket, FsProcess fs, List<Suite.Metric> metrics, double scale)
            throws Exception {
        Map<String, Map<String, long[]>> allocation = new LinkedHashMap<>();
        command(socket, '+');
        for (Suite.Metric m : metrics) m.run(fs, scale);
        for (Suite.Metric m : metrics) {
            Map<String, long[]> before = read(socket);
            long[] done = m.run(fs, scale);
            Map<String, long[]> counted = minus(read(socket), before);
            counted.put("client operations", new long[] {done[0], 0});
            allocation.put(m.name(), counted);
        }
        command(socket, '-');
        return allocation;
    }

    /** A column of {@link #table}: one operation's bytes per call, or the bytes of listing operations per entry listed. */
    sealed interface Column {
        record Calls(String op) implements Column {}

        record PerEntry(String header, List<String> ops) implements Column {}
    }

    /** Heap bytes per upcall by operation, with calls per client operation; the operations not in a column summed as "other upcalls". */
    static String table(String filesystem, List<Column> columns, Map<String, Map<String, long[]>> allocation) {
        List<String> shown = new ArrayList<>(List.of("readdir-entries", "client operations"));
        String listings = "";
        StringBuilder header = new StringBuilder("| metric |");
        for (Column c : columns) {
            switch (c) {
                case Column.Calls k -> {
                    shown.add(k.op());
                    header.append(' ').append(k.op()).append(" |");
                }
                case Column.PerEntry p -> {
                    listings = String.join(" and ", p.ops());
                    header.append(' ').append(p.header()).append(" |");
                }
            }
        }
        header.append(" other upcalls |\n|---|").append("---:|".repeat(columns.size() + 1)).append('\n');
        StringBuilder sb = new StringBuilder(Report.wrap("Heap allocated by the " + filesystem + " filesystem per upcall, counted "
                + "on its worker threads while the kernel drove it, in one pass after the timed rounds (bytes per call, with "
                + "calls per client operation in parentheses" + (listings.isEmpty() ? "" : "; " + listings + " also per entry listed")
                + "):") + "\n\n").append(header);
        allocation.forEach((metric, a) -> {
            double ops = Math.max(1, a.get("client operations")[0]);
            sb.append("| ").append(metric).append(" |");
            for (Column c : columns) {
                sb.append(' ').append(switch (c) {
                    case Column.Calls k -> perCall(a.get(k.op()), ops);
                    case Column.PerEntry p -> {
                        long listed = a.get("readdir-entries")[0];
                        long bytes = 0;
                        for (String op : p.ops()) bytes += a.getOrDefault(op, new long[2])[1];
                        yield listed == 0 ? "-" : String.format(Locale.ROOT, "%.1f", bytes / (double) listed);
                    }
                }).append(" |");
            }
            long[] other = new long[2];
            a.forEach((k, v) -> {
                if (!shown.contains(k)) {
                    other[0] += v[0];
                    other[1] += v[1];
                }
            });
            sb.append(' ').append(perCall(other, ops)).append(" |\n");
        });
        return sb.toString();
    }

    private static String perCall(long[] callsAndBytes, double clientOps) {
        if (callsAndBytes == null || callsAndBytes[0] == 0) return "-";
        return String.format(Locale.ROOT, "%.1f (%s)", callsAndBytes[1] / (double) callsAndBytes[0], Report.number(callsAndBytes[0] / clientOps));
    }
}
