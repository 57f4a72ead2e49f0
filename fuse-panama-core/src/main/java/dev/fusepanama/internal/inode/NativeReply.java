package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_entry_param;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Lock;

/**
 * What every reply of a request shares, whatever its kind: answering exactly once, deferral,
 * and the native memory its answer is built in. Each kind of answer is a small subclass
 * ({@link TypedReplies}) that implements one public reply interface and calls its own libfuse
 * function with its own typed arguments, so a reply cannot be answered, or cast, as another kind.
 *
 * <p>The state moves once, by compare-and-set, from OPEN or DEFERRED to SENT (answered) or
 * DROPPED (the session ended first). A kind sends its answer between {@link #claim()} and
 * {@link #release()}: claim takes the right to answer (false if the session already answered
 * for it), and for a deferred reply holds the session's read lock until release, so a session
 * being torn down, which takes the write lock and drops what is left, never sees a reply half
 * sent and never frees memory a reply is being sent from.
 *
 * <p>Structs the answer needs (an entry with its attributes, a file info, a statvfs, a name) are
 * built at {@link #area}: the receiving thread's scratch while the method runs, memory of the
 * reply's own once deferred, held by {@link Replies} until the answer has been sent.
 */
abstract class NativeReply implements Reply {

    /** Scratch layout: the entry (with its stat) first, then a file info, then a name. */
    static final long ENTRY = 0;
    static final long STAT = ENTRY + fuse_entry_param.ATTR;
    static final long FILE_INFO = 192;
    static final long NAME = 320;
    static final int NAME_CAPACITY = 4096;
    static final long AREA_SIZE = NAME + NAME_CAPACITY + 8;

    private static final int OPEN = 0;
    private static final int DEFERRED = 1;
    private static final int SENT = 2;
    private static final int DROPPED = 3;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeReply.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Replies replies;
    final long req;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    /** Where the answer is built: the thread's scratch, or the reply's own memory once deferred. */
    long area;
    /** Set by the thread that claimed a deferred reply: it holds the session's read lock. */
    private boolean locked;
    /**
     * The reply's own memory once deferred; this reference keeps it alive as long as the reply
     * is reachable, so that a filesystem writing to a view of an answered reply writes into
     * memory of its own rather than freed memory.
     */
    private MemorySegment owned;

    NativeReply(Replies replies, long req, long area) {
        this.replies = replies;
        this.req = req;
        this.area = area;
    }

    /** Zeroes for {@link #zero}: as large as the largest struct a reply clears. */
    private static final MemorySegment ZEROS = Arena.global().allocate(256, 16);

    /**
     * Clears {@code size} bytes at {@code at}. A copy from a zero segment: {@code asSlice(...).fill}
     * allocated a segment per call that the JIT did not always remove (40 bytes per open and per
     * readdirplus entry, measured).
     */
    static void zero(long at, long size) {
        MemorySegment.copy(ZEROS, 0, Native.ALL, at, size);
    }

    final boolean isOpen() {
        return state == OPEN;
    }

    // ---- the state ---------------------------------------------------------------------------

    /**
     * Takes the right to answer: true if the caller now sends and then calls {@link #release()};
     * false if the session ended and answered for it (nothing to send).
     *
     * @throws IllegalStateException if the request was already answered
     */
    final boolean claim() {
        int s = state;
        if (s == OPEN && STATE.compareAndSet(this, OPEN, SENT)) {
            return true;
        }
        if (s == DEFERRED || state == DEFERRED) {
            Lock lock = replies.lock();
            lock.lock();
            if (STATE.compareAndSet(this, DEFERRED, SENT)) {
                locked = true;
                return true;
            }
            lock.unlock();
        }
        if (state == DROPPED) {
            return false;
        }
        throw new IllegalStateException("the request was already answered");
    }

    /**
     * Closes a reply the method is still serving without sending anything, so that the request
     * can be served again with a fresh one: true if it was open (not deferred, not answered).
     */
    final boolean withdraw() {
        return STATE.compareAndSet(this, OPEN, SENT);
    }

