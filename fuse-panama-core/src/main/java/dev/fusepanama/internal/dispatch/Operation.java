package dev.fusepanama.internal.dispatch;

import dev.fusepanama.internal.bind.Native;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One slot of libfuse's operation table ({@code struct fuse_operations} for the path API,
 * {@code struct fuse_lowlevel_ops} for the inode API), derived rather than declared, the same
 * way for both. An operation is written down once, as the upcall method named like its slot
 * (snake_case, as in the C header) in the API's upcalls class; from the slot list of the binding
 * (what jextract generates) and that method follow:
 * <ul>
 *   <li>the C signature of the upcall stub, from the method's Java parameter and return types
 *       ({@code long} is a pointer, {@code size_t} or {@code off_t}, {@code int} an int);</li>
 *   <li>the author's method, the method of the API's filesystem interface named as the slot in
 *       camelCase ({@code write_buf} → {@code writeBuf}), whose override decides registration;</li>
 *   <li>for the path API, whether a failure can be logged with a path: the author's first
 *       parameter is one.</li>
 * </ul>
 * Adding an operation is therefore its slot in the binding, its upcall method and its author
 * method; nothing else lists operations. {@link Table} holds one API's operations.
 */
public record Operation(String cName, Method upcall, Method authorMethod, FunctionDescriptor descriptor) {
    /** {@code Thread.interrupted()}, its answer dropped: clears the calling thread's interrupt status. */
    private static final MethodHandle CLEAR_INTERRUPT;

