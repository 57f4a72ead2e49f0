package dev.fusepanama.examples.memory;

/**
 * A directory. Its entries, listed in a stable order (a cookie per entry, never reused), are the
 * node table's ({@link dev.fusepanama.inode.table.NodeTable#entries}).
 */
final class Directory extends Node {
    Directory(Space space, int mode, int uid, int gid, long now) {
        super(space, mode, uid, gid, now);
    }

    @Override
    long size() {
        return 4096;
    }
}
