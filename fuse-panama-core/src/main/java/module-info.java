/**
 * fuse-panama: FUSE filesystems in Java over the system libfuse3, through the FFM API.
 * {@code dev.fusepanama} is the API for filesystem authors (paths), {@code dev.fusepanama.inode} the inode API; the bindings and dispatch stay internal. The
 * C library calls are a module of their own ({@code dev.fusepanama.libc}), which the core
 * reads for the few it makes.
 */
module dev.fusepanama {
    requires org.slf4j;
    requires dev.fusepanama.libc;

    exports dev.fusepanama;
    exports dev.fusepanama.inode;
    exports dev.fusepanama.inode.table;
    exports dev.fusepanama.watch;
}
