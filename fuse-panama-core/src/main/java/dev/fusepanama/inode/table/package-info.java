/**
 * The node table of the inode API: what go-fuse's {@code fs} package keeps for its authors.
 *
 * <p>An {@link dev.fusepanama.inode.InodeFileSystem} answers the kernel by numbers, and must keep
 * for each number the file it names, how many entries of it the kernel holds (the lookup count
 * that {@code forget} lowers), and which names lead to it: hard links, renames, a file unlinked
 * while it is open and still asked about by number. {@link dev.fusepanama.inode.table.NodeTable}
 * keeps all of that for a filesystem that owns its namespace (memfs): subclass
 * {@link dev.fusepanama.inode.table.Node} with the file's own state, name nodes through the table
 * inside its write lock, answer entries with its nodes and return the table from
 * {@link dev.fusepanama.inode.InodeFileSystem#lookups()}: the library counts the lookups. The
 * table drops a node when nothing needs it any more and tells it ({@code forgotten}).
 *
 * <p>The raw {@code InodeFileSystem} stays for filesystems that keep their own books.
 */
package dev.fusepanama.inode.table;
