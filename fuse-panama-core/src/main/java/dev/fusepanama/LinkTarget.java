package dev.fusepanama;

/** Where {@link FuseFileSystem#readlink} writes the link's target. */
public interface LinkTarget {
    /** The target; truncated to libfuse's buffer if longer, as readlink(2) does. */
    void set(String target);
}
