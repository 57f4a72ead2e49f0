package dev.fusepanama;

/** Collects the names {@link FuseFileSystem#listxattr} reports. */
public interface XattrNames {
    /**
     * Adds one attribute name, e.g. "user.comment".
     *
     * @param name the attribute's full name, namespace included
     */
    void add(String name);
}
