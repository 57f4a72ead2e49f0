package dev.fusepanama.examples.mirror;

import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** pjdfstest inside the mirror of a fresh tmpfs, mounted as the launcher mounts it as root. */
class MirrorFileSystemPjdfstestTest extends PjdfstestSuite {
    private static Path source;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        source = Tmpfs.mount("mirror-pjdfstest-source");
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(source);
    }

    /** As {@code PosixSuite.Feature.FSTAT_OF_REMOVED_FILES} says: the path API has no name left to ask with. */
    @Override
    protected Map<String, String> knownFailures() {
        return Map.of("unlink::open_file_not_freed",
                "fstat of an unlinked open file answers ESTALE: the kernel asks a path filesystem for it by inode, without the handle");
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source);
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }
}
