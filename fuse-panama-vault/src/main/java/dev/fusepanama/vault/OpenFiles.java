package dev.fusepanama.vault;

import static dev.fusepanama.inode.InodeFileSystem.NO_HANDLE;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.inode.table.NodeTable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The vault's open files and directories by the handle the kernel was given for each. A file
 * stays in the node table while it is open, so that an unlinked file still answers through its
 * descriptor; a request may borrow any open handle of a node whose names are gone.
 */
final class OpenFiles {
    private final AtomicLong handles = new AtomicLong(1);
    private final Map<Long, OpenFile> open = new ConcurrentHashMap<>();
    private final NodeTable<Node> table;

    OpenFiles(NodeTable<Node> table) {
        this.table = table;
    }

    /** The open handle {@code fh} if it is one of {@code n}'s (the kernel holds it for the whole request), else null. */
    OpenFile given(Node n, long fh) {
        if (fh == NO_HANDLE) return null;
        OpenFile h = open.get(fh);
        return h != null && h.node == n ? h : null;
    }

    /**
     * Any open handle of {@code n}, borrowed (give it back with {@link OpenFile#letGo}), or null:
     * for a file whose names are gone, which the table keeps while it is open ({@link #register}).
     */
    OpenFile borrow(Node n) {
        for (OpenFile h : open.values()) {
            if (h.node == n && h.borrow()) return h;
        }
        return null;
    }

    /** Registers a new open file: its handle for the kernel. */
    long register(OpenFile h) {
        table.hold(h.node); // an unlinked file stays while it is open
        long fh = handles.getAndIncrement();
        open.put(fh, h);
        return fh;
    }

    /** The kernel released {@code fh} (or it was never sent): its descriptor closes once no borrower holds it. */
    void closeHandle(long fh) {
        OpenFile h = open.remove(fh);
        if (h == null) return;
        h.release();
        table.letGo(h.node);
    }

    /** The open handle {@code fh}: EBADF if there is none. */
    OpenFile handle(long fh) throws ErrnoException {
        OpenFile h = open.get(fh);
        if (h == null) throw new ErrnoException(Errno.EBADF);
        return h;
    }

    /** The mount ended: every handle is released. */
    void closeAll() {
        for (long fh : List.copyOf(open.keySet())) {
            closeHandle(fh);
        }
    }
}
