/**
 * fuse-panama: FUSE filesystems in Java over the system libfuse3, through the FFM API.
 * {@code dev.fusepanama} is the API for filesystem authors (paths), {@code dev.fusepanama.inode} the inode API, {@code dev.fusepanama.libc} the libc
 * calls a pass-through filesystem needs; the bindings and dispatch stay internal.
 */
module dev.fusepanama {
    requires org.slf4j;

    exports dev.fusepanama;
    exports dev.fusepanama.inode;
    exports dev.fusepanama.inode.table;
    exports dev.fusepanama.libc;
    // The test kit's system calls read struct stat, statvfs and timespec with the layouts the
    // layout test checks, instead of keeping copies of them.
    exports dev.fusepanama.internal.bind to dev.fusepanama.testkit;
}
