package dev.fusepanama.examples.memory;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;

/** The POSIX suite against the in-memory filesystem, mounted as the launcher mounts it. */
@MountTest
class MemoryFileSystemPosixTest extends PosixSuite {
    private MemoryFileSystem fs;
    private TestMount mounted;

    @Override
    protected TestMount mountFilesystem() throws Exception {
        fs = new MemoryFileSystem(1L << 30, 1_000_000);
        mounted = TestMount.mount(fs, MemoryFileSystem.mountOptions().allowOther(true).build());
        return mounted;
    }

    @Override
    protected java.util.Set<Feature> unsupported() {
        return unsupportedUnderWriteback(fs, mounted);
    }

    /**
     * What memfs cannot do under the kernel's writeback cache: the kernel forwards SEEK_DATA and
     * SEEK_HOLE before it has flushed, so memfs lets it answer them as for a file without holes;
     * and where the mount did not get handle_killpriv_v2 (libfuse before 3.17.1, Linux before
     * 5.11) the kernel clears set-ID bits itself on a cached write, by its FUSE rule
     * (set-group-ID only beside group-execute).
     */
    static java.util.Set<Feature> unsupportedUnderWriteback(MemoryFileSystem fs, TestMount m) {
        if (fs == null || m == null || !fs.writebackCache()) return java.util.Set.of();
        String how = m.handle().describe();
        boolean killprivV2 = how.contains("handle_killpriv_v2") && !how.contains("without handle_killpriv_v2");
        return killprivV2 ? java.util.Set.of(Feature.SEEK_HOLES)
                : java.util.Set.of(Feature.SEEK_HOLES, Feature.SETGID_CLEARED_OUTSIDE_GROUP);
    }
}
