package dev.fusepanama.internal.inode;

import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.internal.bind.fuse_lowlevel_ops;
import dev.fusepanama.internal.dispatch.Operation;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
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
 * One slot of {@code struct fuse_lowlevel_ops}, derived as {@link Operation} derives the path
 * API's: from the slot names of the binding ({@link fuse_lowlevel_ops}), the {@link InodeUpcalls}
 * method named like the slot (whose Java types give the C signature) and the
 * {@link InodeFileSystem} method named like it in camelCase (whose override decides
 * registration). {@code forget_multi} serves the kernel's batches with the author's
 * {@code forget}; {@code init} is always registered (the mount's settings are applied there),
 * and so are the {@link #BINDING} slots, which have no author method.
 */
public record InodeOperation(String cName, Method upcall, Method authorMethod, FunctionDescriptor descriptor) {

    /** Slots this binding does not serve yet; each must be listed here or have an upcall. */
    static final Set<String> UNSERVED = Set.of();

    /**
     * Slots the binding serves itself, always registered, with no method of the filesystem's:
     * {@code retrieve_reply} completes the future of {@link dev.fusepanama.inode.InodeMount#retrieve}.
     */
    static final Set<String> BINDING = Set.of("retrieve_reply");

    /** The author method of slots not named like it. */
    private static final Map<String, String> AUTHOR = Map.of("forget_multi", "forget");

    /** Every slot served, in struct order. */
    public static final List<InodeOperation> ALL = derive();

    /** The operation of slot {@code cName} ("lookup", "release"). */
    public static InodeOperation named(String cName) {
        for (InodeOperation op : ALL) {
            if (op.cName.equals(cName)) return op;
        }
        throw new IllegalArgumentException("no operation " + cName);
    }

    /** The operations {@code type} implements, with init: the slots registered with libfuse. */
    public static Set<InodeOperation> implementedBy(Class<? extends InodeFileSystem> type) {
        Set<InodeOperation> result = new LinkedHashSet<>();
        for (InodeOperation op : ALL) {
            if (op.cName.equals("init") || op.isImplementedBy(type)) {
                result.add(op);
            }
        }
        return result;
    }

    public boolean isImplementedBy(Class<? extends InodeFileSystem> type) {
        if (authorMethod == null) {
            return true; // served by the binding
        }
        try {
            return type.getMethod(authorMethod.getName(), authorMethod.getParameterTypes()).getDeclaringClass()
                    != InodeFileSystem.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** Whether the operation answers through a reply (all but init, destroy, the forgets and the binding's own). */
    public boolean replies() {
        return upcall.getParameterCount() > 0 && !cName.equals("init") && !cName.equals("destroy")
                && !cName.startsWith("forget") && authorMethod != null;
    }

    private static List<InodeOperation> derive() {
        Map<String, Method> upcalls = new LinkedHashMap<>();
        for (Method m : InodeUpcalls.class.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (Modifier.isStatic(mod) || Modifier.isPrivate(mod) || Modifier.isPublic(mod) || m.isSynthetic()) {
                continue;
            }
            if (upcalls.put(m.getName(), m) != null) {
                throw new AssertionError("InodeUpcalls declares " + m.getName() + " twice; operations are matched by name");
            }
        }
        Map<String, Method> authors = new LinkedHashMap<>();
        for (Method m : InodeFileSystem.class.getMethods()) {
            if (authors.put(m.getName(), m) != null) {
                throw new AssertionError("InodeFileSystem declares " + m.getName() + " twice; operations are matched by name");
            }
        }
        List<InodeOperation> all = new ArrayList<>();
        for (MemoryLayout slot : fuse_lowlevel_ops.LAYOUT_310.memberLayouts()) {
            String name = slot.name().orElseThrow();
            Method upcall = upcalls.get(name);
            if (upcall == null && UNSERVED.contains(name)) {
                continue;
            }
            Method author = authors.get(AUTHOR.getOrDefault(name, Operation.camelCase(name)));
            if (upcall != null && BINDING.contains(name)) {
                all.add(new InodeOperation(name, upcall, null, Operation.descriptorOf(upcall)));
                continue;
            }
            if (upcall == null || author == null) {
                throw new AssertionError("struct fuse_lowlevel_ops slot " + name + " has no "
                        + (upcall == null ? "InodeUpcalls." + name : "InodeFileSystem." + Operation.camelCase(name)) + " method");
            }
            all.add(new InodeOperation(name, upcall, author, Operation.descriptorOf(upcall)));
        }
        return Collections.unmodifiableList(all);
    }

    @Override
    public String toString() {
        return cName;
    }
}
