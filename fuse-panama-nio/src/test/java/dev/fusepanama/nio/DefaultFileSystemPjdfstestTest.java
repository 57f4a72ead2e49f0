package dev.fusepanama.nio;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** pjdfstest inside the adapter over the default filesystem: a directory of a fresh tmpfs. */
@MountTest
class DefaultFileSystemPjdfstestTest extends PjdfstestSuite {
    private static Path source;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        source = Tmpfs.mount("nio-pjdfstest-source");
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(source);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path dir = Files.createDirectory(source.resolve("served"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        NioFileSystem fs = NioFileSystem.of(dir);
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    private static final String NO_SPECIAL_FILES =
            "java.nio.file makes no FIFOs, sockets or device nodes: mknod answers EPERM, as on a FAT mount";

    /**
     * What the adapter cannot do over java.nio.file: special files, and paths near PATH_MAX (a
     * {@code Path} names a file by its whole path from the provider's root, which for the default
     * provider is the source directory's path, longer than the mountpoint's, plus the path inside).
     */
    @Override
    protected Map<String, String> knownFailures() {
        Map<String, String> known = new java.util.TreeMap<>();
        for (String kind : List.of("fifo", "socket", "block", "char")) known.put("*::" + kind, NO_SPECIAL_FILES);
        for (String test : List.of("mkfifo::*", "mknod::*", "open::fifo_nonblock_wronly", "open::socket_error")) {
            known.put(test, NO_SPECIAL_FILES);
        }
        known.put("*::enametoolong_path",
                "the provider's path of a file near PATH_MAX inside the mount is longer than PATH_MAX (ENAMETOOLONG)");
        return known;
    }
}
