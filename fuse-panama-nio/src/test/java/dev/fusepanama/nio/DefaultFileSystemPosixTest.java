package dev.fusepanama.nio;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The POSIX suite against the adapter over the default filesystem: a fresh directory of a tmpfs. */
@MountTest
class DefaultFileSystemPosixTest extends PosixSuite {
    private static Path sources;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        sources = Tmpfs.mount("nio-sources");
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(sources);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path dir = Files.createTempDirectory(sources, "nio-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        NioFileSystem fs = NioFileSystem.of(dir);
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    /**
     * What java.nio.file has no call or field for: mknod of a FIFO or device, RENAME_EXCHANGE,
     * fallocate, SEEK_DATA/SEEK_HOLE, st_blocks, names that are not UTF-8; and a
     * path near PATH_MAX, since a Path reaches a file by its whole path from the served root.
     */
    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.of(Feature.SPECIAL_FILES, Feature.RENAME_FLAGS, Feature.FALLOCATE, Feature.SEEK_HOLES,
                Feature.SPARSE_FILES, Feature.NON_UTF8_NAMES, Feature.XATTRS_NEAR_PATH_MAX);
    }
}
