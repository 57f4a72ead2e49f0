package dev.fusepanama;

/** Where {@link FuseFileSystem#readlink} writes the link's target. */
public interface LinkTarget {
    /**
     * Sets the target; truncated to libfuse's buffer if longer, as readlink(2) does.
     *
     * @param target the link's target, as the link stores it (not resolved)
     */
    void set(String target);
}
