package dev.fusepanama.vault.crypto;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bounded set of reusable cipher states (a JDK {@code Cipher} is not thread-safe, and making
 * one per call costs more than the call). Borrowing and returning are one compare-and-set each
 * and allocate nothing. Unlike a {@code ThreadLocal}, the pool keeps nothing for threads that
 * have ended (libfuse starts and ends worker threads as load changes), and it can wipe every
 * state it made: those in the pool on {@link #close()}, and those borrowed at that moment when
 * they come back. A state that finds the pool full is wiped and dropped.
 */
final class Pool<T> {
    private static final int SLOTS = Math.max(16, 2 * Runtime.getRuntime().availableProcessors());

    private final AtomicReferenceArray<T> slots = new AtomicReferenceArray<>(SLOTS);
    private final Supplier<T> factory;
    private final Consumer<T> wipe;
    private volatile boolean closed;

    Pool(Supplier<T> factory, Consumer<T> wipe) {
        this.factory = factory;
        this.wipe = wipe;
    }

    /** A state for this call; hand it back with {@link #release}, in a finally block. */
    T borrow() {
        if (closed) {
            throw new IllegalStateException("key has been closed");
        }
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int at = (start + i) % SLOTS;
            T t = slots.get(at);
            if (t != null && slots.compareAndSet(at, t, null)) {
                return t;
            }
        }
        return factory.get();
    }

    void release(T t) {
        int start = start();
        for (int i = 0; i < SLOTS && !closed; i++) {
            int at = (start + i) % SLOTS;
            if (slots.get(at) == null && slots.compareAndSet(at, null, t)) {
                // close() may have swept the slots just before t arrived: take it back and wipe it.
                if (closed && slots.compareAndSet(at, t, null)) {
                    wipe.accept(t);
                }
                return;
            }
        }
        wipe.accept(t);
    }

    /** Wipes every pooled state; states still borrowed are wiped when they are released. */
    void close() {
        closed = true;
        for (int i = 0; i < SLOTS; i++) {
            T t = slots.getAndSet(i, null);
            if (t != null) {
                wipe.accept(t);
            }
        }
    }

    /** Threads start their search in different slots, so that they rarely compete for one. */
    private static int start() {
        return (int) (Thread.currentThread().threadId() % SLOTS);
    }
}
