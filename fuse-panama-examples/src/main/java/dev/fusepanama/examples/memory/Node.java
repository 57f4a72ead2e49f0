package dev.fusepanama.examples.memory;

import dev.fusepanama.Stat;
import java.util.Map;
import java.util.TreeMap;

/**
 * An inode: what every file type shares. Its number, names and the kernel's lookups are the
 * node table's ({@link dev.fusepanama.inode.table.Node}); the rest is guarded by the node's
 * monitor, and times are nanoseconds since the epoch. About 130 bytes plus the type's own state.
 */
abstract class Node extends dev.fusepanama.inode.table.Node { // full name: memfs's own Node is another
    /** Where the inode is counted, and its data: given back when the table drops the node. */
    final Space space;
    int mode;
    int uid;
    int gid;
    long atime;
    long mtime;
    long ctime;
    private Map<String, byte[]> xattrs;

    Node(Space space, int mode, int uid, int gid, long now) {
        super(mode);
        this.space = space;
        this.mode = mode;
        this.uid = uid;
        this.gid = gid;
        this.atime = this.mtime = this.ctime = now;
    }

    /** No name, handle or lookup is left: the inode and what it stored are free again. */
    @Override
    protected void forgotten() {
        space.freeInode();
    }

    abstract long size();

    /** Bytes of storage held, in 512-byte blocks for st_blocks. */
    long blocks() {
        return 0;
    }

    /** The attributes, with {@code nlink} as the table counts it (asked before this monitor is taken). */
    synchronized void fill(Stat st, long nlink) {
        st.setIno(nodeId()).setMode(mode).setNlink(nlink).setUid(uid).setGid(gid).setSize(size())
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
