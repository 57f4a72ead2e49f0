package dev.fusepanama.examples.memory;

import dev.fusepanama.Stat;

/** A FIFO, socket or device node: only its type, mode and device number. */
final class Special extends Node {
    final long rdev;

    Special(Space space, int mode, int uid, int gid, long now, long rdev) {
        super(space, mode, uid, gid, now);
        this.rdev = rdev;
    }

    @Override
    long size() {
        return 0;
    }

    @Override
    void fillSpecial(Stat st) {
        st.setRdev(rdev);
    }
}
