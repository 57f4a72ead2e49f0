/**
 * fuse-panama-cryptomator (AGPL-3.0, as the {@code integrations-api} it implements): a mount
 * provider the Cryptomator desktop application, or any program that finds mount providers the
 * way it does, loads with {@code ServiceLoader}
 * ({@link dev.fusepanama.cryptomator.FusePanamaMountService}).
 */
module dev.fusepanama.cryptomator {
    requires dev.fusepanama.nio;
    // Transitive: FusePanamaMountService, the exported class, is a MountService and hands out its
    // MountBuilder; a module that uses it by name needs to read the API it implements.
    requires transitive org.cryptomator.integrations.api;
    requires org.slf4j;
    requires static org.cryptomator.cryptofs;
    requires static jdk.unsupported;

    exports dev.fusepanama.cryptomator;

    provides org.cryptomator.integrations.mount.MountService with dev.fusepanama.cryptomator.FusePanamaMountService;
}
