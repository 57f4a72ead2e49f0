package dev.fusepanama.inode.table;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A directory's entries: found by name, listed in the order of a cookie given when the entry is
 * made and never given again. A listing resumed at an offset (the last cookie it returned) goes
 * on correctly however the directory changed meanwhile, in O(log n). Cookies 1 and 2 are "." and
 * "..". Guarded by the table's lock.
 */
final class Children {
    static final long FIRST_COOKIE = 3;

    private final Map<String, NodeTable.Entry<Node>> byName = new HashMap<>();
    private final TreeMap<Long, NodeTable.Entry<Node>> byCookie = new TreeMap<>();
    private long nextCookie = FIRST_COOKIE;
    /** Entries that are directories: each names this one as its "..". */
    int directories;

    Node get(String name) {
        NodeTable.Entry<Node> e = byName.get(name);
        return e == null ? null : e.node();
    }

    int size() {
        return byName.size();
    }

    void put(String name, Node node) {
        NodeTable.Entry<Node> e = new NodeTable.Entry<>(name, node, nextCookie++);
        NodeTable.Entry<Node> old = byName.put(name, e);
        if (old != null) {
            byCookie.remove(old.cookie());
            if (old.node().isDirectory()) directories--;
        }
        byCookie.put(e.cookie(), e);
        if (node.isDirectory()) directories++;
    }

    Node remove(String name) {
        NodeTable.Entry<Node> e = byName.remove(name);
        if (e == null) {
            return null;
        }
        byCookie.remove(e.cookie());
        if (e.node().isDirectory()) directories--;
        return e.node();
    }

    NavigableMap<Long, NodeTable.Entry<Node>> between(long after, long before) {
        return byCookie.subMap(after, false, before, false);
    }

    long nextCookie() {
        return nextCookie;
    }
}