    /** After a claimed answer was handed to libfuse (or failed to be). */
    final void release() {
        if (locked) {
            locked = false;
            replies.answered(this);
            replies.lock().unlock();
        }
    }

    /**
     * Before an answer writes its arguments into the reply's memory: refuses a reply already
     * answered, whose memory (the worker's, once it serves the next request) is no longer its own.
     */
    final void checkOpen() {
        int s = state;
        if (s == SENT) {
            throw new IllegalStateException("the request was already answered");
        }
    }

    /**
     * Sends the kind's answer, built from the arguments its answer method stored, through the
     * kind's own libfuse function; called once, between {@link #claim()} and {@link #release()}.
     *
     * @return libfuse's result: 0, or a negative errno if the kernel did not take the answer
     */
    abstract int transmit() throws Throwable;

    /**
     * Answers with {@link #transmit()} unless the session already answered for this reply.
     *
     * @return whether the kernel took the answer (false: the caller's system call was interrupted,
     *         or the mount ended)
     * @throws IllegalStateException if the request was already answered
     */
    final boolean answer() {
        if (!claim()) {
            return false;
        }
        try {
            return transmit() == 0;
        } catch (Throwable t) {
            throw sendFailed(t);
        } finally {
            release();
        }
    }

    static IllegalStateException sendFailed(Throwable t) {
        return new IllegalStateException("libfuse failed to send a reply", t);
    }

    @Override
    public Reply defer() {
        String refused = replies.deferralRefused();
        if (refused != null) {
            throw new IllegalStateException("this mount cannot defer replies: " + refused);
        }
        if (state != OPEN) {
            throw new IllegalStateException(state == DEFERRED ? "the reply was already deferred" : "the request was already answered");
        }
        // Everything moves before the state says DEFERRED, and the reply is registered first, so
        // that a thread answering at once finds the moved memory and takes the registration back.
        MemorySegment own = Arena.ofAuto().allocate(AREA_SIZE + extraSize(), 16);
        MemorySegment.copy(Native.ALL, area, own, 0, AREA_SIZE);
        owned = own;
        area = own.address();
        moved(own, AREA_SIZE);
        replies.deferred(this);
        if (!STATE.compareAndSet(this, OPEN, DEFERRED)) {
            replies.answered(this);
            throw new IllegalStateException(state == DEFERRED ? "the reply was already deferred" : "the request was already answered");
        }
        return this;
    }

    /** Bytes beyond the area a kind keeps when deferred (a directory batch). */
    long extraSize() {
        return 0;
    }

    /** Deferred: the kind's extra bytes go to {@code own} at {@code at}. */
    void moved(MemorySegment own, long at) {
    }

    @Override
    public final boolean isAnswered() {
        int s = state;
        return s == SENT || s == DROPPED;
    }

    /** The session ends: answer with {@code errno} if nobody has. */
    final boolean drop(int errno) {
        if (STATE.compareAndSet(this, DEFERRED, DROPPED) || STATE.compareAndSet(this, OPEN, DROPPED)) {
            sendError(errno);
            return true;
        }
        return false;
    }

    /** Answers with {@code errno} if nobody has yet (a method threw or forgot): true if this did. */
    final boolean failIfOpen(int errno) {
        if (STATE.compareAndSet(this, OPEN, SENT)) {
            sendError(errno);
            return true;
        }
        return false;
    }

    @Override
    public final void error(int errno) {
        if (errno <= 0) {
            throw new IllegalArgumentException("an errno is positive (Errno.ENOENT), not " + errno
                    + (errno == 0 ? "; success is the kind's own answer" : ""));
        }
        if (claim()) {
            try {
                sendError(errno);
            } finally {
                release();
            }
        }
    }

    /** Sends {@code errno}, the state already settled; a lookup may answer a negative entry instead. */
    void sendError(int errno) {
        try {
            int rc = (int) TypedReplies.REPLY_ERR.invokeExact(req, errno);
        } catch (Throwable t) {
            throw sendFailed(t);
        }
    }

    /** The errno the mount answers a request with when its filesystem left it unanswered. */
    static final int UNANSWERED = Errno.EIO;
}
