/**
 * The vault's cryptography and on-disk format, compatible with gocryptfs 2 (format version 2,
 * the default options of {@code gocryptfs -init}): a directory that this package and gocryptfs
 * can each mount, read and write. Pure Java; no I/O beyond the two small files it owns
 * ({@code gocryptfs.conf}, {@code gocryptfs.diriv}).
 *
 * <h2>The ciphertext tree</h2>
 * The encrypted directory mirrors the plaintext one: one ciphertext entry per plaintext entry,
 * same type, same permissions and times; only names, file contents and symlink targets are
 * encrypted. Sizes, the tree's shape, and which files are hard links are visible to anyone who
 * can see the encrypted directory.
 * <ul>
 *   <li>{@code gocryptfs.conf} (root only, {@link dev.fusepanama.vault.crypto.VaultConfig}):
 *       the master key, encrypted under the password (scrypt, then HKDF, then AES-GCM).</li>
 *   <li>{@code gocryptfs.diriv} in every directory ({@link dev.fusepanama.vault.crypto.DirIv}):
 *       16 random bytes, the tweak for the names in that directory.</li>
 *   <li>Names ({@link dev.fusepanama.vault.crypto.NameCipher}): EME over AES-256 of the
 *       PKCS#7-padded name, in unpadded URL-safe base64. Encrypted names longer than 255
 *       characters are stored as {@code gocryptfs.longname.HASH} beside a
 *       {@code gocryptfs.longname.HASH.name} file holding the full encrypted name.</li>
 *   <li>File contents ({@link dev.fusepanama.vault.crypto.ContentCipher}): an 18-byte
 *       header with a random file ID, then 4096-byte blocks each stored as nonce, AES-256-GCM
 *       ciphertext and tag (4128 bytes), bound to their block number and file ID. An all-zero
 *       stored block is a hole. Symlink targets are one such block, unbound, in base64.</li>
 * </ul>
 *
 * <h2>Keys</h2>
 * {@link dev.fusepanama.vault.crypto.VaultConfig#unlock} turns the password into the
 * {@link dev.fusepanama.vault.crypto.MasterKey}; HKDF-SHA256 derives from it one key
 * for contents and symlinks and one for names. Closing the master key wipes what this package
 * holds; its class comment lists what the JDK keeps beyond that.
 *
 * <h2>Using it from a file system</h2>
 * <pre>{@code
 * MasterKey key = VaultConfig.read(cipherDir.resolve(VaultConfig.FILE_NAME)).unlock(password);
 * byte[] iv = DirIv.read(cipherDir);                                  // per directory, cacheable
 * byte[] entry = key.names().diskName(key.names().encrypt(name, iv)); // lookup, create
 * byte[] id = ContentCipher.parseHeader(first18Bytes);                 // once per open file
 * int n = key.content().decryptBlocks(stored, 0, len, firstBlock, id, plain, 0); // read
 * }</pre>
 * A read of plaintext bytes {@code [off, off+len)} reads the stored blocks
 * {@code blockNo(off)..blockNo(off+len-1)} from {@code cipherOffset(first)}; a write re-encrypts
 * whole blocks (read-modify-write for partial ones) and writes the header first if the file was
 * empty. Sizes convert with {@code ContentCipher.plainSize} and {@code cipherSize}.
 *
 * <h2>Errors and threads</h2>
 * Ciphertext that fails authentication or cannot be gocryptfs's throws
 * {@link dev.fusepanama.vault.crypto.CorruptDataException}, a name that does not decrypt
 * {@link dev.fusepanama.vault.crypto.InvalidNameException} (both {@code IOException}s:
 * {@code EIO} for a file system, and a hidden entry in a listing, as gocryptfs does), a wrong
 * password {@link dev.fusepanama.vault.crypto.WrongPasswordException}. Programming
 * errors (a wrong key, IV or ID length, a block too long) are {@code IllegalArgumentException}s.
 * All ciphers are thread-safe and keep one JDK {@code Cipher} per thread.
 */
package dev.fusepanama.vault.crypto;
