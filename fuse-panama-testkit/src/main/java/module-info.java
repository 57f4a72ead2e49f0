/**
 * fuse-panama's test kit: mounts for tests that always unmount ({@code TestMount}), system
 * calls with their errno ({@code Os}), the POSIX suite ({@code PosixSuite}) and the public
 * pjdfstest inside a mount ({@code PjdfstestSuite}).
 */
module dev.fusepanama.testkit {
    requires transitive dev.fusepanama;
    requires dev.fusepanama.libc;
    requires transitive org.junit.jupiter.api;
    requires org.slf4j;

    exports dev.fusepanama.testkit;
}
