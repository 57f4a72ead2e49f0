package dev.fusepanama.nio;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The POSIX suite against the adapter over a writable zip archive (the JDK's jdk.zipfs, with its
 * posix permissions on), as {@code ./fuse-panama zip ARCHIVE --writable} serves one.
 */
@MountTest
class ZipfsPosixTest extends PosixSuite {
    private Path dir;
    private FileSystem zip;

    @Override
    protected TestMount mountFilesystem() throws Exception {
        dir = Files.createTempDirectory("zipfs-posix-");
        zip = FileSystems.newFileSystem(URI.create("jar:" + dir.resolve("a.zip").toUri()),
                Map.of("create", "true", "enablePosixFileAttributes", "true"));
        NioFileSystem fs = NioFileSystem.of(zip.getPath("/"));
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    @Override
    protected void afterUnmount() throws Exception {
        if (zip != null) zip.close();
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    /**
     * What java.nio.file has no call for (as for every provider), and what a zip archive does not
     * keep: links of either kind, extended attributes, owners, set-ID bits, sparse files, link
     * counts, times finer than a second, and directory times that move with their entries.
     */
    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.of(Feature.SPECIAL_FILES, Feature.RENAME_FLAGS, Feature.FALLOCATE, Feature.SEEK_HOLES,
                Feature.SPARSE_FILES, Feature.NON_UTF8_NAMES, Feature.PERMISSIONS, Feature.SET_ID_BITS,
                Feature.HARD_LINKS, Feature.HARD_LINKS_TO_SYMLINKS, Feature.SYMLINKS, Feature.XATTRS,
                Feature.XATTRS_NEAR_PATH_MAX, Feature.DIRECTORY_LINK_COUNTS, Feature.EXACT_TIMES,
                Feature.DIRECTORY_TIMES);
    }
}