    static {
        try {
            CLEAR_INTERRUPT = MethodHandles.dropReturn(MethodHandles.lookup()
                    .findStatic(Thread.class, "interrupted", MethodType.methodType(boolean.class)));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * One API's operations, in struct order.
     *
     * @param all every slot served
     * @param always the slots registered whatever the filesystem implements (the library's own:
     *        init applies the mount's settings)
     */
    public record Table(List<Operation> all, Set<String> always) {

        /**
         * Derives the operations of {@code struct}: each slot's method in {@code upcalls} (its
         * package-private instance methods) and in {@code author} (the filesystem interface).
         *
         * @param authorNames author methods not named like their slot ({@code forget_multi} → {@code forget})
         * @param bindingOnly slots the library serves itself, with no author method (always registered)
         * @param always further slots registered whatever the filesystem implements
         */
        public static Table derive(StructLayout struct, Class<?> upcalls, Class<?> author, Map<String, String> authorNames,
                Set<String> bindingOnly, Set<String> always) {
            Map<String, Method> upcallMethods = byName(upcalls.getDeclaredMethods(), true);
            Map<String, Method> authorMethods = byName(author.getMethods(), false);
            List<Operation> all = new ArrayList<>();
            for (MemoryLayout slot : struct.memberLayouts()) {
                String name = slot.name().orElseThrow();
                Method upcall = upcallMethods.get(name);
                if (upcall != null && bindingOnly.contains(name)) {
                    all.add(new Operation(name, upcall, null, descriptorOf(upcall)));
                    continue;
                }
                String authorName = authorNames.getOrDefault(name, camelCase(name));
                Method authorMethod = authorMethods.get(authorName);
                if (upcall == null || authorMethod == null) {
                    throw new AssertionError(struct.name().orElse("the struct") + " slot " + name + " has no "
                            + (upcall == null ? upcalls.getSimpleName() + "." + name : author.getSimpleName() + "." + authorName)
                            + " method");
                }
                all.add(new Operation(name, upcall, authorMethod, descriptorOf(upcall)));
            }
            Set<String> registered = new LinkedHashSet<>(always);
            registered.addAll(bindingOnly);
            return new Table(Collections.unmodifiableList(all), Collections.unmodifiableSet(registered));
        }

        /** The operation of slot {@code cName} ("getattr", "write_buf"). */
        public Operation named(String cName) {
            for (Operation op : all) {
                if (op.cName.equals(cName)) return op;
            }
            throw new IllegalArgumentException("no operation " + cName);
        }

        /** The operations to register for a filesystem of class {@code type}: what it implements, and {@link #always}. */
        public Set<Operation> implementedBy(Class<?> type) {
            Set<Operation> result = new LinkedHashSet<>();
            for (Operation op : all) {
                if (always.contains(op.cName) || op.isImplementedBy(type)) {
                    result.add(op);
                }
            }
            return result;
        }
    }

    /** Whether {@code type} (or a supertype other than the filesystem interface) overrides the author's method. */
    public boolean isImplementedBy(Class<?> type) {
        if (authorMethod == null) {
            return true; // served by the library
        }
        try {
            return type.getMethod(authorMethod.getName(), authorMethod.getParameterTypes()).getDeclaringClass()
                    != authorMethod.getDeclaringClass();
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** Whether the author's method for this operation has a path as its first parameter. */
    public boolean takesPath() {
        return authorMethod != null && authorMethod.getParameterCount() > 0 && authorMethod.getParameterTypes()[0] == String.class;
    }

    /**
     * The upcall stub of this operation for {@code upcalls} (an instance of the class it was
     * derived from, whose package-private methods {@code lookup} can reach), valid as long as
     * {@code arena}: {@code onReturn}, if not null, filters the method's result (or runs after a
     * void one); {@code onThrow} turns whatever the method throws into the stub's result, so
     * that nothing unwinds into native code. Each call starts with the worker thread's interrupt
     * status cleared: a request's method that leaves it set (a provider such as jimfs interrupts
     * the threads inside a channel it closes) would otherwise close the first interruptible
     * channel that a later request on the same worker uses, for another file.
     */
    public MemorySegment stub(MethodHandles.Lookup lookup, Object upcalls, MethodHandle onReturn, MethodHandle onThrow,
            Arena arena) {
        try {
            MethodHandle target = lookup.unreflect(upcall).bindTo(upcalls);
            if (onReturn != null) {
                target = MethodHandles.filterReturnValue(target, onReturn);
            }
            target = MethodHandles.foldArguments(target, CLEAR_INTERRUPT);
            return Native.LINKER.upcallStub(MethodHandles.catchException(target, Throwable.class, onThrow), descriptor, arena);
        } catch (IllegalAccessException e) {
            throw new AssertionError("no access to the upcall method of " + cName, e);
        }
    }

    /** The operation table for {@code operations}, in {@code arena}: each slot of {@code layout} set to its stub. */
    public static MemorySegment table(StructLayout layout, Collection<Operation> operations, Function<Operation, MemorySegment> stub,
            Arena arena) {
        MemorySegment table = arena.allocate(layout);
        for (Operation op : operations) {
            table.set(ValueLayout.ADDRESS, layout.byteOffset(MemoryLayout.PathElement.groupElement(op.cName)), stub.apply(op));
        }
        return table;
    }

    /** {@code write_buf} → {@code writeBuf}. */
    public static String camelCase(String cName) {
        StringBuilder b = new StringBuilder(cName.length());
        boolean upper = false;
        for (char c : cName.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }

    /** Methods by name; for an upcalls class, its package-private instance methods only. */
    private static Map<String, Method> byName(Method[] methods, boolean upcallsOnly) {
        Map<String, Method> m = new LinkedHashMap<>();
        for (Method method : methods) {
            int mod = method.getModifiers();
            if (upcallsOnly && (Modifier.isStatic(mod) || Modifier.isPrivate(mod) || Modifier.isPublic(mod) || method.isSynthetic())) {
                continue;
            }
            if (m.put(method.getName(), method) != null) {
                throw new AssertionError(method.getDeclaringClass().getSimpleName() + " declares " + method.getName()
                        + " twice; operations are matched by name");
            }
        }
        return m;
    }

    public static FunctionDescriptor descriptorOf(Method upcall) {
        Class<?>[] params = upcall.getParameterTypes();
        MemoryLayout[] args = new MemoryLayout[params.length];
        for (int i = 0; i < params.length; i++) {
            args[i] = layoutOf(params[i], upcall);
        }
        return upcall.getReturnType() == void.class
                ? FunctionDescriptor.ofVoid(args)
                : FunctionDescriptor.of(layoutOf(upcall.getReturnType(), upcall), args);
    }

    private static MemoryLayout layoutOf(Class<?> type, Method upcall) {
        if (type == long.class) return ValueLayout.JAVA_LONG;
        if (type == int.class) return ValueLayout.JAVA_INT;
        throw new AssertionError(upcall.getDeclaringClass().getSimpleName() + "." + upcall.getName() + " uses " + type
                + "; upcalls take and return only long and int");
    }

    @Override
    public String toString() {
        return cName;
    }
}
