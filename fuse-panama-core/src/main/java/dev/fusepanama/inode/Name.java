package dev.fusepanama.inode;

/**
 * A name as the kernel sent it: bytes, not necessarily UTF-8, never containing NUL (a file name
 * also never contains '/'; an extended attribute name may). A view of the request's memory,
 * valid only during the call that receives it (the object is reused for the thread's next
 * request): keep {@link #bytes()} or {@link #toString()}, not the name.
 */
public interface Name {
    /**
     * The length in bytes.
     *
     * @return the number of bytes, without a terminating NUL
     */
    int length();

    /**
     * One byte of the name.
     *
     * @param index the byte's index, from 0 to {@link #length()} - 1
     * @return the byte at {@code index}
     * @throws IndexOutOfBoundsException if {@code index} is outside the name
     */
    byte byteAt(int index);

    /**
     * A copy of the bytes.
     *
     * @return a new array, the caller's to keep
     */
    byte[] bytes();

    /**
     * Whether the name is exactly {@code bytes}; allocates nothing.
     *
     * @param bytes the name to compare with
     * @return true if the lengths and every byte are equal
     */
    boolean is(byte[] bytes);

    /**
     * The name as a String, bytes that are not UTF-8 escaped as {@link dev.fusepanama.FileNames} does.
     *
     * @return the decoded name, a new String the caller may keep
     */
    @Override
    String toString();
}
