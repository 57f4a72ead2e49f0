package dev.fusepanama;

import java.io.IOException;

/**
 * A live mount of a {@link FuseFileSystem} (the path API), with the notification that names a
 * file by its path.
 */
public interface FuseMount extends Mount {
    /**
     * Tells the kernel that the file or directory at {@code path} changed behind its back: its
     * cached attributes and data are dropped, and the next access asks the filesystem again
     * ({@code fuse_invalidate_path}). With caching on (attribute timeouts, {@code kernelCache}),
     * this is how a filesystem whose backing store changes underneath keeps what programs see
     * current. Cached names are kept: a file replaced under the same name needs no more than
     * this, one that appeared or disappeared is seen when its name's {@code entryTimeout} ends.
     *
     * <p>Call it from any thread of the application, but not from inside one of this mount's
     * filesystem methods, and never while holding a lock that a filesystem method may need: the
     * kernel drops the file's cached pages, and waits for reads and writes in flight on them to
     * be answered first. A call stuck there also holds off {@link Mount#close()}.
     *
     * @param path a path in the mount, "/" first, as the filesystem's methods receive it
     * @return false if the kernel holds nothing for the path (never looked up, or forgotten): there was
     *         nothing to invalidate
     * @throws java.io.IOException if the kernel refused the notification (its errno in the message)
     * @throws IllegalStateException if the mount has ended, or when called from inside one of its methods
     */
    boolean invalidate(String path) throws IOException;
}
