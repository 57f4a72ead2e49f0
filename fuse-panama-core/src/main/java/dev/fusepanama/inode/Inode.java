package dev.fusepanama.inode;

/**
 * How the kernel knows a file: the node id it sends with every request on the file, and the
 * generation that, with it, is unique for the life of the filesystem. Entries, creates and
 * readdirplus answer with one, so a filesystem passes its own node objects (the library's
 * {@link dev.fusepanama.inode.table.Node} is one) and cannot mix the two numbers up.
 */
public interface Inode {
    /**
     * The node id (not 0; {@link InodeFileSystem#ROOT} is the root's).
     *
     * @return the id the kernel will send with requests on this file
     */
    long nodeId();

    /**
     * With {@link #nodeId()}, unique for the life of the filesystem: a new one when an id is reused. 0 by default.
     *
     * @return the generation of this use of the node id
     */
    default long generation() {
        return 0;
    }

    /**
     * An inode of generation 0, for filesystems whose ids are never reused (fixed numbers, counters).
     *
     * @param nodeId the node id, not 0
     * @return an immutable inode of that id
     * @throws IllegalArgumentException if {@code nodeId} is 0
     */
    static Inode of(long nodeId) {
        if (nodeId == 0) {
            throw new IllegalArgumentException("node id 0 is not a file");
        }
        record Id(long nodeId) implements Inode {}
        return new Id(nodeId);
    }
}
