package app;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.cryptomator.cryptofs.CryptoFileSystemProperties;
import org.cryptomator.cryptofs.CryptoFileSystemProvider;
import org.cryptomator.cryptolib.api.Masterkey;
import org.cryptomator.integrations.mount.Mount;
import org.cryptomator.integrations.mount.MountService;

/** An application outside fuse-panama's repository: finds mount providers as Cryptomator does and mounts a vault. */
public final class Main {
    public static void main(String[] args) throws Exception {
        List<MountService> found = MountService.get().toList();
        MountService ours = found.stream().filter(s -> s.getClass().getName().startsWith("dev.fusepanama.")).findFirst()
                .orElseThrow(() -> new AssertionError("no fuse-panama provider among " + found));
        Path vault = Files.createDirectories(Path.of(args[0]));
        Path mnt = Files.createDirectories(Path.of(args[1]));
        Masterkey key = Masterkey.generate(new SecureRandom());
        var props = CryptoFileSystemProperties.cryptoFileSystemProperties().withKeyLoader(id -> key.copy()).build();
        CryptoFileSystemProvider.initialize(vault, props, URI.create("test:key"));
        try (FileSystem fs = CryptoFileSystemProvider.newFileSystem(vault, props)) {
            try (Mount m = ours.forFileSystem(fs.getPath("/")).setMountpoint(mnt).setMountFlags(ours.getDefaultMountFlags()).mount()) {
                Files.writeString(mnt.resolve("hello.txt"), "written through " + ours.displayName());
            }
            String back = Files.readString(fs.getPath("/hello.txt"));
            if (!back.equals("written through " + ours.displayName())) throw new AssertionError(back);
            System.out.println("outside app: " + ours.displayName() + " found by MountService.get() ("
                    + (Main.class.getModule().isNamed() ? "module path" : "class path") + "), mounted, read back: " + back);
        }
    }
}
