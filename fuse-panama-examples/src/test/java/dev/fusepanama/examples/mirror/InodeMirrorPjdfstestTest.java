package dev.fusepanama.examples.mirror;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * pjdfstest inside the inode mirror of a fresh tmpfs, watched, mounted as root with passthrough; no known
 * failures (the path mirror's, fstat of an unlinked open file, is what the inode API answers).
 */
@MountTest
class InodeMirrorPjdfstestTest extends PjdfstestSuite {
    private static Path source;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        source = Tmpfs.mount("inode-mirror-pjdfstest-source");
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(source);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        InodeMirror fs = InodeMirror.of(source);
        TestMount m = TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
        fs.watch(m.inodeHandle()); // as the command line mounts it: the kernel caches what the watch covers
        return m;
    }
}
