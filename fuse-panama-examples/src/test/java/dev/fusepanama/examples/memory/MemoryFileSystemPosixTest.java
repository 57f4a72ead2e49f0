package dev.fusepanama.examples.memory;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;

/** The POSIX suite against the in-memory filesystem, mounted as the launcher mounts it. */
@MountTest
class MemoryFileSystemPosixTest extends PosixSuite {
    private MemoryFileSystem fs;

    @Override
    protected TestMount mountFilesystem() throws Exception {
        fs = new MemoryFileSystem(1L << 30, 1_000_000);
        return TestMount.mount(fs, MemoryFileSystem.mountOptions().allowOther(true).build());
    }

    @Override
    protected java.util.Set<Feature> unsupported() {
        try {
            return unsupportedUnderWriteback(fs);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * What memfs cannot do under the kernel's writeback cache: the kernel forwards SEEK_DATA and
     * SEEK_HOLE before it has flushed, so memfs answers them as a file without holes; and before
     * libfuse 3.17 (no handle_killpriv_v2) the kernel clears set-ID bits itself on a cached write,
     * by its older rule (set-group-ID only beside group-execute).
     */
    static java.util.Set<Feature> unsupportedUnderWriteback(MemoryFileSystem fs) throws java.io.IOException {
        if (fs == null || !fs.writebackCache()) return java.util.Set.of();
        return TestMount.libfuseAtLeast(3, 17) ? java.util.Set.of(Feature.SEEK_HOLES)
                : java.util.Set.of(Feature.SEEK_HOLES, Feature.SETGID_CLEARED_OUTSIDE_GROUP);
    }
}
