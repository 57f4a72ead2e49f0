package dev.fusepanama.testkit;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Record locks belong to processes: this main tries one from a second JVM. */
final class FcntlProbe {
    private FcntlProbe() {}

    /** 0: the lock was granted; 1: refused because another process holds it. */
    static int tryLockInAnotherProcess(Path file) throws Exception {
        Process p = new ProcessBuilder(ChildJvm.command(FcntlProbe.class, file.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) throw new AssertionError("probe hung");
        if (p.exitValue() > 1) throw new AssertionError("probe failed: " + out);
        return p.exitValue();
    }

    /** Tries a write lock on all of the file {@code args[0]}, without waiting: exits with 0 if granted, 1 if another process holds one, 2 on any other error. */
    public static void main(String[] args) {
        int fd = Os.open(Path.of(args[0]), Posix.O_RDWR);
        int rc = Os.fcntlLock(fd, Posix.F_SETLK, Posix.F_WRLCK, 0, 0);
        System.exit(rc == 0 ? 0 : rc == -Errno.EAGAIN || rc == -Errno.EACCES ? 1 : 2);
    }
}
