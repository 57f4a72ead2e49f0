package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_POINTER;

import dev.fusepanama.libc.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes libfuse's own messages ({@code fuse_log}, e.g. "fuse: mountpoint is not empty" or the
 * per-request trace of {@code -o debug}) to SLF4J instead of stderr, and lets a mount attempt
 * collect the messages logged on its thread so its exception can quote libfuse's reason.
 */
public final class FuseLog {
    private FuseLog() {}

    private static final Logger LOG = LoggerFactory.getLogger("dev.fusepanama.libfuse");
    private static final int BUFFER = 4096;

    private static final ThreadLocal<MemorySegment> FORMAT_BUFFER =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(BUFFER));
    private static final ThreadLocal<StringBuilder> CAPTURED = new ThreadLocal<>();
    /**
     * The start of a line libfuse logs in pieces ("fuse: unknown option(s): `", "-o ", "x'\n"),
     * logged as one message when its newline comes.
     */
    private static final ThreadLocal<StringBuilder> PARTIAL = ThreadLocal.withInitial(StringBuilder::new);
    private static final ThreadLocal<WeakReference<Consumer<String>>> RING_FAILURE =
            new ThreadLocal<>();
    /** What libfuse 3.18 logs (at INFO) after init when its io_uring queues cannot start; it then serves /dev/fuse. */
    private static final String RING_START_FAILED = "failed to start io-uring";

    /**
     * The messages after which a libfuse 3.18 io_uring queue thread goes on to wait for the
     * others to start, where libfuse may have to cancel it: its cancellation is put back. After
     * any other message the calling thread stays uncancellable: a queue thread that logs anything
     * else has failed and returns at once, and a cancellation left pending would act inside the
     * JVM as the thread detaches at its exit (seen: the JVM stuck at its next safepoint). Other
     * threads that log are libfuse's workers, which set their own state around each wait, and
     * Java threads, which nothing cancels.
     */
    private static final Pattern QUEUE_GOES_ON =
            Pattern.compile("to its core|register_ring_fd failed|Failed to set scheduler");

    static void install(LibFuse lib) {
        try {
            var target = MethodHandles.lookup().findStatic(FuseLog.class, "log",
                    MethodType.methodType(void.class, int.class, long.class, long.class));
            MemorySegment stub = Native.LINKER.upcallStub(target,
                    FunctionDescriptor.ofVoid(C_INT, C_POINTER, C_POINTER), Arena.global());
            lib.setLogFunc.invokeExact(stub);
        } catch (Throwable t) {
            LOG.warn("could not route libfuse messages to SLF4J; they go to stderr", t);
        }
    }

    /** Starts collecting this thread's libfuse messages. */
    public static void capture() {
        CAPTURED.set(new StringBuilder());
    }

    /** Stops collecting and returns what was logged since {@link #capture()}, or "". */
    public static String captured() {
        StringBuilder sb = CAPTURED.get();
        CAPTURED.remove();
        StringBuilder partial = PARTIAL.get();
        if (sb != null && !partial.isEmpty()) {
            sb.append(partial); // a line whose end never came
            partial.setLength(0);
        }
        return sb == null ? "" : sb.toString().trim();
    }

    /**
     * Hands {@code listener} the message libfuse logs on this thread if it fails to start its
     * io_uring queues (in init, right after the filesystem's init ran on the same thread), so the
     * mount can say it fell back to /dev/fuse. Held weakly (the thread may outlive the mount): the
     * caller keeps {@code listener} reachable.
     */
    public static void onRingStartFailure(Consumer<String> listener) {
        RING_FAILURE.set(new WeakReference<>(listener));
    }

    /** {@code void (*fuse_log_func_t)(enum fuse_log_level, const char *fmt, va_list ap)}. */
    @SuppressWarnings("unused")
    private static void log(int level, long format, long vaList) {
        // libfuse 3.18 cancels a queue thread that is logging its failure (Cancellation).
        int cancelState = Cancellation.disable();
        boolean goesOn = false;
        try {
            MemorySegment buffer = FORMAT_BUFFER.get();
            int n = NativeMemory.vsnprintf(buffer.address(), BUFFER, format, vaList);
            String text = n < 0 ? "(unformattable libfuse message)\n" : buffer.getString(0);
            StringBuilder partial = PARTIAL.get();
            if (!text.endsWith("\n") && partial.length() + text.length() < BUFFER) {
                partial.append(text);
                return;
            }
            String message = (partial.isEmpty() ? text : partial.append(text).toString()).stripTrailing();
            partial.setLength(0);
            goesOn = QUEUE_GOES_ON.matcher(message).find();
            if (message.contains(RING_START_FAILED)) {
                var ref = RING_FAILURE.get();
                var listener = ref == null ? null : ref.get();
                if (listener != null) listener.accept(message);
            }
            StringBuilder sb = CAPTURED.get();
            if (sb != null && level <= 4) {
                sb.append(message).append('\n');
            }
            // enum fuse_log_level: EMERG 0 ... ERR 3, WARNING 4, NOTICE 5, INFO 6, DEBUG 7
            if (level <= 3) {
                LOG.error(message);
            } else if (level == 4) {
                LOG.warn(message);
            } else if (level <= 6) {
                LOG.info(message);
            } else {
                LOG.debug(message);
            }
        } catch (Throwable t) {
            // An exception must not unwind into libfuse: the JVM would abort.
        } finally {
            if (goesOn) {
                Cancellation.restore(cancelState);
            }
        }
    }
}
