package dev.fusepanama.vault;

import static dev.fusepanama.Posix.S_IFMT;

import dev.fusepanama.Stat;
import dev.fusepanama.inode.table.NodeTable;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The vault's changes to the node table, each in one step under the table's exclusive lock: a
 * name found or made is remembered with its plaintext ({@link Node#named}), a removed name is
 * dropped, a rename moves names as it moved the files. Names in the table are stored
 * (encrypted) names; a new directory is watched for others' changes.
 */
final class Nodes {
    private final VaultFileSystem vault;
    private final NodeTable<Node> table;
    private final ExternalChanges changes;

    Nodes(VaultFileSystem vault, NodeTable<Node> table, ExternalChanges changes) {
        this.vault = vault;
        this.table = table;
        this.changes = changes;
    }

    /** Runs {@code section} under the table's exclusive lock: names and what the vault keeps of them change in one step. */
    private <T> T exclusive(Supplier<T> section) {
        try {
            return table.write(section::get);
        } catch (IOException e) {
            throw new IllegalStateException(e); // a Supplier throws none
        }
    }

    /**
     * The node of the file {@code stored} in {@code parent} whose attributes are {@code st} and
     * whose identity is {@code key} ({@link FileKeys}), to answer an entry with: the one the table
     * knows by this name or by that key (a hard link), or a new one, which is watched if it is a
     * directory.
     */
    Node remember(Node parent, byte[] stored, byte[] plain, Stat st, Object key) {
        int type = st.mode() & S_IFMT;
        long ino = st.ino();
        String name = NodeTable.key(stored);
        Node[] made = {null};
        Node n = exclusive(() -> {
            Node known = table.remember(parent, name, key, type, st.nlink(), () -> made[0] = new Node(vault, type, ino));
            known.named = new Node.Named(parent, name, plain);
            return known;
        });
        changes.remembered(name);
        if (n == made[0] && n.isDirectory()) {
            changes.watch(n);
        }
        return n;
    }

    /** The name {@code stored} in {@code parent} is gone: whichever node had it loses it. */
    void unnamed(Node parent, byte[] stored) {
        String name = NodeTable.key(stored);
        Node n = table.forgetName(parent, name);
        if (n != null) n.unnamed(parent, name);
    }

    /** Moves the names in the node table as the rename moved the files. */
    void renamed(Node p, byte[] stored, Node np, byte[] newStored, byte[] newPlain, byte[] oldPlain, boolean exchange,
            long movedCtime) {
        String from = NodeTable.key(stored);
        String to = NodeTable.key(newStored);
        exclusive(() -> {
            Node replaced = null;
            if (exchange) {
                table.exchange(p, from, np, to);
            } else {
                replaced = table.move(p, from, np, to);
            }
            if (replaced != null) replaced.unnamed(np, to);
            Node moved = table.child(np, to);
            if (moved != null) {
                moved.named = new Node.Named(np, to, newPlain);
                moved.seenCtime = movedCtime;
            }
            Node other = exchange ? table.child(p, from) : null;
            if (other != null) other.named = new Node.Named(p, from, oldPlain);
            return null;
        });
    }
}
