package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.inode.ForwardingInodeFileSystem;
import dev.fusepanama.inode.InodeFileSystem;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The forwarding bases forward every method of their interface: one added later is not silently left to its default. */
class ForwardingTest {

    private static List<String> notForwarded(Class<?> api, Class<?> forwarding) throws NoSuchMethodException {
        List<String> missing = new ArrayList<>();
        for (Method m : api.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) continue;
            if (forwarding.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass() != forwarding) missing.add(m.getName());
        }
        return missing;
    }

    @Test
    void everyOperationIsForwarded() throws Exception {
        assertEquals(List.of(), notForwarded(FuseFileSystem.class, ForwardingFileSystem.class));
        assertEquals(List.of(), notForwarded(InodeFileSystem.class, ForwardingInodeFileSystem.class));
    }
}
