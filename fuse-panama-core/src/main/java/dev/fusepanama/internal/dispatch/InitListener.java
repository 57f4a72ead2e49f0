package dev.fusepanama.internal.dispatch;

import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;

/**
 * What a mount needs to know about init, which runs on a libfuse thread before the first
 * request, for either API: the mount applies its settings to the connection first, then the
 * filesystem's own init runs, then the mount learns whether it failed.
 */
public interface InitListener {
    /**
     * Before the filesystem's init: apply the mount's settings.
     *
     * @param config the high-level API's {@code struct fuse_config}; null on the inode API, which has none
     */
    void configure(NativeConnectionInfo connection, NativeFuseConfig config);

    /** After it: {@code failure} is what it threw, or null. */
    void initialized(Throwable failure);

    /** The filesystem's own init. */
    interface FilesystemInit {
        void run(NativeConnectionInfo connection, NativeFuseConfig config) throws Throwable;
    }

    /**
     * Runs init for {@code listener}: {@link #configure}, then {@code filesystem}'s, then
     * {@link #initialized} with what either threw; nothing escapes.
     */
    static void run(InitListener listener, NativeConnectionInfo connection, NativeFuseConfig config, FilesystemInit filesystem) {
        Throwable failure = null;
        try {
            listener.configure(connection, config);
            filesystem.run(connection, config);
        } catch (Throwable e) {
            failure = e;
        }
        listener.initialized(failure);
    }
}
