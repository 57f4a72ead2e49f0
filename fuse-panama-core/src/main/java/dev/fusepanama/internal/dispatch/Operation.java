package dev.fusepanama.internal.dispatch;

import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.internal.bind.fuse_operations;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One slot of {@code struct fuse_operations}, derived rather than declared. An operation is
 * written down once, as the {@link Upcalls} method named like its slot (snake_case, as in
 * fuse.h); from the slot list of the binding ({@link fuse_operations}) and that method follow:
 * <ul>
 *   <li>the C signature of the upcall stub, from the method's Java parameter and return types
 *       ({@code long} is a pointer, {@code size_t} or {@code off_t}, {@code int} an int);</li>
 *   <li>the author's method, the {@link FuseFileSystem} method named as the slot in camelCase
 *       ({@code write_buf} → {@code writeBuf}), whose override decides registration;</li>
 *   <li>whether a failure can be logged with a path: the author's first parameter is one.</li>
 * </ul>
 * Adding an operation is therefore its slot in the binding (what jextract generates), its
 * {@link Upcalls} method and its {@link FuseFileSystem} method; nothing else lists operations.
 */
public record Operation(String cName, Method upcall, Method authorMethod, FunctionDescriptor descriptor) {

    /** Every slot this binding serves, in {@code struct fuse_operations} order. */
    public static final List<Operation> ALL = derive();

    private static final Map<String, Operation> BY_NAME = byName(ALL);

    /** The operation of slot {@code cName} ("getattr", "write_buf"). */
    public static Operation named(String cName) {
        Operation op = BY_NAME.get(cName);
        if (op == null) {
            throw new IllegalArgumentException("no operation " + cName);
        }
        return op;
    }

    /** Whether the author's method for this operation has a path as its first parameter. */
    public boolean takesPath() {
        return authorMethod.getParameterCount() > 0 && authorMethod.getParameterTypes()[0] == String.class;
    }

    /** Whether {@code type} (or a supertype other than FuseFileSystem) overrides the author's method. */
    public boolean isImplementedBy(Class<? extends FuseFileSystem> type) {
        try {
            return type.getMethod(authorMethod.getName(), authorMethod.getParameterTypes()).getDeclaringClass()
                    != FuseFileSystem.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** The operations {@code type} implements: the ones registered with libfuse. */
    public static Set<Operation> implementedBy(Class<? extends FuseFileSystem> type) {
        Set<Operation> result = new LinkedHashSet<>();
        for (Operation op : ALL) {
            if (op.isImplementedBy(type)) {
                result.add(op);
            }
        }
        return result;
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

    private static List<Operation> derive() {
        Map<String, Method> upcalls = uniqueByName(Upcalls.class.getDeclaredMethods(), true);
        Map<String, Method> authors = uniqueByName(FuseFileSystem.class.getMethods(), false);
        List<Operation> all = new ArrayList<>();
        for (MemoryLayout slot : fuse_operations.LAYOUT_310.memberLayouts()) {
            String name = slot.name().orElseThrow();
            Method upcall = upcalls.get(name);
            Method author = authors.get(camelCase(name));
            if (upcall == null || author == null) {
                throw new AssertionError("struct fuse_operations slot " + name + " has no "
                        + (upcall == null ? "Upcalls." + name : "FuseFileSystem." + camelCase(name)) + " method");
            }
            all.add(new Operation(name, upcall, author, descriptorOf(upcall)));
        }
        return Collections.unmodifiableList(all);
    }

    /** Methods by name; the package-private instance methods only, for {@link Upcalls}. */
    private static Map<String, Method> uniqueByName(Method[] methods, boolean upcallsOnly) {
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
        throw new AssertionError("Upcalls." + upcall.getName() + " uses " + type + "; upcalls take and return only long and int");
    }

    private static Map<String, Operation> byName(List<Operation> all) {
        Map<String, Operation> m = new LinkedHashMap<>();
        for (Operation op : all) {
            m.put(op.cName, op);
        }
        return m;
    }

    @Override
    public String toString() {
        return cName;
    }
}
