package dev.fusepanama.examples.memory;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;

/** pjdfstest inside memfs, mounted as the launcher mounts it: every feature, no known failure. */
@MountTest
class MemoryFileSystemPjdfstestTest extends PjdfstestSuite {
    @Override
    protected TestMount mountFilesystem() throws Exception {
        return TestMount.mount(new MemoryFileSystem(1L << 30, 1_000_000), MemoryFileSystem.mountOptions().allowOther(true).build());
    }
}
