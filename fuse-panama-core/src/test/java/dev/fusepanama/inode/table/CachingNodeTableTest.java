package dev.fusepanama.inode.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Posix;
import dev.fusepanama.inode.table.NodeTableTest.TestNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A caching table: what the kernel holds of a namespace kept elsewhere, learnt name by name. */
class CachingNodeTableTest {
    final TestNode root = NodeTableTest.dir();
    final NodeTable<TestNode> table = NodeTable.caching(root);

    TestNode remember(TestNode dir, String name, Object key, int type) {
        return remember(dir, name, key, type, 0);
    }

    TestNode remember(TestNode dir, String name, Object key, int type, long links) {
        TestNode n = table.remember(dir, name, key, type, links, () -> new TestNode(type));
        assertTrue(table.count(n), "the library counts the entry it sends of it");
        return n;
    }

    @Test
    void theSameFileUnderItsNameIsTheSameNodeAndEachEntryIsCounted() {
        TestNode f = remember(root, "f", "ino-7", Posix.S_IFREG);
        assertSame(f, remember(root, "f", "ino-7", Posix.S_IFREG));
        assertEquals(2, f.lookups());
        assertSame(f, table.child(root, "f"));
    }

    @Test
    void anotherFileUnderAKnownNameIsANewNodeAndTheOldOneGoesWhenTheKernelForgetsIt() {
        TestNode old = remember(root, "f", "ino-7", Posix.S_IFREG);
        TestNode now = remember(root, "f", "ino-8", Posix.S_IFREG);
        assertNotSame(old, now);
        assertSame(now, table.child(root, "f"));
        assertEquals(List.of(), table.names(old));
        assertFalse(old.isDropped(), "the kernel still holds the replaced file");
        table.forget(old.nodeId(), 1);
        assertTrue(old.isDropped());
        TestNode dir = remember(root, "f2", "ino-9", Posix.S_IFDIR);
        assertNotSame(dir, remember(root, "f2", "ino-9", Posix.S_IFREG), "a key reused for another type is another file");
    }

    @Test
    void aKeyGivenAgainAfterItsFileLostEveryNameIsAnotherFile() {
        TestNode gone = remember(root, "f", "ino-7", Posix.S_IFREG);
        table.forgetName(root, "f"); // removed; the kernel still holds it
        assertFalse(gone.isDropped());
        TestNode fresh = remember(root, "g", "ino-7", Posix.S_IFREG); // the store gave its inode number again
        assertNotSame(gone, fresh);
        assertEquals(List.of(new Node.Link(root, "g")), table.names(fresh));
        assertEquals(List.of(), table.names(gone));
        assertSame(fresh, remember(root, "h", "ino-7", Posix.S_IFREG), "a hard link of the live file is still one node");
    }

    /**
     * ext4 gives a deleted file's inode number to the next file while the table still has the
     * deleted file's name (its removal elsewhere not yet told): a file the store says has one name
     * is not a hard link of a node named elsewhere, but a file of its own.
     */
    @Test
    void aKeyOfAFileWithOneNameFoundUnderAnotherNameIsAnotherFile() {
        TestNode gone = remember(root, "a", "ino-7", Posix.S_IFREG, 1);
        TestNode fresh = remember(root, "b", "ino-7", Posix.S_IFREG, 1);
        assertNotSame(gone, fresh, "one name in the store: not a hard link of the node named a");
        assertEquals(List.of(new Node.Link(root, "b")), table.names(fresh));
        assertSame(fresh, remember(root, "c", "ino-7", Posix.S_IFREG, 2), "once it has two names, a hard link");
        assertEquals(2, table.names(fresh).size());
    }

    /** A key never given to another file (a file handle) is trusted: an open, unlinked file found by another link is one node. */
    @Test
    void aLastingKeyFindsItsFileWithNoNameLeftOrALinkCountOfOne() {
        record Handle(String bytes) implements NodeTable.LastingKey {}
        TestNode f = remember(root, "a", new Handle("h1"), Posix.S_IFREG, 2);
        table.hold(f); // open
        table.forgetName(root, "a"); // unlinked through the mount; its other link, b, not yet known
        assertSame(f, remember(root, "b", new Handle("h1"), Posix.S_IFREG, 1), "the same file by its other name");
        assertSame(f, remember(root, "c", new Handle("h1"), Posix.S_IFREG, 1), "a link count of 1 that lags: still the file");
    }

    @Test
    void hardLinksFoundByKeyAreOneNodeAndAMovedDirectoryKeepsOneName() {
        TestNode a = remember(root, "a", "ino-1", Posix.S_IFDIR);
        TestNode f = remember(a, "f", "ino-2", Posix.S_IFREG);
        assertSame(f, remember(root, "g", "ino-2", Posix.S_IFREG));
        assertEquals(List.of(new Node.Link(a, "f"), new Node.Link(root, "g")), table.names(f));
        TestNode b = remember(root, "b", "ino-3", Posix.S_IFDIR);
        assertSame(a, remember(b, "moved", "ino-1", Posix.S_IFDIR), "renamed behind the mount");
        assertEquals(List.of(new Node.Link(b, "moved")), table.names(a));
        assertNull(table.child(root, "a"));
    }

    @Test
    void aForgottenNodeTakesItsNamesAlongAndADirectoryStaysWhileAChildIsKnown() {
        TestNode d = remember(root, "d", "ino-1", Posix.S_IFDIR);
        TestNode f = remember(d, "f", "ino-2", Posix.S_IFREG);
        table.forget(d.nodeId(), 1);
        assertFalse(d.isDropped(), "its known child names it");
        table.forget(f.nodeId(), 1);
        assertTrue(f.isDropped());
        assertTrue(d.isDropped(), "then it goes too");
        assertNull(table.child(root, "d"));
        assertNull(table.find(d.nodeId()));
    }

    @Test
    void aNameGoneFromTheStoreLeavesTheNodeToTheKernelAndAMoveOfAnUnknownNameForgetsTheTarget() throws Exception {
        TestNode f = remember(root, "f", null, Posix.S_IFREG);
        assertSame(f, table.forgetName(root, "f"));
        assertFalse(f.isDropped(), "the kernel still holds it");
        assertNull(table.child(root, "f"));
        table.forget(f.nodeId(), 1);
        assertTrue(f.isDropped());

        TestNode g = remember(root, "g", null, Posix.S_IFREG);
        TestNode replaced = table.write(() -> table.move(root, "unknown", root, "g"));
        assertSame(g, replaced);
        assertNull(table.child(root, "g"));
        TestNode h = remember(root, "h", null, Posix.S_IFREG);
        table.write(() -> table.move(root, "h", root, "i"));
        assertSame(h, table.child(root, "i"));
        assertEquals(List.of(new Node.Link(root, "i")), table.names(h));
    }

    @Test
    void nodesListsWhatTheTableHoldsNowRootFirst() {
        TestNode d = remember(root, "d", "ino-1", Posix.S_IFDIR);
        TestNode f = remember(d, "f", "ino-2", Posix.S_IFREG);
        TestNode g = remember(root, "g", "ino-3", Posix.S_IFREG);
        assertEquals(List.of(root, d, f, g), table.nodes());
        table.forget(f.nodeId(), 1);
        table.forget(d.nodeId(), 1);
        assertEquals(List.of(root, g), table.nodes(), "dropped nodes are not listed");
        TestNode h = remember(root, "h", "ino-4", Posix.S_IFREG);
        assertTrue(table.nodes().containsAll(List.of(root, g, h)));
        assertEquals(3, table.nodes().size());
        assertSame(root, table.nodes().get(0));
    }
}
