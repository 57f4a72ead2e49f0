package dev.fusepanama.cryptomator;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;
import org.cryptomator.integrations.mount.Mount;
import org.cryptomator.integrations.mount.MountService;
import sun.misc.Signal;

/**
 * A filesystem process for fuse-panama-bench's cryptomator suite: {@code BenchHost panama|fna
 * MOUNTPOINT} makes a new cryptofs 2.9.0 vault in /dev/shm (a tmpfs), mounts it with this
 * module's MountService ({@code panama}) or fuse-nio-adapter 5.1.0's LinuxFuseMountProvider on
 * jfuse ({@code fna}), each with its default mount flags, as the Cryptomator application would,
 * and serves until SIGTERM or SIGINT, then unmounts and removes the vault.
 */
public final class BenchHost {
    private BenchHost() {}

    public static void main(String[] args) throws Exception {
        MountService service = switch (args[0]) {
            case "panama" -> new FusePanamaMountService();
            case "fna" -> new org.cryptomator.frontend.fuse.mount.LinuxFuseMountProvider();
            default -> throw new IllegalArgumentException("panama or fna, not " + args[0]);
        };
        Path mountpoint = Path.of(args[1]);
        Path vault = Files.createTempDirectory(Path.of("/dev/shm"), "bench-vault-");
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        try {
            Vaults.create(vault, "bench");
            try (FileSystem cryptofs = Vaults.open(vault, "bench", false)) {
                Mount mount = service.forFileSystem(cryptofs.getPath("/")).setMountpoint(mountpoint)
                        .setMountFlags(service.getDefaultMountFlags()).mount();
                stop.await();
                try {
                    mount.unmount();
                } catch (Exception busy) {
                    if (service.hasCapability(org.cryptomator.integrations.mount.MountCapability.UNMOUNT_FORCED)) {
                        mount.unmountForced();
                    } else {
                        new ProcessBuilder("umount", "-l", mountpoint.toString()).inheritIO().start().waitFor();
                    }
                }
                mount.close();
            }
        } finally {
            try (var walk = Files.walk(vault)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
        System.exit(0);
    }
}
