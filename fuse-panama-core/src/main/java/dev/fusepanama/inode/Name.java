package dev.fusepanama.inode;

/**
 * A name as the kernel sent it: bytes, not necessarily UTF-8, never containing NUL (a file name
 * also never contains '/'; an extended attribute name may). A view of the request's memory,
 * valid only during the call that receives it (the object is reused for the thread's next
 * request): keep {@link #bytes()} or {@link #toString()}, not the name.
 */
public interface Name {
    /** The length in bytes. */
    int length();

    byte byteAt(int index);

    /** A copy of the bytes. */
    byte[] bytes();

    /** Whether the name is exactly {@code bytes}; allocates nothing. */
    boolean is(byte[] bytes);

    /** The name as a String, bytes that are not UTF-8 escaped as {@link dev.fusepanama.FileNames} does. */
    @Override
    String toString();
}
