package dev.fusepanama.internal.bind;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSIX thread cancellation of the native threads libfuse runs upcalls on. libfuse 3.18 tears
 * its io_uring queue threads down with {@code pthread_cancel} (when a queue fails to start, and
 * at unmount), and those threads run with cancellation enabled: one that is in Java at that
 * moment is unwound at the JVM's next cancellation point (a write, a wait), its stack is freed
 * while the JVM still counts it as running, and the JVM crashes at its next handshake (seen:
 * SIGSEGV in {@code CloseScopedMemoryClosure} after "qid=1 queue setup failed" was logged). A
 * cancellation left pending when the thread goes back to libfuse is no better: the thread's next
 * cancellation point may be in the JVM's detach of the exiting thread (seen: the JVM stuck in
 * its next safepoint). So a thread that has been in Java is not cancelled again.
 * libfuse's classic workers are safe: they enable cancellation only while waiting for a request.
 */
public final class Cancellation {
    private Cancellation() {}

    private static final Logger LOG = LoggerFactory.getLogger(Cancellation.class);

    /** glibc's name for the unwinder it loads for cancellation ({@code LIBGCC_S_SO}), the same on every architecture here. */
    static final String UNWINDER = "libgcc_s.so.1";

    /**
     * Loads the unwinder glibc's {@code pthread_cancel} needs, for the JVM's life, before anything
     * is mounted. libfuse cancels its worker threads when a session ends (and 3.18 its io_uring
     * queue threads), and glibc loads {@value #UNWINDER} on the first {@code pthread_cancel}: where
     * it cannot then, because every descriptor of the process is in use, it aborts the process
     * ("libgcc_s.so.1 must be installed for pthread_cancel to work"), the whole JVM. Loaded here,
     * glibc finds it among the libraries already loaded and opens nothing at that moment.
     */
    static void loadUnwinder() {
        try {
            SymbolLookup.libraryLookup(UNWINDER, Arena.global());
        } catch (IllegalArgumentException e) {
            LOG.warn("{} cannot be loaded ({}): glibc loads it when libfuse cancels its threads at the end of a mount, "
                    + "and aborts the process if it cannot then", UNWINDER, e.getMessage());
        }
    }

    private static final ThreadLocal<MemorySegment> OLD = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(JAVA_INT));

    /**
     * Disables cancellation of the calling thread for as long as it lives: for a thread that
     * serves requests, which libfuse stops by telling it to leave its loop (the io_uring queue
     * threads are woken through their eventfd and return on their own).
     */
    public static void disableForLife() {
        try {
            Libc.pthreadSetcancelstate(Libc.PTHREAD_CANCEL_DISABLE, OLD.get());
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            // A libc without it has no cancellation to fear either.
        }
    }

    /**
     * Disables cancellation of the calling thread, for a call libfuse may make from a thread it
     * cancels meanwhile; the caller decides whether to {@link #restore} it. Returns the state to
     * restore, or -1 if unknown.
     */
    public static int disable() {
        try {
            MemorySegment old = OLD.get();
            return Libc.pthreadSetcancelstate(Libc.PTHREAD_CANCEL_DISABLE, old) == 0 ? old.get(JAVA_INT, 0) : -1;
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            return -1;
        }
    }

    /**
     * Puts back the state {@link #disable} returned: only for a thread that then waits in libfuse
     * where a cancellation may reach it, because a pending cancellation acts at the thread's next
     * cancellation point, which may be inside the JVM.
     */
    public static void restore(int state) {
        if (state == Libc.PTHREAD_CANCEL_ENABLE) {
            try {
                Libc.pthreadSetcancelstate(state, OLD.get());
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                // as in disable
            }
        }
    }
}
