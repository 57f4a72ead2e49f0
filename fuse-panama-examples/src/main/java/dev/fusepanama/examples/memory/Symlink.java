package dev.fusepanama.examples.memory;

import dev.fusepanama.Posix;

/** A symbolic link: its target, the bytes the caller gave. */
final class Symlink extends Node {
    final byte[] target;

    Symlink(Space space, int uid, int gid, long now, byte[] target) {
        super(space, Posix.S_IFLNK | 0777, uid, gid, now);
        this.target = target;
    }

    @Override
    long size() {
        return target.length;
    }
}
