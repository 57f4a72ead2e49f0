package dev.fusepanama.internal.dispatch;

import dev.fusepanama.inode.Reply;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * The debug mode that makes a view kept past its call fail loudly. The views a filesystem method
 * receives ({@code Stat}, {@code FileInfo}, names, fillers, the buffers of read and write, ...)
 * point into libfuse's memory for one request and are re-pointed at the next request's when the
 * method returns; a filesystem that keeps one silently reads or writes another request's data.
 * With the system property {@value #PROPERTY} set to {@code true} when a filesystem is mounted
 * (or the environment variable {@value #VARIABLE} set to {@code 1} in the process),
 * every method of that filesystem receives views that work during the call and throw
 * {@link IllegalStateException} from the moment it returns: proxies of the view interfaces, and
 * buffers over memory of a shared arena closed at the return. It costs a proxy per view per call:
 * for tests, not for production.
 */
public final class ViewCheck {
    /** The system property that turns the check on for the mounts made while it is {@code true}. */
    public static final String PROPERTY = "fusepanama.checkViews";

    private ViewCheck() {}

    /** The environment variable that does the same for a whole process (a test run): {@code 1} or {@code true}. */
    public static final String VARIABLE = "FUSE_PANAMA_CHECK_VIEWS";

    /** Whether mounts made now check their views. */
    public static boolean enabled() {
        String env = System.getenv(VARIABLE);
        return Boolean.getBoolean(PROPERTY) || "1".equals(env) || "true".equalsIgnoreCase(env);
    }

    /**
     * {@code fs} seen through {@code api}, each call's view arguments replaced by ones that
     * expire when the call returns.
     *
     * @param views the view interfaces of {@code api}'s arguments (and of what they return)
     */
    public static <T> T wrap(T fs, Class<T> api, Set<Class<?>> views) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.invoke(fs, args);
            }
            Lease lease = new Lease(api.getSimpleName() + "." + method.getName(), views);
            try {
                Object[] guarded = lease.guardAll(args);
                return method.invoke(fs, guarded);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            } finally {
                lease.end();
            }
        };
        return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, handler));
    }

    /** The life of one call's views. */
    private static final class Lease {
        private final String call;
        private final Set<Class<?>> views;
        private volatile boolean ended;
        private Arena buffers;

        Lease(String call, Set<Class<?>> views) {
            this.call = call;
            this.views = views;
        }

        Object[] guardAll(Object[] args) {
            if (args == null) {
                return null;
            }
            Object[] out = args.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] = guard(out[i]);
            }
            return out;
        }

        Object guard(Object arg) {
            if (arg instanceof ByteBuffer b && b.isDirect()) {
                return buffer(b);
            }
            if (arg == null || arg instanceof Reply || Proxy.isProxyClass(arg.getClass())) {
                return arg; // a reply is the request's, not the call's: it may be deferred
            }
            for (Class<?> view : views) {
                if (view.isInstance(arg)) {
                    return view(view, arg);
                }
            }
            return arg;
        }

        /** The same memory as {@code b}, at its position and limit, through an arena closed when the call returns. */
        private ByteBuffer buffer(ByteBuffer b) {
            if (buffers == null) {
                buffers = Arena.ofShared();
            }
            long base = MemorySegment.ofBuffer(b).address() - b.position();
            MemorySegment same = MemorySegment.ofAddress(base).reinterpret(b.capacity(), buffers, null);
            ByteBuffer leased = same.asByteBuffer().limit(b.limit()).position(b.position());
            return b.isReadOnly() ? leased.asReadOnlyBuffer() : leased;
        }

        private Object view(Class<?> type, Object target) {
            InvocationHandler h = (proxy, method, args) -> {
                if (method.getDeclaringClass() == Object.class && !method.getName().equals("toString")) {
                    return method.invoke(target, args);
                }
                if (ended) {
                    throw new IllegalStateException("a " + type.getSimpleName() + " handed to " + call + " was used after the call"
                            + " returned (" + method.getName() + "): views point into libfuse's memory for that request"
                            + " only; copy what you keep (" + PROPERTY + ")");
                }
                try {
                    Object result = method.invoke(target, unwrapAll(args));
                    return result == target ? proxy : guard(result);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, new Delegating(h, target));
        }

        private static Object[] unwrapAll(Object[] args) {
            if (args == null) {
                return null;
            }
            Object[] out = args.clone();
            for (int i = 0; i < out.length; i++) {
                if (out[i] != null && Proxy.isProxyClass(out[i].getClass())
                        && Proxy.getInvocationHandler(out[i]) instanceof Delegating d) {
                    out[i] = d.target;
                }
            }
            return out;
        }

        void end() {
            ended = true;
            if (buffers != null) {
                try {
                    buffers.close();
                } catch (IllegalStateException inUse) {
                    // A buffer is still being used (an asynchronous channel operation, another
                    // thread): say so, without changing what the method answered.
                    org.slf4j.LoggerFactory.getLogger(ViewCheck.class).warn("a buffer handed to {} is still in use after the"
                            + " call returned; it points into libfuse's memory for that request only ({})", call, PROPERTY, inUse);
                }
            }
        }
    }

    /** A view proxy's handler, which knows the view it guards (to hand the real one back to the library). */
    private record Delegating(InvocationHandler checks, Object target) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            return checks.invoke(proxy, method, args);
        }
    }
}
