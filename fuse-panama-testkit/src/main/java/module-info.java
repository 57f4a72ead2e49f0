/**
 * fuse-panama's test kit: mounts for tests that always unmount ({@code TestMount}), system
 * calls with their errno ({@code Os}), and the POSIX suite ({@code PosixSuite}).
 */
module dev.fusepanama.testkit {
    requires transitive dev.fusepanama;
    requires transitive org.junit.jupiter.api;

    exports dev.fusepanama.testkit;
}
