package dev.fusepanama.bench;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a run has to undo (filesystem processes, their mounts, a tmpfs, temporary directories),
 * undone in the reverse order exactly once: when the run ends, also by an exception, or when the
 * JVM is stopped (Ctrl-C, SIGTERM), through a shutdown hook.
 */
final class Cleanup implements AutoCloseable {
    private final Deque<AutoCloseable> steps = new ArrayDeque<>();
    private final Thread hook = new Thread(this::closeFromHook, "bench cleanup");
    private boolean closed;

    Cleanup() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Registers {@code step}; after {@link #close} (a run stopped while starting something), undoes it at once. */
    synchronized <T extends AutoCloseable> T add(T step) throws Exception {
        if (closed) {
            step.close();
            throw new IllegalStateException("the run is being stopped");
        }
        steps.push(step);
        return step;
    }

    /** Runs every step, also after one fails; throws the first failure with the others suppressed. */
    @Override
    public synchronized void close() throws Exception {
        closed = true;
        Exception failure = null;
        while (!steps.isEmpty()) {
            try {
                steps.pop().close();
            } catch (Exception e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it finds nothing left to do
            }
        }
        if (failure != null) throw failure;
    }

    private void closeFromHook() {
        try {
            close();
        } catch (Exception e) {
            System.err.println("cleanup at exit failed: " + e);
        }
    }
}
