package dev.fusepanama.examples.memory;

import dev.fusepanama.Stat;
import java.util.Map;
import java.util.TreeMap;

/**
 * An inode: what every file type shares. Fields are guarded by the node's monitor; times are
 * nanoseconds since the epoch. About 100 bytes plus the type's own state.
 */
abstract class Node {
    final long ino;
    int mode;
    int uid;
    int gid;
    long nlink;
    long atime;
    long mtime;
    long ctime;
    /** Open file handles: the data of an unlinked file lives until the last one is released. */
    int openCount;
    /** The kernel's lookup count: entries sent naming this inode, minus what it forgot. */
    long lookups;
    private Map<String, byte[]> xattrs;

    Node(long ino, int mode, int uid, int gid, long now) {
        this.ino = ino;
        this.mode = mode;
        this.uid = uid;
        this.gid = gid;
        this.nlink = 1;
        this.atime = this.mtime = this.ctime = now;
    }

    abstract long size();

    /** Bytes of storage held, in 512-byte blocks for st_blocks. */
    long blocks() {
        return 0;
    }

    synchronized void fill(Stat st) {
        st.setIno(ino).setMode(mode).setNlink(nlink).setUid(uid).setGid(gid).setSize(size())
                .setBlocks(blocks()).setBlksize(MemoryFileSystem.PAGE)
                .setAtime(atime / 1_000_000_000, atime % 1_000_000_000)
                .setMtime(mtime / 1_000_000_000, mtime % 1_000_000_000)
                .setCtime(ctime / 1_000_000_000, ctime % 1_000_000_000);
        fillSpecial(st);
    }

    void fillSpecial(Stat st) {}

    Map<String, byte[]> xattrs() {
        if (xattrs == null) {
            xattrs = new TreeMap<>();
        }
        return xattrs;
    }

    boolean hasXattrs() {
        return xattrs != null && !xattrs.isEmpty();
    }
}
