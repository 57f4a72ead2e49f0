/**
 * Changes made behind a filesystem's back: {@link dev.fusepanama.watch.SourceWatcher} watches
 * the directory tree an inode filesystem serves from (a mirror's source, a vault's cipher
 * directory) and reports which names and files other programs changed there, so that the
 * filesystem can tell the kernel to drop what it cached of them and let it cache the rest.
 */
package dev.fusepanama.watch;
