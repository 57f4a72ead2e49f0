package dev.fusepanama.examples.memory;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;

/** The POSIX suite against the in-memory filesystem, mounted as the launcher mounts it. */
@MountTest
class MemoryFileSystemPosixTest extends PosixSuite {
    @Override
    protected TestMount mountFilesystem() throws Exception {
        return TestMount.mount(new MemoryFileSystem(1L << 30, 1_000_000), MemoryFileSystem.mountOptions().allowOther(true).build());
    }
}
