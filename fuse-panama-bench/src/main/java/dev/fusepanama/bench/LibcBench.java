package dev.fusepanama.bench;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link Libc}'s one convention costs: a call that fails (so errno is read) through
 * {@code Libc}, whose capture segment is the calling thread's from a ThreadLocal, against the same
 * downcall with a segment the caller keeps (the convention before fuse-panama-libc). Both call
 * {@code fstat} on descriptor -1, which glibc answers with EBADF itself, without entering the
 * kernel: what is timed is the downcall, the errno capture and read, and the lookup, with no
 * system call's noise around them. Run with {@code -prof gc}: neither allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LibcBench {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle FSTAT = LINKER.downcallHandle(LINKER.defaultLookup().find("fstat").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), Linker.Option.captureCallState("errno"));
    private static final VarHandle ERRNO = Linker.Option.captureStateLayout()
            .varHandle(MemoryLayout.PathElement.groupElement("errno"));

    Arena arena;
    MemorySegment errno;
    MemorySegment stat;

    @Setup
    public void setUp() {
        arena = Arena.ofConfined();
        errno = arena.allocate(Linker.Option.captureStateLayout());
        stat = arena.allocate(256, 8);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int throughLibc() {
        return Libc.fstat(-1, stat);
    }

    @Benchmark
    public int segmentKeptByTheCaller() throws Throwable {
        int rc = (int) FSTAT.invokeExact(errno, -1, stat);
        return rc < 0 ? -(int) ERRNO.get(errno, 0L) : rc;
    }
}
