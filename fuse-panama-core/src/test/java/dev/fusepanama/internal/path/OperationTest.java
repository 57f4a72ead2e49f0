package dev.fusepanama.internal.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Stat;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_operations;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import dev.fusepanama.internal.view.NativePollHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Proxy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The operation table is derived from the binding, Upcalls and FuseFileSystem, and every stub is guarded. */
class OperationTest {

    @Test
    void everySlotOfTheStructHasItsUpcallAndAuthorMethod() {
        assertEquals(43, Upcalls.OPERATIONS.all().size());
        assertEquals(fuse_operations.LAYOUT_318.memberLayouts().stream().map(l -> l.name().orElseThrow()).toList(),
                Upcalls.OPERATIONS.all().stream().map(Operation::cName).toList(), "in struct order");
        assertEquals("writeBuf", Upcalls.OPERATIONS.named("write_buf").authorMethod().getName());
        assertEquals("copyFileRange", Upcalls.OPERATIONS.named("copy_file_range").authorMethod().getName());
    }

    @Test
    void theCSignatureFollowsTheUpcallsJavaSignature() {
        // int (*getattr)(const char *, struct stat *, struct fuse_file_info *)
        assertEquals(FunctionDescriptor.of(Native.C_INT, Native.C_POINTER, Native.C_POINTER, Native.C_POINTER),
                Upcalls.OPERATIONS.named("getattr").descriptor());
        // off_t (*lseek)(const char *, off_t off, int whence, struct fuse_file_info *)
        assertEquals(FunctionDescriptor.of(Native.C_LONG, Native.C_POINTER, Native.C_LONG, Native.C_INT, Native.C_POINTER),
                Upcalls.OPERATIONS.named("lseek").descriptor());
        // void (*destroy)(void *private_data)
        assertEquals(FunctionDescriptor.ofVoid(Native.C_POINTER), Upcalls.OPERATIONS.named("destroy").descriptor());
    }

    @Test
    void registrationFollowsWhatAClassOverrides() {
        class Reads implements FuseFileSystem {
            @Override
            public int getattr(String path, Stat stat, FileInfo fi) { return 0; }

            @Override
            public int writeBuf(String path, WriteBuffer data, long offset, FileInfo fi) { return 0; }
        }
        class MoreReads extends Reads {}
        Set<String> names = new HashSet<>();
        Upcalls.OPERATIONS.implementedBy(MoreReads.class).forEach(op -> names.add(op.cName()));
        assertEquals(Set.of("init", "getattr", "write_buf"), names, "and init, always: the mount applies its settings there");
        assertTrue(Upcalls.OPERATIONS.named("getattr").takesPath());
        assertFalse(Upcalls.OPERATIONS.named("init").takesPath());
    }

    /**
     * Each stub, called the way libfuse calls it, with a filesystem whose every method throws:
     * nothing reaches native code (which would abort the JVM), counts and status answer EIO,
     * init reports the failure and answers NULL.
     */
    @Test
    void everyStubAnswersAThrowingFilesystemWithoutLettingTheExceptionOut() throws Throwable {
        FuseFileSystem throwing = (FuseFileSystem) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {FuseFileSystem.class}, (proxy, method, args) -> {
                    throw new IllegalStateException("bug in " + method.getName());
                });
        AtomicReference<Throwable> initFailure = new AtomicReference<>();
        Upcalls upcalls = new Upcalls(throwing, new ErrorMapper(ErrorMapper.PATH_LOGGER, "/test"), new InitListener() {
            @Override
            public void configure(NativeConnectionInfo connection, NativeFuseConfig config) {}

            @Override
            public void initialized(Throwable failure) {
                initFailure.set(failure);
            }
        }, NativePollHandle.Guard.NONE, null);
        try (Arena arena = Arena.ofConfined()) {
            // Every pointer argument points at zeroed scratch memory (an empty path, zeroed
            // structs); a poll handle of NULL means "no notification wanted".
            long scratch = arena.allocate(64 * 1024, 16).address();
            for (Operation op : Upcalls.OPERATIONS.all()) {
                MethodHandle call = Native.LINKER.downcallHandle(upcalls.stub(op, arena), op.descriptor());
                Class<?>[] types = op.upcall().getParameterTypes();
                Object[] args = new Object[types.length];
                for (int i = 0; i < types.length; i++) {
                    args[i] = types[i] == int.class ? (Object) 0 : (Object) scratch;
                }
                if (op.cName().equals("poll")) {
                    args[2] = 0L;
                }
                Object result = call.invokeWithArguments(List.of(args));
                switch (op.cName()) {
                    case "destroy" -> assertEquals(null, result);
                    case "init" -> assertEquals(0L, result, "init answers NULL private data");
                    default -> assertEquals(-Errno.EIO, ((Number) result).intValue(), op.cName());
                }
            }
        }
        assertNotNull(initFailure.get());
        assertInstanceOf(IllegalStateException.class, initFailure.get());
    }

    @Test
    void anUpcallMethodWithATypeNoCSignatureHasIsRefused() throws Exception {
        class Wrong {
            @SuppressWarnings("unused")
            int getattr(String path) { return 0; }
        }
        AssertionError e = assertThrows(AssertionError.class,
                () -> Operation.descriptorOf(Wrong.class.getDeclaredMethod("getattr", String.class)));
        assertTrue(e.getMessage().contains("only long and int"), e.getMessage());
    }
}
