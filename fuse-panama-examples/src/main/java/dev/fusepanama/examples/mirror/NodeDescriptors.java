package dev.fusepanama.examples.mirror;

import dev.fusepanama.libc.Libc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@code O_PATH} descriptors the mirror holds of its nodes: at most {@link #capacity()} that
 * nothing needs at the moment, the one longest unused closed first when another is opened (a
 * clock: each use marks its node, and the hand passes over a marked node once, unmarking it).
 * A node of an open file or directory keeps its descriptor while open ({@link #pin}), and so does
 * a node that must ({@link #keep}); neither counts against the capacity. A node without a
 * descriptor is opened again when an operation needs it ({@link SourceNodes#descriptor}).
 *
 * <p>An operation takes a use of a node's descriptor ({@link #acquire}, or {@link #install} after
 * opening one) and gives it back ({@link #release}); a descriptor in use is never closed, so its
 * number cannot be handed to another file meanwhile. Taking and giving back a use is one
 * compare-and-set each; opening, closing and the clock's list are under this object's lock.
 */
final class NodeDescriptors {
    /** What {@link #acquire} answers for a node that has no descriptor now. */
    static final long MISS = Long.MIN_VALUE;
    /** Marks a use of a descriptor of the node's own, to close after the operation: the node was forgotten meanwhile. */
    static final long TRANSIENT = 1L << 32;

    private static final VarHandle USERS;

    static {
        try {
            USERS = MethodHandles.lookup().findVarHandle(SourceNode.class, "users", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    /** The clock's list: descriptors nothing pins, the hand at the head. Guarded by this. */
    private SourceNode head;
    private SourceNode tail;
    private int listed;
    /** Nodes with a descriptor, listed or not. Guarded by this. */
    private int held;

    NodeDescriptors(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("at least one descriptor: " + capacity);
        }
        this.capacity = capacity;
    }

    int capacity() {
        return capacity;
    }

    /** How many nodes hold a descriptor now. */
    synchronized int held() {
        return held;
    }

    /** A use of the node's descriptor (the descriptor itself), or {@link #MISS} when it has none now. */
    long acquire(SourceNode n) {
        for (int u = n.users; u >= 0; u = n.users) {
            if (USERS.compareAndSet(n, u, u + 1)) {
                if (!n.recent) {
                    n.recent = true;
                }
                return n.fd;
            }
        }
        return MISS;
    }

    /** Gives back a use that {@link #acquire} or {@link #install} gave. */
    void release(SourceNode n, long use) {
        if ((use & TRANSIENT) != 0) {
            Libc.close((int) use);
        } else if ((int) USERS.getAndAdd(n, -1) == 1 && n.forgotten) {
            synchronized (this) {
                closeIfUnused(n);
            }
        }
    }

    /**
     * Makes {@code fd}, just opened for {@code n}, the node's descriptor and returns a use of it;
     * where another operation gave the node one meanwhile, closes {@code fd} and returns a use of
     * that one; for a forgotten node, a transient use of {@code fd}.
     */
    synchronized long install(SourceNode n, int fd) {
        if (n.forgotten) {
            return fd | TRANSIENT;
        }
        if (n.users >= 0) {
            Libc.close(fd);
            return acquire(n); // under this lock nothing closes it, so this cannot miss
        }
        place(n, fd, 1);
        return fd;
    }

    /** Gives {@code n} the descriptor {@code fd} if it has none (closing {@code fd} otherwise); with {@code keep}, for its life. */
    synchronized void offer(SourceNode n, int fd, boolean keep) {
        if (keep) {
            n.kept = true;
            unlist(n);
        }
        if (n.forgotten || n.users >= 0) {
            Libc.close(fd);
        } else {
            place(n, fd, 0);
        }
    }

    private void place(SourceNode n, int fd, int users) {
        n.fd = fd;
        n.recent = true;
        held++;
        USERS.setVolatile(n, users);
        if (!n.kept && n.pins == 0) {
            makeRoom();
            list(n);
        }
    }

    /** An open file or directory of {@code n}: its descriptor, if it has one, stays until {@link #unpin}. */
    synchronized void pin(SourceNode n) {
        n.pins++;
        unlist(n);
    }

    synchronized void unpin(SourceNode n) {
        if (n.pins > 0 && --n.pins == 0 && !n.kept && !n.listed && !n.forgotten && n.users >= 0) {
            makeRoom();
            list(n);
        }
    }

    /** {@code n} holds the descriptor it has now (if any) until it is forgotten; whether it did not already. */
    synchronized boolean keep(SourceNode n) {
        boolean was = n.kept;
        n.kept = true;
        unlist(n);
        return !was;
    }

    /** Undoes a {@link #keep} that answered true: the name stayed after all. */
    synchronized void unkeep(SourceNode n) {
        n.kept = false;
        if (!n.listed && n.pins == 0 && !n.forgotten && n.users >= 0) {
            makeRoom();
            list(n);
        }
    }

    /** The kernel forgot {@code n}: its descriptor is closed now, or by the last operation that uses it. */
    synchronized void forget(SourceNode n) {
        n.forgotten = true;
        unlist(n);
        closeIfUnused(n);
    }

    /**
     * The process ran out of descriptors: closes up to half of those nothing uses, at least one,
     * marked or not. Returns how many it closed.
     */
    synchronized int shrink() {
        int goal = Math.max(1, listed / 2);
        int closed = 0;
        for (int turns = listed; closed < goal && turns > 0; turns--) {
            SourceNode v = head;
            unlist(v);
            if (USERS.compareAndSet(v, 0, -1)) {
                closeDescriptor(v);
                closed++;
            } else {
                list(v);
            }
        }
        return closed;
    }

    /** The mount has ended and no operation runs: closes the descriptor of each of {@code nodes} that has one. */
    synchronized void closeAll(Iterable<SourceNode> nodes) {
        for (SourceNode n : nodes) {
            n.forgotten = true;
            unlist(n);
            if ((int) USERS.getAndSet(n, -1) >= 0) {
                closeDescriptor(n);
            }
        }
    }

    /** Until the list has room for one more: the hand passes marked nodes once and those in use, and closes the first other. */
    private void makeRoom() {
        for (int turns = 2 * listed; listed >= capacity && turns > 0; turns--) {
            SourceNode v = head;
            unlist(v);
            if (v.recent) {
                v.recent = false;
                list(v);
            } else if (USERS.compareAndSet(v, 0, -1)) {
                closeDescriptor(v);
            } else {
                list(v);
            }
        }
    }

    private void closeIfUnused(SourceNode n) {
        if (USERS.compareAndSet(n, 0, -1)) {
            closeDescriptor(n);
        }
    }

    /** After its users went from 0 to -1: nothing can take a use of it any more. */
    private void closeDescriptor(SourceNode n) {
        int fd = n.fd;
        n.fd = -1;
        held--;
        Libc.close(fd);
    }

    private void list(SourceNode n) {
        n.listed = true;
        n.previous = tail;
        n.next = null;
        if (tail == null) {
            head = n;
        } else {
            tail.next = n;
        }
        tail = n;
        listed++;
    }

    private void unlist(SourceNode n) {
        if (!n.listed) {
            return;
        }
        if (n.previous == null) {
            head = n.next;
        } else {
            n.previous.next = n.next;
        }
        if (n.next == null) {
            tail = n.previous;
        } else {
            n.next.previous = n.previous;
        }
        n.previous = null;
        n.next = null;
        n.listed = false;
        listed--;
    }
}
