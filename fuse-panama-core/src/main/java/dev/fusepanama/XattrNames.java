package dev.fusepanama;

/** Collects the names {@link FuseFileSystem#listxattr} reports. */
public interface XattrNames {
    /** Adds one attribute name, e.g. "user.comment". */
    void add(String name);
}
