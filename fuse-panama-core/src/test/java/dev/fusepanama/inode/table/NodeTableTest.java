package dev.fusepanama.inode.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The node table's bookkeeping, as the kernel's requests drive it, without a mount. */
class NodeTableTest {
    static class TestNode extends Node {
        final AtomicInteger forgottenCalls = new AtomicInteger();
        Runnable onForgotten = () -> {};

        TestNode(int type) {
            super(type);
        }

        @Override
        protected void forgotten() {
            forgottenCalls.incrementAndGet();
            onForgotten.run();
        }
    }

    static TestNode file() {
        return new TestNode(Posix.S_IFREG);
    }

    static TestNode dir() {
        return new TestNode(Posix.S_IFDIR);
    }

    final TestNode root = dir();
    final NodeTable<TestNode> table = NodeTable.owning(root);

    TestNode named(TestNode parent, String name, TestNode n) throws Exception {
        table.write(() -> {
            table.add(parent, name, n);
            return null;
        });
        return n;
    }

    @Test
    void aNamelessFileLivesWhileHeldAndIsNamedOnlyIfLinkable() throws Exception {
        TestNode t = file();
        table.write(() -> {
            table.adopt(t, true);
            return null;
        });
        assertEquals(0, t.lookups(), "numbered, not counted: the library counts the entry as it sends it");
        assertTrue(table.count(t));
        assertEquals(1, t.lookups(), "the kernel's entry for the open file");
        assertEquals(0, table.linkCount(t));
        assertSame(t, table.find(t.nodeId()));
        table.write(() -> {
            table.add(root, "named", t); // linkat
            return null;
        });
        assertEquals(1, table.linkCount(t));
        table.write(() -> table.remove(root, "named"));
        assertThrows(IllegalStateException.class, () -> table.write(() -> {
            table.add(root, "again", t);
            return null;
        }), "a file that had a name and lost it gets none again");
        TestNode excl = file();
        table.write(() -> {
            table.adopt(excl, false);
            return null;
        });
        assertTrue(table.count(excl), "the library counts the tmpfile's entry");
        assertThrows(IllegalStateException.class, () -> table.write(() -> {
            table.add(root, "x", excl);
            return null;
        }), "O_EXCL: never named");
        table.forget(excl.nodeId(), 1);
        assertTrue(excl.isDropped(), "gone when the kernel forgets it");
    }

    @Test
    void theRootIsNodeOneAndIsNeverDropped() {
        assertEquals(InodeFileSystem.ROOT, root.nodeId());
        assertSame(root, table.find(InodeFileSystem.ROOT));
        table.forget(InodeFileSystem.ROOT, 5);
        table.sessionEnded();
        assertSame(root, table.find(InodeFileSystem.ROOT));
        assertFalse(root.isDropped());
    }

    @Test
    void aNumberIsNeverGivenToAnotherNodeEvenWhenItsSlotIsReused() throws Exception {
        TestNode a = named(root, "a", file());
        long first = a.nodeId();
        table.write(() -> table.remove(root, "a"));
        assertTrue(a.isDropped());
        assertEquals(1, a.forgottenCalls.get());
        assertNull(table.find(first), "a stale number finds nothing");
        TestNode b = named(root, "b", file());
        assertEquals((int) first, (int) b.nodeId(), "the slot is used again");
        assertNotEquals(first, b.nodeId(), "with another number");
        assertNull(table.find(first));
        assertSame(b, table.find(b.nodeId()));
    }

    @Test
    void aLookupKeepsAnUnlinkedFileUntilTheKernelForgetsIt() throws Exception {
        TestNode f = named(root, "f", file());
        assertSame(f, looked(root, "f"));
        assertSame(f, looked(root, "f"));
        assertEquals(2, f.lookups());
        table.write(() -> table.remove(root, "f"));
        assertSame(f, table.find(f.nodeId()), "fstat of the unlinked file still finds it");
        assertEquals(0, table.linkCount(f));
        table.forget(f.nodeId(), 1);
        assertFalse(f.isDropped());
        table.forget(f.nodeId(), 1);
        assertTrue(f.isDropped());
        assertNull(table.find(f.nodeId()));
        assertEquals(1, f.forgottenCalls.get());
    }

