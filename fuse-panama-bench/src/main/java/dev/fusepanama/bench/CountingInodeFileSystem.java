package dev.fusepanama.bench;

import dev.fusepanama.Stat;
import dev.fusepanama.bench.AllocationStats.Op;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@link PanamaInodeBenchFs} with its heap allocation per upcall counted ({@link AllocationStats}):
 * what it implements is what is registered (a forwarding filesystem), each call passed through and
 * charged while counting is on. What the binding
 * allocates for a request before calling the filesystem (its reply object) is charged to that
 * request, being allocated after the thread's previous upcall ended.
 */
final class CountingInodeFileSystem extends ForwardingInodeFileSystem {
    private final AllocationStats stats;
    private final ThreadLocal<CountingListing> listings = ThreadLocal.withInitial(CountingListing::new);

    CountingInodeFileSystem(InodeFileSystem fs, AllocationStats stats) {
        super(fs);
        this.stats = stats;
    }

    /**
     * Counts the entries a readdir or readdirplus took; one per worker thread, pointed at each
     * call's reply. The filesystem does not defer, so the reply is answered before the call ends.
     */
    private static final class CountingListing implements DirReply {
        DirReply target;
        long added;

        @Override public boolean plus() { return target.plus(); }
        @Override public boolean add(byte[] name, long ino, int type, long nextOffset) { return counted(target.add(name, ino, type, nextOffset)); }

        @Override
        public boolean add(byte[] name, Inode inode, Timeouts timeouts, long nextOffset) {
            return counted(target.add(name, inode, timeouts, nextOffset));
        }

        @Override public Stat attributes() { return target.attributes(); }
        @Override public boolean send() { return target.send(); }
        @Override public void error(int errno) { target.error(errno); }
        @Override public Reply defer() { target.defer(); return this; }
        @Override public boolean isAnswered() { return target.isAnswered(); }

        private boolean counted(boolean full) {
            if (!full) added++;
            return full;
        }
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws IOException {
        if (!stats.counting()) { delegate.lookup(request, parent, name, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.lookup(request, parent, name, reply); } finally { stats.charge(Op.LOOKUP, t); }
    }

    @Override
    public void forget(long ino, long lookups) {
        if (!stats.counting()) { delegate.forget(ino, lookups); return; }
        long t = AllocationStats.allocated();
        try { delegate.forget(ino, lookups); } finally { stats.charge(Op.FORGET, t); }
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) throws IOException {
        if (!stats.counting()) { delegate.getattr(request, ino, fh, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.getattr(request, ino, fh, reply); } finally { stats.charge(Op.GETATTR, t); }
    }

    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) throws IOException {
        if (!stats.counting()) { delegate.setattr(request, ino, attributes, toSet, fh, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.setattr(request, ino, attributes, toSet, fh, reply); } finally { stats.charge(Op.SETATTR, t); }
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) throws IOException {
        if (!stats.counting()) { delegate.open(request, ino, flags, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.open(request, ino, flags, reply); } finally { stats.charge(Op.OPEN, t); }
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) throws IOException {
        if (!stats.counting()) { delegate.read(request, ino, fh, size, offset, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.read(request, ino, fh, size, offset, reply); } finally { stats.charge(Op.READ, t); }
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) throws IOException {
        if (!stats.counting()) { delegate.write(request, ino, fh, data, offset, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.write(request, ino, fh, data, offset, reply); } finally { stats.charge(Op.WRITE, t); }
    }

    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) throws IOException {
        if (!stats.counting()) { delegate.create(request, parent, name, mode, flags, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.create(request, parent, name, mode, flags, reply); } finally { stats.charge(Op.CREATE, t); }
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) throws IOException {
        if (!stats.counting()) { delegate.unlink(request, parent, name, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.unlink(request, parent, name, reply); } finally { stats.charge(Op.UNLINK, t); }
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply)
            throws IOException {
        if (!stats.counting()) { delegate.rename(request, parent, name, newParent, newName, flags, reply); return; }
        long t = AllocationStats.allocated();
        try { delegate.rename(request, parent, name, newParent, newName, flags, reply); } finally { stats.charge(Op.RENAME, t); }
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) throws IOException {
        if (!stats.counting()) { delegate.readdir(request, ino, fh, size, offset, reply); return; }
        long t = AllocationStats.allocated();
        CountingListing l = listings.get();
        l.target = reply;
        l.added = 0;
        try {
            delegate.readdir(request, ino, fh, size, offset, l);
        } finally {
            stats.listed(l.added);
            l.target = null;
            stats.charge(reply.plus() ? Op.READDIRPLUS : Op.READDIR, t);
        }
    }
}
