/**
 * A mount's life for either API: {@code MountSession} checks the mountpoint ({@code Preflight}),
 * mounts, runs the session loop on a thread of its own and tears it down, and unmounts
 * ({@code Unmount}, {@code ConnectionAbort}); {@code KernelFeatures} finds what the kernel and
 * libfuse offer the mount (io_uring, passthrough, readahead). The sessions of the two APIs
 * extend it in {@code internal.path} and {@code internal.inode}.
 */
package dev.fusepanama.internal.mount;
