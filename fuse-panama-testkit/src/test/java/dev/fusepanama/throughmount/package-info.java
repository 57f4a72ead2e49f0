/**
 * The core's tests through real mounts. They live here, in the test kit's test sources, because
 * they mount with the kit's {@code TestMount}, and the kit is built after the core; the core's own
 * tests ({@code fuse-panama-core/src/test}) are the unit tests that need no mount. Every class
 * here is a {@code @MountTest} (JUnit tag {@code mount}): it needs {@code /dev/fuse} and mostly
 * root. Run them with {@code mvn test -pl fuse-panama-testkit -am}; one with
 * {@code -Dtest=LifecycleTest -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>Which core feature each class checks:
 * <ul>
 *   <li>{@code LifecycleTest}: {@code Fuse.mount}, {@code Mount.close}, {@code forceClose}, a JVM
 *       that exits mounted, several mounts in one JVM (internal.mount);</li>
 *   <li>{@code OperationsThroughMountTest}: every path-API operation reaching its method
 *       ({@code FuseFileSystem}, internal.dispatch's {@code Upcalls});</li>
 *   <li>{@code ExceptionsThroughMountTest}: exceptions to errno ({@code ErrorMapper});</li>
 *   <li>{@code ForwardingThroughMountTest}: the registered operations of a decorator
 *       ({@code ForwardingFileSystem}, {@code Operation});</li>
 *   <li>{@code NamesThroughMountTest}: file names as bytes (internal.codec);</li>
 *   <li>{@code SemanticsThroughMountTest}: {@code PathOptions} (caching, hard_remove), the request
 *       context, init;</li>
 *   <li>{@code CacheConsistencyThroughMountTest}: {@code MountOptions.Builder.autoInvalData};</li>
 *   <li>{@code KernelSettingsThroughMountTest}: each {@code KernelSettings} setting, in the requests the
 *       kernel sends;</li>
 *   <li>{@code InvalidateThroughMountTest}: {@code FuseMount.invalidate};</li>
 *   <li>{@code BufferedIoThroughMountTest}: read_buf and write_buf;</li>
 *   <li>{@code PassthroughThroughMountTest}: kernel passthrough on the path API
 *       ({@code FileInfo.setPassthrough});</li>
 *   <li>{@code IoUringThroughMountTest}: FUSE-over-io_uring on both APIs
 *       ({@code MountOptions.Builder.ioUring});</li>
 *   <li>{@code LibfuseAdditionsThroughMountTest}: what libfuse 3.17 and 3.18 added (tmpfile, the
 *       epoch notification, the request timeout) and the refusals on older releases;</li>
 *   <li>{@code ViewCheckThroughMountTest}: the {@code fusepanama.checkViews} debug mode
 *       (internal.view);</li>
 *   <li>{@code HelloInodeTest}: the smallest inode filesystem ({@code InodeFileSystem});</li>
 *   <li>{@code InodeRepliesThroughMountTest}: each inode request answered exactly once (the
 *       {@code Reply} classes, internal.inode);</li>
 *   <li>{@code InodeNotificationsThroughMountTest}: the inode mount's notifications
 *       ({@code InodeMount});</li>
 *   <li>{@code InodeOpenFlagsThroughMountTest}: an open's reply flags ({@code OpenReply});</li>
 *   <li>{@code InodeFileControlThroughMountTest}: ioctl, poll, write_buf and bmap on the inode API;</li>
 *   <li>{@code InodePassthroughThroughMountTest}: kernel passthrough on the inode API.</li>
 * </ul>
 * {@code ClientIoctl} makes ioctl(2) as a client (natively or, under qemu, from python3); the
 * filesystems several classes mount are in {@code dev.fusepanama.testing}.
 */
package dev.fusepanama.throughmount;
