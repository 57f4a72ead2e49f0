/**
 * The C library's structs that the calls of {@link dev.fusepanama.libc.Libc} fill and FUSE
 * passes along ({@code struct stat}, {@code statx}, {@code statvfs}, {@code flock},
 * {@code timespec}), in jextract's style: one class per struct, its {@code LAYOUT} (chosen per
 * architecture where it differs, see {@link dev.fusepanama.libc.Arch}) and static accessors that
 * take the struct's address. The core's layout test compares every size and offset with the C
 * compiler's.
 */
package dev.fusepanama.libc.structs;
