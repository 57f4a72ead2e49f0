package dev.fusepanama.internal.inode;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.inode.InodeMount;

/** What a {@link dev.fusepanama.inode.Request} tells about the mount it came through: its session implements it. */
public interface RequestScope {
    /** The mount's atime rule now (follows remounts). */
    AccessTimes accessTimes();

    /** The mount serving the request. */
    InodeMount mount();
}
