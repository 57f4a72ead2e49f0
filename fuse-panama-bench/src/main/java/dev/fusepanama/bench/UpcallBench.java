package dev.fusepanama.bench;

import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.path.Upcalls;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import dev.fusepanama.internal.view.NativePollHandle;
import dev.fusepanama.internal.view.NativeStat;
import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The binding's own cost per request, without the kernel: each benchmark calls a real upcall
 * stub through a downcall, as libfuse would, so the measured path is native→Java transition,
 * path decoding, view re-pointing, the filesystem method, and the return. Run with
 * {@code -prof gc} to see heap bytes allocated per upcall.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class UpcallBench {
    /** A filesystem whose methods do the least possible, so the binding dominates. */
    static final class Minimal implements FuseFileSystem {
        @Override
        public int getattr(String path, Stat st, FileInfo fi) {
            st.setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(path.length());
            return 0;
        }

        @Override
        public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
            int n = buf.remaining();
            buf.position(buf.limit());
            return n;
        }
    }

    Arena arena;
    MethodHandle getattr;
    MethodHandle read;
    long path;
    long statBuf;
    long readBuf;
    long fileInfo;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        Upcalls upcalls = new Upcalls(new Minimal(), new ErrorMapper(ErrorMapper.PATH_LOGGER, "/bench"), new InitListener() {
            @Override
            public void configure(NativeConnectionInfo connection, NativeFuseConfig config) {}

            @Override
            public void initialized(Throwable failure) {}
        }, NativePollHandle.Guard.NONE, null);
        getattr = Native.LINKER.downcallHandle(upcalls.stub(Upcalls.OPERATIONS.named("getattr"), arena), Upcalls.OPERATIONS.named("getattr").descriptor());
        read = Native.LINKER.downcallHandle(upcalls.stub(Upcalls.OPERATIONS.named("read"), arena), Upcalls.OPERATIONS.named("read").descriptor());
        path = arena.allocateFrom("/big/file-01234").address();
        statBuf = arena.allocate(stat.LAYOUT).address();
        readBuf = arena.allocate(128 * 1024, 4096).address();
        fileInfo = arena.allocate(64).address();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int getattrUpcall() throws Throwable {
        return (int) getattr.invokeExact(path, statBuf, 0L);
    }

    @Benchmark
    public int read128KiBUpcall() throws Throwable {
        return (int) read.invokeExact(path, readBuf, 128L * 1024, 0L, fileInfo);
    }

    /** What a direct Java call to the same method costs: the floor the upcall is compared with. */
    @Benchmark
    public int getattrDirectJava(DirectState s) {
        return s.fs.getattr("/big/file-01234", s.stat, null);
    }

    @State(Scope.Thread)
    public static class DirectState {
        final Minimal fs = new Minimal();
        Arena arena;
        Stat stat;

        @Setup(Level.Trial)
        public void setUp() {
            arena = Arena.ofShared();
            stat = new NativeStat().at(arena.allocate(dev.fusepanama.libc.structs.stat.LAYOUT).address());
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }
}
