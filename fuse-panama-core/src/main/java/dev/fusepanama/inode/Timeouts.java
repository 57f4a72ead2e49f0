package dev.fusepanama.inode;

/**
 * How long the kernel may trust what a reply tells it: an inode's attributes, and a name's
 * entry (that the name leads to that inode). Made once per filesystem, usually a constant, and
 * handed to every reply that carries them:
 * <pre>{@code
 * static final Timeouts CACHE = Timeouts.NONE.withAttributes(1).withEntries(1);
 * ...
 * reply.entry(node, CACHE);
 * }</pre>
 * Zero means "ask again next time": right whenever files may change behind the kernel's back
 * without the filesystem telling it ({@link InodeMount#invalidateInode}).
 */
public final class Timeouts {
    /** Nothing cached: every stat and every path walk asks the filesystem. */
    public static final Timeouts NONE = new Timeouts(0, 0);

    private final double attributes;
    private final double entries;

    private Timeouts(double attributes, double entries) {
        this.attributes = check(attributes, "attributes");
        this.entries = check(entries, "entries");
    }

    private static double check(double seconds, String what) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a timeout for " + what + " is a finite number of seconds >= 0, not " + seconds);
        }
        return seconds;
    }

    /**
     * These timeouts with the attributes trusted for {@code seconds}.
     *
     * @param seconds how long, finite and at least 0; fractions allowed
     * @return new timeouts (this object is immutable)
     * @throws IllegalArgumentException if {@code seconds} is negative, infinite or NaN
     */
    public Timeouts withAttributes(double seconds) {
        return new Timeouts(seconds, entries);
    }

    /**
     * These timeouts with names (entries) trusted for {@code seconds}.
     *
     * @param seconds how long, finite and at least 0; fractions allowed
     * @return new timeouts (this object is immutable)
     * @throws IllegalArgumentException if {@code seconds} is negative, infinite or NaN
     */
    public Timeouts withEntries(double seconds) {
        return new Timeouts(attributes, seconds);
    }

    /**
     * Seconds the kernel may trust an inode's attributes.
     *
     * @return the attribute timeout in seconds
     */
    public double attributes() {
        return attributes;
    }

    /**
     * Seconds the kernel may trust a name's entry.
     *
     * @return the entry timeout in seconds
     */
    public double entries() {
        return entries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Timeouts t && Double.compare(t.attributes, attributes) == 0 && Double.compare(t.entries, entries) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(attributes) * 31 + Double.hashCode(entries);
    }

    @Override
    public String toString() {
        return "Timeouts[attributes=" + attributes + "s, entries=" + entries + "s]";
    }
}
