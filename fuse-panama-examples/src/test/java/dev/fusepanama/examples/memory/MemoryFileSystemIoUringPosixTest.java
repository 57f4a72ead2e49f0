package dev.fusepanama.examples.memory;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.UringSwitch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The POSIX suite against the in-memory filesystem with its requests over io_uring, where libfuse
 * (3.18+) and the kernel allow it (as root the fuse module's enable_uring is turned on for the
 * class and put back after); elsewhere the same mounts come up over /dev/fuse. A check whose
 * mount the kernel refused the rings ({@link UringSwitch#kernelRefusal}) is skipped with that
 * reason: it would repeat {@code MemoryFileSystemPosixTest} over /dev/fuse.
 */
@MountTest
class MemoryFileSystemIoUringPosixTest extends PosixSuite {
    private static UringSwitch uring;

    @BeforeAll
    static void ringsOn() throws Exception {
        uring = UringSwitch.set(true);
    }

    @AfterAll
    static void ringsBack() throws Exception {
        uring.close();
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        MemoryFileSystem fs = new MemoryFileSystem(1L << 30, 1_000_000);
        TestMount m = TestMount.mount(fs, MemoryFileSystem.mountOptions().allowOther(true).ioUring(true).build());
        String how = m.handle().describe();
        String refusal = UringSwitch.kernelRefusal(how);
        if (!UringSwitch.ringsOf(how) && refusal != null) {
            m.close();
            Assumptions.abort(refusal);
        }
        return m;
    }
}
