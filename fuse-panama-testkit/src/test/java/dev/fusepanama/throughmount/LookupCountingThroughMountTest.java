package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library counts the kernel's lookups for a filesystem that answers with the nodes of its
 * {@link NodeTable} ({@link InodeFileSystem#lookups()}), through a mount: lookups, creates and
 * readdirplus entries are counted as the kernel takes them, the kernel's forgets (drop_caches,
 * and drop_caches in a loop while several processes look names up and list them) bring every
 * count back to 0 without one forget of more than was counted, as do the forgets of a memory
 * cgroup's reclaim; an entry whose send fails is taken back; a file unlinked while open lives
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
        final AtomicLong counts = new AtomicLong();
        final AtomicInteger sessionsEnded = new AtomicInteger();
        final AtomicInteger plainListings = new AtomicInteger();
        final AtomicInteger plusListings = new AtomicInteger();
        /** The node whose counts and forgets go into {@link #events}; 0 for none. */
        volatile long watched;
        final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        private final LookupCounter counter = new LookupCounter() {
            @Override
            public boolean count(Inode inode) {
                boolean counted = table.count(inode);
                if (counted) counts.incrementAndGet();
                else notCounted.incrementAndGet();
                if (inode.nodeId() == watched) events.add((counted ? "count " : "not counted ") + inode.nodeId());
                return counted;
            }

            @Override
            public void forget(long nodeId, long lookups) {
                forgets.addAndGet(lookups);
                if (nodeId == watched) events.add("forget " + nodeId + " " + lookups);
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

        TNode dir(long ino) throws ErrnoException {
            TNode n = node(ino);
            if (!n.isDirectory()) throw new ErrnoException(Errno.ENOTDIR);
            return n;
        }

        void fill(TNode n, Stat st) {
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
            sent(reply.send());
        }

        /** Called on the worker after a listing's send, before the request ends. */
        void sent(boolean sent) {}

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

    /** Skips the test where a connection cannot be aborted (fusectl cannot be mounted: not root). */
    private static void assumeAbortable() throws Exception {
        TestMount.ensureFusectl();
        Assumptions.assumeTrue(Files.readString(Path.of("/proc/self/mounts")).contains(" /sys/fs/fuse/connections fusectl "),
                "fusectl is not mounted and cannot be: a connection cannot be aborted here");
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
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a client ran too long");
                assertEquals(0, p.exitValue(), "a client's stat or ls failed: " + new String(p.getInputStream().readAllBytes()));
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

    /**
     * An entry the kernel never takes is taken back. A lookup is held until the connection is
     * aborted (its caller gone with it), then answered with a node: the library counts it, the
     * send fails, {@code entry} says so, and the library forgets that one lookup again. The node
     * is left as the kernel has it, not held at all, and still named.
     */
    @Test
    void anEntryWhoseSendFailsIsTakenBack() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        AtomicReference<Boolean> sent = new AtomicReference<>();
        AtomicLong lookupsAfter = new AtomicLong(-1);
        CountedFs fs = new CountedFs() {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply) throws ErrnoException {
                if (!name.toString().equals("late") || watched == 0) {
                    super.lookup(request, parent, name, reply);
                    return;
                }
                asked.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                TNode n = table.child(dir(parent), "late");
                fill(n, reply.attributes());
                sent.set(reply.entry(n, LONG));
                lookupsAfter.set(n.lookups()); // on the worker: before the session can end
                answered.countDown();
            }
        };
        assumeAbortable();
        TNode late;
        Process stat = null;
        try (TestMount m = TestMount.mount(fs)) {
            Os.close(Os.open(m.path("late"), Posix.O_CREAT | Posix.O_WRONLY));
            late = fs.table.child(fs.rootNode, "late");
            assertEquals(0, forgetAllBut(fs, 0), "the kernel forgot the created file");
            fs.watched = late.nodeId();
            stat = new ProcessBuilder("stat", m.path("late").toString()).redirectErrorStream(true).start();
            assertTrue(asked.await(30, TimeUnit.SECONDS), "stat made the kernel look the name up");
            TestMount.forceUnmount(m.root());
            release.countDown();
            assertTrue(answered.await(30, TimeUnit.SECONDS), "the held lookup answered");
            assertEquals(Boolean.FALSE, sent.get(), "the aborted connection took no entry, and entry() says so");
            long id = late.nodeId();
            assertEquals(List.of("count " + id, "forget " + id + " 1"), List.copyOf(fs.events),
                    "counted as the entry went out, taken back once when it did not arrive");
            assertEquals(0, lookupsAfter.get(), "no lookup held once entry() returned");
            assertFalse(late.isDropped(), "still named: the node stays");
            assertTrue(stat.waitFor(30, TimeUnit.SECONDS));
            assertNotEquals(0, stat.exitValue(), "stat's lookup failed with the connection");
        } finally {
            release.countDown();
            if (stat != null) stat.destroyForcibly();
        }
        assertEquals(List.of(), List.copyOf(fs.anomalies));
        assertEquals(0, fs.held());
    }

    /**
     * A readdirplus batch the kernel never takes is taken back: {@code ls -l}'s first READDIRPLUS
     * is held until the connection is aborted, then filled with up to 50 entries, each counted as
     * it is added; the send fails, and before the request ends the library has forgotten every one
     * of them again, once.
     */
    @Test
    void aReaddirplusBatchWhoseSendFailsIsTakenBack() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        AtomicReference<Boolean> sent = new AtomicReference<>();
        AtomicLong heldAfter = new AtomicLong(-1);
        AtomicLong countedBefore = new AtomicLong();
        AtomicLong forgotBefore = new AtomicLong();
        AtomicLong countedInBatch = new AtomicLong(-1);
        AtomicLong forgotInBatch = new AtomicLong(-1);
        AtomicBoolean hold = new AtomicBoolean();
        AtomicBoolean inHeld = new AtomicBoolean();
        CountedFs fs = new CountedFs() {
            @Override
            public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
                if (reply.plus() && offset == 0 && hold.compareAndSet(true, false)) {
                    asked.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    countedBefore.set(counts.get());
                    forgotBefore.set(forgets.get());
                    inHeld.set(true);
                    super.readdir(request, ino, fh, size, offset, reply);
                    answered.countDown();
                    return;
                }
                super.readdir(request, ino, fh, size, offset, reply);
            }

            @Override
            void sent(boolean ok) {
                if (!inHeld.get()) return;
                sent.set(ok);
                heldAfter.set(held()); // on the worker: before the session can end
                countedInBatch.set(counts.get() - countedBefore.get());
                forgotInBatch.set(forgets.get() - forgotBefore.get());
            }
        };
        assumeAbortable();
        Process ls = null;
        try (TestMount m = TestMount.mount(fs)) {
            for (int i = 0; i < 50; i++) Os.close(Os.open(m.path("f" + i), Posix.O_CREAT | Posix.O_WRONLY));
            assertEquals(0, forgetAllBut(fs, 0), "the kernel forgot the created files");
            hold.set(true);
            ls = new ProcessBuilder("ls", "-l", m.root().toString()).redirectErrorStream(true).start();
            assertTrue(asked.await(30, TimeUnit.SECONDS), "ls made the kernel ask for READDIRPLUS");
            TestMount.forceUnmount(m.root());
            release.countDown();
            assertTrue(answered.await(30, TimeUnit.SECONDS), "the held listing answered");
            assertEquals(Boolean.FALSE, sent.get(), "the aborted connection took no batch, and send() says so");
            // As many as fit the kernel's buffer (one page before Linux 6.16, more since): all 50 here.
            assertTrue(countedInBatch.get() > 10, "each entry counted as it was added: " + countedInBatch.get());
            assertEquals(countedInBatch.get(), forgotInBatch.get(), "and each forgotten again, once, when the batch did not arrive");
            assertEquals(0, heldAfter.get(), "no lookup held once send() returned");
            assertTrue(ls.waitFor(30, TimeUnit.SECONDS));
            assertNotEquals(0, ls.exitValue(), "ls failed with the connection");
        } finally {
            release.countDown();
            if (ls != null) ls.destroyForcibly();
        }
        assertEquals(List.of(), List.copyOf(fs.anomalies));
        assertEquals(0, fs.held());
    }

    /**
     * Memory pressure as the kernel meets it: four processes in a memory cgroup of their own
     * stat and list 400 names while the cgroup is made to reclaim every 50 ms (cgroup v1's
     * {@code memory.force_empty}, v2's {@code memory.reclaim}). Reclaim shrinks the dentries
     * and inodes charged to the cgroup, so the kernel's forgets arrive in the middle of lookups
     * and readdirplus batches of the same nodes. Nothing else forgets here (no drop_caches
     * until the end), so every forget counted during the run came from reclaim; none finds fewer
     * lookups than it takes, no client fails, and the counts end at 0.
     */
    @Test
    void reclaimInAMemoryCgroupForgetsExactly() throws Exception {
        CountedFs fs = new CountedFs();
        try (MemoryCgroup cgroup = MemoryCgroup.create("fp-lookups-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
                TestMount m = TestMount.mount(fs)) {
            for (int i = 0; i < 400; i++) {
                Os.close(Os.open(m.path("f" + i), Posix.O_CREAT | Posix.O_WRONLY));
            }
            assertEquals(0, forgetAllBut(fs, 0));
            long forgetsBefore = fs.forgets.get();
            String script = "echo $$ > \"$2\" || exit 2; end=$(($(date +%s) + 6)); while [ $(date +%s) -lt $end ]; do"
                    + " stat -c %i \"$1\"/f* > /dev/null || exit 1; ls -l \"$1\" > /dev/null || exit 1;"
                    + " for i in 0 57 123 256 399; do stat \"$1/f$i\" > /dev/null || exit 1; done; done";
            List<Process> clients = new ArrayList<>();
            int reclaims = 0;
            try {
                for (int c = 0; c < 4; c++) {
                    clients.add(new ProcessBuilder("sh", "-c", script, "client", m.root().toString(), cgroup.procs().toString())
                            .redirectErrorStream(true).start());
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
                while (System.nanoTime() < deadline) {
                    cgroup.reclaim();
                    reclaims++;
                    Thread.sleep(50);
                }
                for (Process p : clients) {
                    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a client ran too long");
                    assertEquals(0, p.exitValue(), "a client's stat or ls failed: " + new String(p.getInputStream().readAllBytes()));
                }
            } finally {
                for (Process p : clients) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // out of the cgroup before it is removed
                }
            }
            long reclaimed = fs.forgets.get() - forgetsBefore;
            assertTrue(reclaims > 10, "the cgroup was made to reclaim often: " + reclaims);
            assertTrue(reclaimed >= 20_000, "reclaim made the kernel forget, again and again: " + reclaimed + " lookups forgotten");
            assertEquals(List.of(), List.copyOf(fs.anomalies));
            assertEquals(0, forgetAllBut(fs, 0), "every count back to 0 once the kernel forgot");
            for (TNode n : children(fs, fs.rootNode)) {
                assertFalse(n.isDropped(), "named files are never dropped");
            }
        }
        assertEquals(0, fs.held());
        assertEquals(List.of(), List.copyOf(fs.anomalies));
    }

    /**
     * A memory cgroup for child processes to join, on cgroup v1's memory controller (below this
     * JVM's own cgroup) or v2 (below the nearest ancestor of this JVM's cgroup that passes the
     * memory controller down); the test is skipped where neither can be made (not root, a
     * read-only cgroup filesystem, no memory controller).
     */
    static final class MemoryCgroup implements AutoCloseable {
        private final Path dir;
        private final boolean v2;

        private MemoryCgroup(Path dir, boolean v2) {
            this.dir = dir;
            this.v2 = v2;
        }

        static MemoryCgroup create(String name) throws IOException {
            List<String> cgroups = Files.readAllLines(Path.of("/proc/self/cgroup"));
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                // id parent major:minor root mountpoint options [optional fields] - type source super-options
                String[] f = line.split(" ");
                int dash = Arrays.asList(f).indexOf("-");
                if (dash < 0 || dash + 3 >= f.length) continue;
                String type = f[dash + 1];
                boolean memoryV1 = type.equals("cgroup") && Arrays.asList(f[dash + 3].split(",")).contains("memory");
                if (!memoryV1 && !type.equals("cgroup2")) continue;
                for (String cg : cgroups) {
                    String[] c = cg.split(":", 3);
                    if (c.length < 3) continue;
                    boolean match = memoryV1 ? Arrays.asList(c[1].split(",")).contains("memory") : c[0].equals("0") && c[1].isEmpty();
                    if (!match || !(c[2] + "/").startsWith(f[3].equals("/") ? "/" : f[3] + "/")) continue;
                    Path own = Path.of(f[4] + c[2].substring(f[3].equals("/") ? 0 : f[3].length()));
                    Path base = memoryV1 ? own : passingMemoryDown(Path.of(f[4]), own);
                    if (base == null || !Files.exists(base.resolve(memoryV1 ? "memory.force_empty" : "cgroup.subtree_control"))) continue;
                    try {
                        Path dir = Files.createDirectory(base.resolve(name));
                        if (memoryV1 || Files.exists(dir.resolve("memory.reclaim"))) return new MemoryCgroup(dir, !memoryV1);
                        Files.delete(dir);
                    } catch (IOException e) { // not root, or a read-only cgroup filesystem: skipped below
                    }
                }
            }
            return Assumptions.abort("no memory cgroup to reclaim in: neither cgroup v1's memory controller nor v2's memory.reclaim is writable here");
        }

        /** The nearest of {@code own} and its ancestors up to {@code root} whose children get the memory controller, or null. */
        private static Path passingMemoryDown(Path root, Path own) throws IOException {
            for (Path p = own; p != null && p.startsWith(root); p = p.getParent()) {
                Path control = p.resolve("cgroup.subtree_control");
                if (Files.isReadable(control) && Arrays.asList(Files.readString(control).strip().split(" ")).contains("memory")) return p;
            }
            return null;
        }

        /** The file a process writes its pid to, to join. */
        Path procs() {
            return dir.resolve("cgroup.procs");
        }

        /**
         * Reclaims what it can of the cgroup's memory: v1 by {@code memory.force_empty}, v2 by
         * asking {@code memory.reclaim} for all it uses (its EAGAIN, freed less than asked, is
         * what is expected of a cgroup whose processes keep using memory).
         */
        void reclaim() throws IOException {
            try {
                if (v2) {
                    Files.writeString(dir.resolve("memory.reclaim"), Files.readString(dir.resolve("memory.current")).strip());
                } else {
                    Files.writeString(dir.resolve("memory.force_empty"), "0");
                }
            } catch (IOException e) {
                if (!String.valueOf(e.getMessage()).contains("temporarily unavailable") && !String.valueOf(e.getMessage()).contains("Interrupted")) {
                    throw e;
                }
            }
        }

        @Override
        public void close() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    Files.delete(dir); // rmdir: refused while a process is still in it
                    return;
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) throw e;
                    Thread.sleep(50);
                }
            }
        }
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
