package dev.fusepanama.internal.dispatch;

import java.util.concurrent.atomic.AtomicInteger;

/** Names for libfuse's worker threads, whichever API they serve. */
public final class ThreadNames {
    private ThreadNames() {}

    private static final AtomicInteger WORKERS = new AtomicInteger();

    /**
     * A libfuse worker is a native thread the JVM attached on its first upcall and named
     * "Thread-N"; give it a name that says what it is in logs and thread dumps. A thread the
     * application named (the single-threaded loop runs on ours) keeps its name.
     */
    public static void nameWorker(Thread thread) {
        if (thread.getName().matches("Thread-\\d+")) {
            thread.setName("fuse-panama-worker-" + WORKERS.incrementAndGet());
        }
    }
}
