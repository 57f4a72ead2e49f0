package dev.fusepanama;

/**
 * Adds entries to a directory listing ({@code fuse_fill_dir_t}). Every {@code add} returns
 * {@code true} when the kernel's buffer is full: stop then, the entry was not added.
 *
 * <p>Two modes, as in libfuse; do not mix them within one listing:
 * <ul>
 *   <li>offset 0: return every entry in one call; libfuse buffers and pages them.</li>
 *   <li>offsets: give each entry the non-zero offset of the entry after it; the next call's
 *       {@code offset} is the one of the last entry accepted. Only this mode lets the kernel use
 *       the attributes given with {@link #add(String, long, Stat)} (readdirplus).</li>
 * </ul>
 * Prefer offsets for large directories: entries then go straight into the kernel's reply buffer,
 * while in mode 0 libfuse 3 first collects the whole listing in memory of its own (measured in the
 * bench module: about half the CPU for a 10,000-entry listing). A directory whose listing fits one
 * reply (a few dozen entries) is cheaper in mode 0: libfuse then answers the kernel's request for
 * the end of the listing without calling {@code readdir} a second time.
 */
public interface DirFiller {
    /** In {@code flags} of {@link FuseFileSystem#readdir}: the kernel asked for attributes too. */
    int READDIR_PLUS = 1;

    /**
     * Adds {@code name} with no attributes, offset mode 0.
     *
     * @param name the entry's name, without '/'
     * @return true if the buffer is full and the entry was not added
     */
    default boolean add(String name) { return add(name, 0L); }

    /**
     * Adds {@code name}; {@code nextOffset} is the offset of the following entry, or 0. A name
     * longer than the scratch buffer (4095 bytes encoded) is skipped with a warning, and false returned.
     *
     * @param name the entry's name, without '/'
     * @param nextOffset the offset of the entry after this one (offset mode), or 0 (mode 0)
     * @return true if the buffer is full and the entry was not added
     */
    boolean add(String name, long nextOffset);

    /**
     * Adds {@code name} with attributes (for readdirplus); {@code attributes} usually comes from {@link #attributes()}.
     *
     * @param name the entry's name, without '/'
     * @param nextOffset the offset of the entry after this one (offset mode), or 0 (mode 0)
     * @param attributes the entry's attributes, from {@link #attributes()}; null adds the name alone
     * @return true if the buffer is full and the entry was not added
     * @throws IllegalArgumentException if {@code attributes} did not come from {@link #attributes()}
     */
    boolean add(String name, long nextOffset, Stat attributes);

    /**
     * A cleared stat to fill for the next {@link #add(String, long, Stat)}; reused, so fill it per entry.
     *
     * @return the filler's own stat, cleared by this call
     */
    Stat attributes();
}
