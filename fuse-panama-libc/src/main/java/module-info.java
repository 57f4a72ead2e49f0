/**
 * fuse-panama-libc: the C library calls a filesystem that forwards to real files makes, bound
 * once through the FFM API; see {@link dev.fusepanama.libc}. The core uses a few of them (to
 * mount, unmount and hand passthrough files to the kernel); everything else here is for
 * filesystems and tests.
 */
module dev.fusepanama.libc {
    requires org.slf4j;

    exports dev.fusepanama.libc;
    exports dev.fusepanama.libc.structs;
}
