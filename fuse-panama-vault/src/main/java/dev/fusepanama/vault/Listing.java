package dev.fusepanama.vault;

import java.util.List;

/**
 * A directory's entries as read at opendir, decrypted: an entry's offset is its index plus one,
 * so a listing resumed at any offset continues exactly where it stopped however the directory
 * changes meanwhile (POSIX leaves entries added or removed during a listing unspecified).
 */
record Listing(List<Entry> entries) {
    /** One entry: its plaintext name, its name in the cipher directory, the ciphertext inode and d_type. */
    record Entry(byte[] plain, byte[] stored, long backingIno, int type) {}
}
