package dev.fusepanama.examples.memory;

/** A symbolic link: its target, as the string the caller gave. */
final class Symlink extends Node {
    final String target;
    private final long length;

    Symlink(long ino, int uid, int gid, long now, String target) {
        super(ino, dev.fusepanama.Posix.S_IFLNK | 0777, uid, gid, now);
        this.target = target;
        this.length = dev.fusepanama.FileNames.toBytes(target).length;
    }

    @Override
    long size() {
        return length;
    }
}
