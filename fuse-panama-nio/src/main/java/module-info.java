/**
 * fuse-panama-nio: any {@code java.nio.file} filesystem served as a FUSE filesystem
 * ({@link dev.fusepanama.nio.NioFileSystem}).
 */
module dev.fusepanama.nio {
    requires transitive dev.fusepanama;
    requires dev.fusepanama.libc;
    requires org.slf4j;

    exports dev.fusepanama.nio;
}
