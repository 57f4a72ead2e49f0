/**
 * fuse-panama: FUSE filesystems in Java over the system libfuse3, through the FFM API.
 * Only {@code dev.fusepanama} is API; the bindings and dispatch stay internal.
 */
module dev.fusepanama {
    requires org.slf4j;

    exports dev.fusepanama;
    // The test kit's system calls read struct stat, statvfs and timespec with the layouts the
    // layout test checks, instead of keeping copies of them.
    exports dev.fusepanama.internal.bind to dev.fusepanama.testkit;
}
