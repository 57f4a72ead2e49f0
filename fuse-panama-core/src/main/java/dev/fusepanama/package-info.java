/**
 * Write a Linux filesystem in Java: implement {@link dev.fusepanama.FuseFileSystem}, call
 * {@link dev.fusepanama.Fuse#mount}, and every program on the machine can use it like any other
 * directory. fuse-panama calls the system's libfuse3 through the Foreign Function &amp; Memory API:
 * no JNI, no generated C, nothing compiled at run time.
 *
 * <h2>How FUSE works</h2>
 * A program calls {@code open("/mnt/x/file")}; the kernel's VFS finds that {@code /mnt/x} is a
 * FUSE mount and, instead of asking a disk driver, writes a request into {@code /dev/fuse}.
 * libfuse, running in your JVM, reads it, resolves the inode number to a path, and calls the
 * matching method of your filesystem on one of its worker threads. Your answer travels back the
 * same way, and the program's {@code open} returns. Every request is one such round trip (some
 * 20 µs of kernel and libfuse work on a typical machine), so what the kernel caches matters.
 *
 * <h2>Paths, inodes and file handles</h2>
 * This is libfuse's <em>high-level</em> API: operations name files by path ("/dir/file"), and
 * libfuse keeps the inode numbers the kernel uses. Operations on open files also get a
 * {@link dev.fusepanama.FileInfo}, whose {@code fh} is yours to set in {@code open},
 * {@code create} or {@code opendir} and read back in {@code read}, {@code write},
 * {@code release}...: use it to find the open file without looking the path up again. A file
 * unlinked while open keeps its handle; with the {@code hardRemove} option its path is then
 * {@code null}, so a filesystem that supports that must work from the handle.
 *
 * <h2>What the kernel caches, and for how long</h2>
 * <ul>
 *   <li><b>names</b> (dentries): a successful lookup is trusted for {@code entryTimeout} seconds,
 *       a failed one for {@code negativeEntries};</li>
 *   <li><b>attributes</b>: a getattr answer is trusted for {@code attrTimeout} seconds;</li>
 *   <li><b>file data</b> (page cache): dropped on each open unless {@code keepCache} or
 *       {@code autoCache} is set, or {@link dev.fusepanama.FileInfo#setKeepCache} is called;
 *       while a file stays open, its cached data is trusted unless {@code autoInvalData} is set
 *       (libfuse 3 sets it by default, fuse-panama does not: see
 *       {@link dev.fusepanama.KernelSettings.Builder#autoInvalData}).</li>
 * </ul>
 * These are {@link dev.fusepanama.KernelSettings}, which the filesystem states
 * ({@link dev.fusepanama.FuseFileSystem#kernelSettings}). libfuse's defaults are one second for names and
 * attributes. If only programs going through the
 * mount change files, longer timeouts save round trips. If files change behind the kernel's back
 * (a sync client, a view of a database), either use 0, or keep the caches and call
 * {@link dev.fusepanama.FuseMount#invalidate} for each path that changed: its cached attributes
 * and data are dropped at once.
 *
 * <h2>Errors</h2>
 * Return {@code -Errno.ENOENT} (any negative {@link dev.fusepanama.Errno}) or throw: an
 * {@link dev.fusepanama.ErrnoException} carries its errno, {@code NoSuchFileException} becomes
 * ENOENT, {@code FileAlreadyExistsException} EEXIST, {@code DirectoryNotEmptyException}
 * ENOTEMPTY, {@code AccessDeniedException} EACCES, {@code NotDirectoryException} ENOTDIR, and
 * anything else EIO. Unexpected exceptions are logged through SLF4J (once per burst per
 * operation); none can crash the JVM or hang the caller.
 *
 * <h2>Conventions, in both APIs</h2>
 * <ul>
 *   <li><b>An errno is a positive constant</b> of {@link dev.fusepanama.Errno}, wherever one is
 *       passed as such: {@code Reply.error(Errno.ENOENT)}, {@code new ErrnoException(Errno.ENOENT)},
 *       {@link dev.fusepanama.Errno#name}. Where an {@code int} result carries either a value or a
 *       failure (a path method's return, a {@link dev.fusepanama.libc.Libc} call), the failure is
 *       the errno negated, {@code -Errno.ENOENT}, as in libfuse and the kernel.</li>
 *   <li><b>A batch's {@code add} returns true when the batch is full</b>: the entry was not
 *       added, stop and answer with what is in it ({@link dev.fusepanama.DirFiller#add},
 *       {@code DirReply.add}), as libfuse's filler and
 *       {@code fuse_add_direntry} do.</li>
 *   <li><b>Views are the call's</b>: {@link dev.fusepanama.Stat}, {@link dev.fusepanama.FileInfo},
 *       names, fillers and the buffers of read and write look into libfuse's memory for this
 *       request and are pointed at the next request's once the method returns; copy what you
 *       keep. An inode reply's own views ({@code attributes()}, {@code statvfs()}) are the
 *       reply's, and move with it when it is deferred. To find a view kept by mistake, mount with
 *       the system property {@code fusepanama.checkViews=true} (or the environment variable
 *       {@code FUSE_PANAMA_CHECK_VIEWS=1}): each view then throws once its call has returned.</li>
 *   <li><b>Cache times are values</b>: the path API's are settings of the filesystem
 *       ({@link dev.fusepanama.KernelSettings}), the inode API's a {@code Timeouts} per answer,
 *       usually one constant per filesystem; an inode answer names its file by an {@code Inode}
 *       (its node id and generation), never by two loose numbers.</li>
 *   <li><b>Each mount has what works for it</b>: {@link dev.fusepanama.Fuse#mount} returns a
 *       {@link dev.fusepanama.FuseMount} for a path filesystem (invalidation by path) and an
 *       {@code InodeMount} for an inode filesystem (invalidation by inode and name, store,
 *       retrieve); both are a {@link dev.fusepanama.Mount}.</li>
 * </ul>
 *
 * <h2>Only what you implement</h2>
 * Methods you do not override are not registered, and libfuse answers them itself: without
 * {@code lock} and {@code flock} the kernel keeps locks locally, without {@code access} it uses
 * the modes, and so on. There is nothing to list besides the methods themselves. A decorator
 * (counting, logging, checking) extends {@link dev.fusepanama.ForwardingFileSystem} or
 * {@code ForwardingInodeFileSystem}, which forward every method: what is registered is then
 * what the wrapped filesystem implements, whatever the decorator overrides.
 *
 * <h2>Threads and memory</h2>
 * Requests arrive concurrently on up to {@code maxThreads} libfuse threads (libfuse 3.12+; 3.10
 * and 3.11 start as many as requests need), or on one with {@code singleThreaded}; synchronise
 * your state. The views handed to a method
 * ({@link dev.fusepanama.Stat}, buffers, fillers) point into libfuse's memory and are reused for
 * the next request on that thread: never keep them. {@link dev.fusepanama.FuseContext#current()}
 * tells which process is asking.
 *
 * <h2>Names are bytes</h2>
 * Linux file names are byte strings. Valid UTF-8 arrives as the string you would expect; other
 * bytes arrive escaped (see {@link dev.fusepanama.FileNames}) and are restored exactly when the
 * string is handed back, so every name survives create, list, rename and delete. The kernel
 * passes names of up to 1024 bytes to FUSE; a filesystem that keeps the usual Linux limit of 255
 * ({@code NAME_MAX}) answers longer ones with {@code -ENAMETOOLONG} itself.
 *
 * <h2>Example</h2>
 * <pre>{@code
 * FuseFileSystem hello = new FuseFileSystem() {
 *     final byte[] text = "hello\n".getBytes(StandardCharsets.UTF_8);
 *     public int getattr(String path, Stat st, FileInfo fi) {
 *         if (path.equals("/")) { st.setMode(Posix.S_IFDIR | 0755).setNlink(2); return 0; }
 *         if (!path.equals("/hello")) return -Errno.ENOENT;
 *         st.setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(text.length);
 *         return 0;
 *     }
 *     public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
 *         filler.add("."); filler.add(".."); filler.add("hello");
 *         return 0;
 *     }
 *     public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
 *         if (offset >= text.length) return 0;
 *         int n = (int) Math.min(buf.remaining(), text.length - offset);
 *         buf.put(text, (int) offset, n);
 *         return n;
 *     }
 * };
 * try (FuseMount mount = Fuse.mount(hello, Path.of("/tmp/hello"))) {
 *     System.out.println(Files.readString(Path.of("/tmp/hello/hello")));
 * }
 * }</pre>
 *
 * <h2>Running</h2>
 * Needs JDK 22+, libfuse 3.10+ ({@code apt-get install fuse3}) and {@code /dev/fuse}; grant the
 * modules native access ({@code --enable-native-access=dev.fusepanama,dev.fusepanama.libc}, or
 * ALL-UNNAMED on the class path). libfuse is found by its soname, {@code libfuse3.so.4} (3.17 and later) before
 * {@code libfuse3.so.3}, or as the file or soname the system property {@code fusepanama.libfuse}
 * or the environment variable {@code FUSE_PANAMA_LIBFUSE} names. The struct layouts and entry points
 * follow the release loaded ({@link Fuse#libfuseVersion()} says which), because libfuse moved
 * fields between releases.
 */
package dev.fusepanama;
