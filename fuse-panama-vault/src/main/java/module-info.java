/**
 * fuse-panama-vault: a gocryptfs-compatible encrypted vault mounted through fuse-panama
 * ({@link dev.fusepanama.vault.Vault}), and the format's ciphers and configuration file
 * ({@code dev.fusepanama.vault.crypto}).
 */
module dev.fusepanama.vault {
    requires transitive dev.fusepanama;
    requires dev.fusepanama.libc;
    requires org.slf4j;
    // scrypt and HKDF.
    requires org.bouncycastle.provider;
    // gocryptfs.conf.
    requires com.google.gson;

    exports dev.fusepanama.vault;
    exports dev.fusepanama.vault.crypto;
}
