package dev.fusepanama.internal.dispatch;

import dev.fusepanama.internal.bind.Cancellation;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads that serve requests, whichever API: what each needs once, on its first upcall. */
public final class Workers {
    private Workers() {}

    private static final AtomicInteger WORKERS = new AtomicInteger();

    /**
     * Called on a thread's first request, after the per-thread state's initialiser made it
     * uncancellable ({@link Cancellation#disableForLife}: libfuse 3.18's io_uring queue threads
     * are cancelled at teardown; nothing can from Java while the JVM attaches the thread for its
     * first upcall): names it. A libfuse worker is a native thread the JVM attached on its first
     * upcall and named "Thread-N"; it gets a name that says what it is in logs and thread dumps.
     * A thread the application named (the single-threaded loop runs on ours) keeps its name.
     */
    public static void adopt(Thread thread) {
        if (thread.getName().matches("Thread-\\d+")) {
            thread.setName("fuse-panama-worker-" + WORKERS.incrementAndGet());
        }
    }
}
