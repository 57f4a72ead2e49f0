package dev.fusepanama.examples.mirror;

/**
 * The POSIX suite against the mirror whose names below the top directory are resolved with
 * openat2, the containment a mirror gets without CAP_SYS_ADMIN.
 */
class MirrorFileSystemOpenat2PosixTest extends MirrorFileSystemPosixTest {
    @Override
    protected Containment containment() {
        return Containment.OPENAT2;
    }
}
