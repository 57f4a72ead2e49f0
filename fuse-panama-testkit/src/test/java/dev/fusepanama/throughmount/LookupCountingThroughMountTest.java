package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.ConnectionInfo;
import dev.fusepanama.Errno;
import dev.fusepanama.Fuse;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.table.Node;
import dev.fusepanama.inode.table.NodeTable;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library counts the kernel's lookups for a filesystem that answers with the nodes of its
 * {@link NodeTable} ({@link InodeFileSystem#lookups()}), through a mount: lookups, creates and
 * readdirplus entries are counted as the kernel takes them, the kernel's forgets (drop_caches,
 * and drop_caches in a loop while several processes look names up and list them) bring every
 * count back to 0 without one forget of more than was counted, a file unlinked while open lives
 * while the kernel holds it and goes once it does not, and the end of the mount ends every count.
 */
@MountTest
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LookupCountingThroughMountTest {
    private static final Timeouts LONG = Timeouts.NONE.withAttributes(60).withEntries(60);

    /** A file or directory of the test's filesystem. */
    static final class TNode extends Node {
        final AtomicInteger forgottenCalls = new AtomicInteger();

        TNode(int type) {
            super(type);
        }

        @Override
        protected void forgotten() {
            forgottenCalls.incrementAndGet();
        }
    }

    /**
     * A flat-enough filesystem on an owning node table that counts nothing itself. Its counter
     * passes everything to the table and records each forget of a node the table no longer has,
     * or of more lookups than it holds: what a wrong count would show first.
     */
    static class CountedFs implements InodeFileSystem {
        final TNode rootNode = new TNode(Posix.S_IFDIR);
        final NodeTable<TNode> table = NodeTable.owning(rootNode);
        final ConcurrentLinkedQueue<String> anomalies = new ConcurrentLinkedQueue<>();
        final AtomicLong notCounted = new AtomicLong();
        final AtomicLong forgets = new AtomicLong();
        final AtomicInteger sessionsEnded = new AtomicInteger();
        final AtomicInteger plainListings = new AtomicInteger();
        final AtomicInteger plusListings = new AtomicInteger();
        private final LookupCounter counter = new LookupCounter() {
            @Override
            public boolean count(Inode inode) {
                boolean counted = table.count(inode);
                if (!counted) notCounted.incrementAndGet();
                return counted;
            }

            @Override
            public void forget(long nodeId, long lookups) {
                forgets.addAndGet(lookups);
                if (nodeId != ROOT) {
                    TNode n = table.find(nodeId);
                    if (n == null) {
                        anomalies.add("forget of node " + nodeId + ", dropped while the kernel held it");
                    } else if (n.lookups() < lookups) {
                        anomalies.add("forget of " + lookups + " lookups of node " + nodeId + ", which had " + n.lookups());
                    }
                }
                table.forget(nodeId, lookups);
            }

            @Override
            public void sessionEnded() {
                sessionsEnded.incrementAndGet();
                table.sessionEnded();
            }
        };

        @Override
        public LookupCounter lookups() {
            return counter;
        }

        private TNode node(long ino) throws ErrnoException {
            TNode n = table.find(ino);
            if (n == null) throw new ErrnoException(Errno.ESTALE);
            return n;
        }

        private TNode dir(long ino) throws ErrnoException {
            TNode n = node(ino);
            if (!n.isDirectory()) throw new ErrnoException(Errno.ENOTDIR);
            return n;
        }

        private void fill(TNode n, Stat st) {
            st.setMode(n.type() | (n.isDirectory() ? 0755 : 0644)).setNlink(n.isDirectory() ? 2 : table.linkCount(n));
        }

        @Override
        public void lookup(Request request, long parent, Name name, EntryReply reply) throws ErrnoException {
            TNode n = table.child(dir(parent), NodeTable.key(name));
            if (n == null) throw new ErrnoException(Errno.ENOENT);
            fill(n, reply.attributes());
            reply.entry(n, LONG);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) throws ErrnoException {
            fill(node(ino), reply.attributes());
            reply.send(LONG);
        }

        @Override
        public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) throws IOException {
            String key = NodeTable.key(name);
            table.write(() -> {
                TNode d = dir(parent);
                if (table.child(d, key) != null) throw new ErrnoException(Errno.EEXIST);
                TNode n = new TNode(Posix.S_IFDIR);
                table.add(d, key, n);
                fill(n, reply.attributes());
                reply.entry(n, LONG);
                return null;
            });
        }

        @Override
        public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
            String key = NodeTable.key(name);
            table.write(() -> {
                TNode d = dir(parent);
                if (table.child(d, key) != null) throw new ErrnoException(Errno.EEXIST);
                TNode n = new TNode(Posix.S_IFREG);
                table.add(d, key, n);
                table.hold(n);
                fill(n, reply.attributes());
                if (!reply.created(n, LONG, n.nodeId(), 0)) table.letGo(n);
                return null;
            });
        }

        @Override
        public void open(Request request, long ino, int flags, OpenReply reply) throws ErrnoException {
            TNode n = node(ino);
            table.hold(n);
            if (!reply.open(ino, 0)) table.letGo(n);
        }

        @Override
        public void release(Request request, long ino, long fh, int flags, EmptyReply reply) throws ErrnoException {
            table.letGo(node(ino));
            reply.ok();
        }

        @Override
        public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
            String key = NodeTable.key(name);
            table.write(() -> {
                TNode d = dir(parent);
                TNode n = table.child(d, key);
                if (n == null) throw new ErrnoException(Errno.ENOENT);
                if (n.isDirectory()) throw new ErrnoException(Errno.EISDIR);
                table.remove(d, key);
                return null;
            });
            reply.ok();
        }

        /** READDIR by number and type; READDIRPLUS with the nodes, "." and ".." included (which the kernel does not count). */
        @Override
        public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
            (reply.plus() ? plusListings : plainListings).incrementAndGet();
            TNode d = dir(ino);
            table.read(() -> {
                TNode parent = table.parent(d) == null ? d : table.parent(d);
                if (offset < 1 && add(reply, new byte[] {'.'}, d, 1)) return null;
                if (offset < 2 && add(reply, new byte[] {'.', '.'}, parent, 2)) return null;
                for (NodeTable.Entry<TNode> e : table.entries(d, Math.max(offset, 2), Long.MAX_VALUE).values()) {
                    if (add(reply, e.bytes(), e.node(), e.cookie())) break;
                }
                return null;
            });
            reply.send();
        }

        private boolean add(DirReply reply, byte[] name, TNode n, long next) {
            if (!reply.plus()) return reply.add(name, n.nodeId(), n.type(), next);
            fill(n, reply.attributes());
            return reply.add(name, n, LONG, next);
        }

        /** The lookups the table holds of every node but the root. */
        long held() {
            long sum = 0;
            for (TNode n : table.nodes()) {
                if (n != rootNode) sum += n.lookups();
            }
            return sum;
        }
    }

    /** drop_caches until the kernel has forgotten all it held but {@code keep} lookups, or 20 s pass; the lookups left. */
    private static long forgetAllBut(CountedFs fs, long keep) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Os.dropCaches();
            Thread.sleep(50);
            long held = fs.held();
            if (held <= keep || System.nanoTime() > deadline) return held;
            Thread.sleep(200);
        }
    }

    private static List<TNode> children(CountedFs fs, TNode dir) throws IOException {
        List<TNode> all = new ArrayList<>();
        fs.table.read(() -> {
            fs.table.entries(dir, 0, Long.MAX_VALUE).values().forEach(e -> all.add(e.node()));
            return null;
        });
        return all;
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " ran too long");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    }

    @Test
    void everyEntryTheKernelTookIsForgottenExactlyAndAnUnlinkedOpenFileLivesUntilTheKernelLetsGo() throws Exception {
        CountedFs fs = new CountedFs();
        List<TNode> unlinkedOpen = new ArrayList<>();
        try (TestMount m = TestMount.mount(fs)) {
            Path sub = m.path("sub");
            assertEquals(0, Os.mkdir(Os.bytes(sub), 0755));
            for (int i = 0; i < 150; i++) {
                Os.close(Os.open(m.path("f" + i), Posix.O_CREAT | Posix.O_WRONLY));
                Os.close(Os.open(sub.resolve("g" + i), Posix.O_CREAT | Posix.O_WRONLY));
            }
            String pad = "x".repeat(200);
            for (int i = 0; i < 1500; i++) { // over 300 KiB of readdirplus entries: batches that fill up
                Os.close(Os.open(sub.resolve(i + pad), Posix.O_CREAT | Posix.O_WRONLY));
            }
            assertTrue(fs.held() > 0, "the creates' entries are counted");
            assertEquals(0, forgetAllBut(fs, 0), "drop_caches: the kernel forgot every entry, and the counts agree");

            run("ls", "-lR", m.root().toString()); // readdirplus batches of both directories
            assertTrue(fs.held() >= 1800, "every readdirplus entry counted (or looked up): " + fs.held());
            for (int i = 0; i < 150; i += 7) {
                Os.lstat(Os.bytes(m.path("f" + i)));
            }
            int[] fds = new int[10];
            for (int i = 0; i < fds.length; i++) {
                fds[i] = Os.open(m.path("f" + i), Posix.O_RDONLY);
                unlinkedOpen.add(fs.table.child(fs.rootNode, "f" + i));
                assertEquals(0, Os.unlink(Os.bytes(m.path("f" + i))));
            }
            assertEquals(fds.length, forgetAllBut(fs, fds.length),
                    "all forgotten but one lookup of each file unlinked while open, which the kernel keeps");
            for (int i = 0; i < fds.length; i++) {
                TNode n = unlinkedOpen.get(i);
                assertFalse(n.isDropped(), "the kernel holds it: not dropped");
                assertEquals(1, n.lookups());
                assertEquals(0, Os.fstat(fds[i]).nlink(), "fstat of the unlinked file finds it by number");
                Os.close(fds[i]);
            }
            assertEquals(0, forgetAllBut(fs, 0));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (unlinkedOpen.stream().anyMatch(n -> !n.isDropped()) && System.nanoTime() < deadline) Thread.sleep(20);
            for (TNode n : unlinkedOpen) {
                assertTrue(n.isDropped(), "closed and forgotten: gone, no node leaked");
                assertEquals(1, n.forgottenCalls.get());
                assertNull(fs.table.find(n.nodeId()));
            }
            assertEquals(140, fs.table.size(fs.rootNode) - 1, "the named files stay");
            assertEquals(List.of(), List.copyOf(fs.anomalies));
            run("ls", "-l", m.root().toString());
            assertTrue(fs.held() > 0);
        }
        assertEquals(1, fs.sessionsEnded.get(), "the library ended the table's session after destroy");
        assertEquals(0, fs.held(), "the end of the mount ends every count");
        assertEquals(List.of(), List.copyOf(fs.anomalies));
    }

    /**
     * Memory pressure as the kernel's forgets arriving while entries of the same nodes are being
     * sent: drop_caches in a loop while four processes look names up and list the directory. No
     * lookup of an existing name fails (a node dropped before its entry was counted is looked up
     * again), no forget finds fewer lookups than it takes, and once the processes stop and the
     * kernel forgets, every count is 0.
     */
    @Test
    void entriesRacingTheKernelsForgetsKeepTheCountExact() throws Exception {
        CountedFs fs = new CountedFs();
        try (TestMount m = TestMount.mount(fs)) {
            for (int i = 0; i < 100; i++) {
                Os.close(Os.open(m.path("f" + i), Posix.O_CREAT | Posix.O_WRONLY));
            }
            String dir = m.root().toString();
            String script = "end=$(($(date +%s) + 6)); while [ $(date +%s) -lt $end ]; do"
                    + " for i in $(seq 0 99); do stat -c %i \"$1/f$i\" > /dev/null || exit 1; done;"
                    + " ls -l \"$1\" > /dev/null || exit 1; done";
            List<Process> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                clients.add(new ProcessBuilder("sh", "-c", script, "client", dir).redirectErrorStream(true).start());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            int drops = 0;
            while (System.nanoTime() < deadline) {
                Os.dropCaches();
                drops++;
                Thread.sleep(20);
            }
            for (Process p : clients) {
                String out = new String(p.getInputStream().readAllBytes());
                assertTrue(p.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), "a client's stat or ls failed: " + out);
            }
            assertTrue(drops > 20, "the kernel was made to forget often: " + drops);
            assertTrue(fs.forgets.get() > 0);
            assertEquals(0, forgetAllBut(fs, 0), "every count back to 0 once the kernel forgot");
            assertEquals(List.of(), List.copyOf(fs.anomalies));
            for (TNode n : children(fs, fs.rootNode)) {
                assertNotNull(fs.table.find(n.nodeId()), "named files are never dropped");
            }
        }
        assertEquals(0, fs.held());
    }

    /** A filesystem that has the library count its lookups and implements forget too is refused: its forget would never be called. */
    @Test
    void aCountedFilesystemThatAlsoImplementsForgetDoesNotMount() throws Exception {
        CountedFs fs = new CountedFs() {
            @Override
            public void forget(long ino, long lookups) {}
        };
        Path dir = Files.createTempDirectory("fp-counted-");
        try {
            MountException e = assertThrows(MountException.class, () -> Fuse.mount(fs, dir).close());
            assertEquals(MountException.Reason.INVALID_OPTIONS, e.reason());
            assertTrue(e.getMessage().contains("implements forget, which would never be called; drop forget"), e.getMessage());
        } finally {
            Files.delete(dir);
        }
    }

    /**
     * One readdir serves both kinds of listing: {@code ls -l} gets READDIRPLUS (its entries counted,
     * then forgotten), and a filesystem that unwants CAP_READDIRPLUS gets READDIR only, lists
     * the same names and counts nothing for them.
     */
    @Test
    void oneReaddirServesBothKindsOfListingAndUnwantingReaddirplusLeavesPlainOnes() throws Exception {
        for (boolean plain : new boolean[] {false, true}) {
            CountedFs fs = new CountedFs();
            KernelSettings settings = plain ? KernelSettings.builder().unwant(ConnectionInfo.CAP_READDIRPLUS).build() : KernelSettings.DEFAULTS;
            try (TestMount m = TestMount.mount(fs, MountOptions.defaults(), settings)) {
                for (int i = 0; i < 20; i++) Os.close(Os.open(m.path("f" + i), Posix.O_CREAT | Posix.O_WRONLY));
                assertEquals(0, forgetAllBut(fs, 0));
                Process ls = new ProcessBuilder("ls", "-1", m.root().toString()).redirectErrorStream(true).start();
                String out = new String(ls.getInputStream().readAllBytes());
                assertTrue(ls.waitFor(30, TimeUnit.SECONDS));
                assertEquals(20, out.lines().count(), out);
                if (plain) {
                    assertEquals(0, fs.plusListings.get(), "READDIRPLUS unwanted: never asked");
                    assertTrue(fs.plainListings.get() > 0);
                    assertEquals(0, fs.held(), "a plain listing counts nothing");
                } else {
                    assertTrue(fs.plusListings.get() > 0, "the kernel asked for READDIRPLUS");
                    assertTrue(fs.held() >= 20, "and took the entries' nodes: " + fs.held());
                    assertEquals(0, forgetAllBut(fs, 0));
                }
                assertEquals(List.of(), List.copyOf(fs.anomalies));
            }
        }
    }
}