    @Test
    void aNamedFileStaysWhenTheKernelForgetsItAndAHoldOutlivesItsNames() throws Exception {
        TestNode f = named(root, "f", file());
        looked(root, "f");
        table.forget(f.nodeId(), 1);
        assertSame(f, table.find(f.nodeId()), "its name keeps it");
        table.hold(f);
        table.write(() -> table.remove(root, "f"));
        assertFalse(f.isDropped(), "an open file outlives its name");
        table.letGo(f);
        assertTrue(f.isDropped());
    }

    @Test
    void forgottenIsToldOnceAndOutsideTheLock() throws Exception {
        TestNode f = named(root, "f", file());
        AtomicInteger otherThreadGotTheLock = new AtomicInteger();
        f.onForgotten = () -> {
            Thread t = new Thread(() -> {
                try {
                    table.write(() -> otherThreadGotTheLock.incrementAndGet());
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            });
            t.start();
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        table.write(() -> table.remove(root, "f"));
        assertEquals(1, otherThreadGotTheLock.get(), "another thread could take the lock while forgotten ran");
        assertEquals(1, f.forgottenCalls.get());
    }

    @Test
    void hardLinksAreOneNodeWithSeveralNames() throws Exception {
        TestNode d = named(root, "d", dir());
        TestNode f = named(root, "f", file());
        named(d, "g", f);
        assertEquals(2, table.linkCount(f));
        assertEquals(List.of(new Node.Link(root, "f"), new Node.Link(d, "g")), table.names(f));
        table.write(() -> table.remove(root, "f"));
        assertEquals(1, table.linkCount(f));
        assertSame(f, table.child(d, "g"));
        table.write(() -> table.remove(d, "g"));
        assertTrue(f.isDropped());
        assertThrows(IllegalStateException.class, () -> named(root, "again", f), "a removed file gets no new name");
        assertThrows(IllegalStateException.class, () -> named(root, "d2", d), "a directory has one name");
    }

    @Test
    void aDirectorysLinkCountIsItsNameAndDotAndItsSubdirectoriesDotDot() throws Exception {
        TestNode d = named(root, "d", dir());
        assertEquals(2, table.linkCount(d));
        named(d, "sub", dir());
        named(d, "file", file());
        assertEquals(3, table.linkCount(d));
        assertEquals(3, table.linkCount(root), "the root: . and its own .., and d's ..");
        assertSame(root, table.parent(root));
        assertSame(d, table.parent(table.child(d, "sub")));
    }

    @Test
    void renameOverANameLeavesTheReplacedFileToWhatStillHoldsIt() throws Exception {
        TestNode a = named(root, "a", file());
        TestNode b = named(root, "b", file());
        looked(root, "b");
        TestNode replaced = table.write(() -> table.move(root, "a", root, "b"));
        assertSame(b, replaced);
        assertSame(a, table.child(root, "b"));
        assertNull(table.child(root, "a"));
        assertEquals(List.of(new Node.Link(root, "b")), table.names(a));
        assertFalse(b.isDropped(), "the kernel still holds the replaced file");
        assertEquals(0, table.linkCount(b));
        table.forget(b.nodeId(), 1);
        assertTrue(b.isDropped());
    }

    @Test
    void renameOfOneHardLinkOverAnotherOfTheSameFileChangesNothing() throws Exception {
        TestNode f = named(root, "a", file());
        named(root, "b", f);
        assertNull(table.write(() -> table.move(root, "a", root, "b")));
        assertSame(f, table.child(root, "a"));
        assertSame(f, table.child(root, "b"));
        assertEquals(2, table.linkCount(f));
    }

    @Test
    void aMovedEntryIsListedAsNewAndExchangeSwapsTwoNames() throws Exception {
        TestNode d = named(root, "d", dir());
        TestNode a = named(root, "a", file());
        TestNode sub = named(d, "sub", dir());
        long before = table.nextCookie(root);
        table.write(() -> table.move(d, "sub", root, "sub"));
        assertSame(root, table.parent(sub));
        assertEquals(2, table.linkCount(d));
        List<String> listed = new ArrayList<>();
        table.read(() -> {
            table.entries(root, before - 1, Long.MAX_VALUE).values().forEach(e -> listed.add(e.name()));
            return null;
        });
        assertEquals(List.of("sub"), listed, "listed after the entries made before the move");

        table.write(() -> {
            table.exchange(root, "a", root, "d");
            return null;
        });
        assertSame(d, table.child(root, "a"));
        assertSame(a, table.child(root, "d"));
        assertEquals(List.of(new Node.Link(root, "a")), table.names(d));
        assertTrue(table.isWithin(sub, root));
        assertFalse(table.isWithin(root, sub));
    }

    @Test
    void aListingResumedAtACookieSeesOnlyWhatItHasNotYetListed() throws Exception {
        for (String n : List.of("x", "y", "z")) named(root, n, file());
        long end = table.nextCookie(root);
        List<NodeTable.Entry<TestNode>> first = new ArrayList<>();
        table.read(() -> {
            first.addAll(table.entries(root, 0, end).values());
            return null;
        });
        assertEquals(List.of("x", "y", "z"), first.stream().map(NodeTable.Entry::name).toList());
        named(root, "late", file());
        table.write(() -> table.remove(root, "x"));
        List<String> rest = new ArrayList<>();
        table.read(() -> {
            table.entries(root, first.get(0).cookie(), end).values().forEach(e -> rest.add(e.name()));
            return null;
        });
        assertEquals(List.of("y", "z"), rest, "not the entry made after the listing began");
        assertThrows(IllegalStateException.class, () -> table.entries(root, 0, end), "outside the lock");
    }

    @Test
    void aNodeDroppedBeforeItsEntryIsCountedIsNotCounted() throws Exception {
        TestNode f = named(root, "f", file());
        assertTrue(table.count(f));
        assertEquals(1, f.lookups());
        TestNode g = named(root, "g", file());
        table.write(() -> table.remove(root, "g"));
        assertTrue(g.isDropped(), "nothing held it");
        assertFalse(table.count(g), "the library then sends no entry of it");
        assertTrue(g.isDropped(), "and the drop stands");
        assertThrows(IllegalArgumentException.class, () -> table.count(Inode.of(7)), "only the table's own nodes");
    }

    @Test
    void aLookupTakenBackUnderTheSharedLockDropsTheNodeWhenTheLockIsReleased() throws Exception {
        TestNode f = named(root, "f", file());
        table.hold(f);
        table.write(() -> table.remove(root, "f"));
        table.read(() -> {
            assertTrue(table.count(f));
            table.letGo(f);
            assertFalse(f.isDropped(), "the count keeps it");
            table.forget(f.nodeId(), 1); // an entry the kernel did not take, taken back under the lock
            assertFalse(f.isDropped(), "not under the shared lock, which cannot become the exclusive one");
            return null;
        });
        assertTrue(f.isDropped(), "once the shared lock is released");
    }

    @Test
    void theEndOfASessionDropsWhatOnlyTheKernelHeld() throws Exception {
        TestNode f = named(root, "f", file());
        TestNode g = named(root, "g", file());
        looked(root, "f");
        looked(root, "g");
        table.write(() -> table.remove(root, "g"));
        table.sessionEnded();
        assertEquals(0, f.lookups());
        assertSame(f, table.find(f.nodeId()));
        assertTrue(g.isDropped());
    }

    @Test
    void lookupsAndForgetsFromManyThreadsWhileNamesChangeKeepTheCountExact() throws Exception {
        TestNode d = named(root, "d", dir());
        TestNode f = named(d, "f", file());
        int threads = 4;
        int rounds = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < rounds; i++) {
                    TestNode n = looked(d, "f");
                    if (n == null) n = looked(d, "g");
                    if (n != null) table.forget(n.nodeId(), 1);
                }
                return null;
            }));
        }
        done.add(pool.submit(() -> {
            start.await();
            for (int i = 0; i < rounds / 10; i++) {
                table.write(() -> table.move(d, "f", d, "g"));
                table.write(() -> table.move(d, "g", d, "f"));
            }
            return null;
        }));
        start.countDown();
        for (Future<?> fu : done) fu.get(60, TimeUnit.SECONDS);
        pool.shutdown();
        assertEquals(0, f.lookups());
        assertFalse(f.isDropped());
        assertSame(f, table.child(d, "f"));
        table.write(() -> table.remove(d, "f"));
        assertTrue(f.isDropped());
    }

    /** What the library does for an entry of {@code name} in {@code dir} the kernel takes: the node found, then counted. */
    private TestNode looked(TestNode dir, String name) {
        TestNode n = table.child(dir, name);
        return n != null && table.count(n) ? n : null;
    }
}
