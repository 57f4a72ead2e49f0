package dev.fusepanama.examples.memory;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A directory. Entries are found by name, and listed in the order of a cookie given at
 * insertion and never reused: a listing resumed at an offset (the last cookie returned)
 * continues correctly however the directory changed meanwhile, and resuming costs O(log n).
 * Cookies 1 and 2 are "." and "..". Names are bytes, held as ISO-8859-1 strings (one char per
 * byte, so any byte string is a key and compares as bytes). Guarded by the filesystem's
 * namespace lock.
 */
final class Directory extends Node {
    static final long FIRST_COOKIE = 3;

    record Entry(String name, byte[] bytes, Node node, long cookie) {}

    private final Map<String, Entry> byName = new HashMap<>();
    private final TreeMap<Long, Entry> byCookie = new TreeMap<>();
    private long nextCookie = FIRST_COOKIE;
    Directory parent;

    Directory(long ino, int mode, int uid, int gid, long now, Directory parent) {
        super(ino, mode, uid, gid, now);
        this.nlink = 2;
        this.parent = parent == null ? this : parent;
    }

    @Override
    long size() {
        return 4096;
    }

    Node get(String name) {
        Entry e = byName.get(name);
        return e == null ? null : e.node();
    }

    boolean isEmpty() {
        return byName.isEmpty();
    }

    int entryCount() {
        return byName.size();
    }

    void put(String name, Node node) {
        Entry old = byName.remove(name);
        if (old != null) {
            byCookie.remove(old.cookie());
        }
        Entry e = new Entry(name, name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), node, nextCookie++);
        byName.put(name, e);
        byCookie.put(e.cookie(), e);
    }

    Node remove(String name) {
        Entry e = byName.remove(name);
        if (e == null) {
            return null;
        }
        byCookie.remove(e.cookie());
        return e.node();
    }

    /** Entries after cookie {@code offset} and before cookie {@code end}, in cookie order. */
    NavigableMap<Long, Entry> between(long offset, long end) {
        return byCookie.subMap(offset, false, end, false);
    }

    /** The cookie the next entry will get: every entry made from now on has one at least as large. */
    long nextCookie() {
        return nextCookie;
    }
}
