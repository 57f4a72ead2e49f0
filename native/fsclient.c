/*
 * A client that repeats one filesystem operation N times in DIR and prints the time per
 * operation, so that filesystems can be compared (and their system calls counted) without a
 * JVM on the client side.
 *
 * Usage: fsclient [--cpu C] [--uncached] OP DIR N [NAME]   (NAME replaces "file" or "data" below)
 *   --cpu C     run on CPU C only, so that where the scheduler puts the client between requests
 *               (and, over io_uring, which CPU's queue serves it) is not part of the measurement
 *   --uncached  before the clock starts, drop the page cache the kernel holds for the file the
 *               read operations read (posix_fadvise DONTNEED), so every read reaches the
 *               filesystem whatever earlier runs left cached
 *   stat      lstat DIR/file
 *   create    open(O_CREAT) DIR/c-I, write 4 KiB, close, unlink
 *   read4k    pread 4 KiB at random aligned offsets of DIR/data
 *   seqread   pread 1 MiB after 1 MiB through DIR/data, wrapping at its end
 *   direct128 the same in 128 KiB reads with O_DIRECT
 *   direct4k  read4k with O_DIRECT: every read one request, the latency of one round trip
 *   seqwrite  pwrite 1 MiB after 1 MiB to DIR/out (truncated every 256 MiB)
 *   rewrite   the same into DIR/kept, which is created once and kept: the pages are the file's
 *             already, so no run pays for allocating (and first touching) memory
 *   mkdir     mkdir DIR/d, rmdir DIR/d
 *   rename    rename DIR/file to DIR/file2 and back (counts 2)
 *   list      opendir DIR, read every entry, closedir
 * Prints: OP N NANOS_PER_OP
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what, const char *path) { perror(path ? path : what); exit(1); }

int main(int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "--cpu")) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(atoi(argv[2]), &set);
        if (sched_setaffinity(0, sizeof set, &set)) die("sched_setaffinity", argv[2]);
        argc -= 2;
        argv += 2;
    }
    int uncached = argc > 1 && !strcmp(argv[1], "--uncached");
    argc -= uncached;
    argv += uncached;
    if (argc != 4 && argc != 5) { fprintf(stderr, "usage: fsclient [--cpu C] [--uncached] OP DIR N [NAME]\n"); return 2; }
    const char *op = argv[1], *dir = argv[2], *name = argc == 5 ? argv[4] : NULL;
    long n = atol(argv[3]);
    char a[4096], b[4096];
    static char buf[1 << 20] __attribute__((aligned(4096)));
    memset(buf, 'x', sizeof buf);
    if (uncached) {
        snprintf(a, sizeof a, "%s/%s", dir, name ? name : "data");
        int fd = open(a, O_RDONLY);
        if (fd < 0) die("open", a);
        int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        if (rc) { errno = rc; die("posix_fadvise", a); }
        close(fd);
    }
    long long start = now();
    if (!strcmp(op, "stat")) {
        snprintf(a, sizeof a, "%s/%s", dir, name ? name : "file");
        struct stat st;
        for (long i = 0; i < n; i++) if (lstat(a, &st)) die("lstat", a);
    } else if (!strcmp(op, "create")) {
        for (long i = 0; i < n; i++) {
            snprintf(a, sizeof a, "%s/c-%ld", dir, i);
            int fd = open(a, O_CREAT | O_WRONLY | O_TRUNC, 0644);
            if (fd < 0) die("open", a);
            if (write(fd, buf, 4096) != 4096) die("write", a);
            if (close(fd)) die("close", a);
            if (unlink(a)) die("unlink", a);
        }
    } else if (!strcmp(op, "read4k") || !strcmp(op, "seqread") || !strcmp(op, "direct128") || !strcmp(op, "direct4k")) {
        int random = op[0] == 'r' || !strcmp(op, "direct4k");
        snprintf(a, sizeof a, "%s/%s", dir, name ? name : "data");
        int fd = open(a, O_RDONLY | (op[0] == 'd' ? O_DIRECT : 0));
        if (fd < 0) die("open", a);
        struct stat st;
        fstat(fd, &st);
        long long blocks = st.st_size / 4096, chunks = st.st_size >> 20, pos = 0;
        srand(4711);
        for (long i = 0; i < n; i++) {
            if (random) {
                if (pread(fd, buf, 4096, (long long) (rand() % blocks) * 4096) != 4096) die("pread", a);
            } else if (op[0] == 'd') {
                if (pread(fd, buf, 128 << 10, pos << 17) != 128 << 10) die("pread", a);
                pos = (pos + 1) % (chunks * 8);
            } else {
                if (pread(fd, buf, 1 << 20, pos << 20) != 1 << 20) die("pread", a);
                pos = (pos + 1) % chunks;
            }
        }
        close(fd);
    } else if (!strcmp(op, "seqwrite") || !strcmp(op, "rewrite")) {
        int keep = op[0] == 'r';
        snprintf(a, sizeof a, "%s/%s", dir, keep ? "kept" : "out");
        int fd = open(a, O_CREAT | O_WRONLY | (keep ? 0 : O_TRUNC), 0644);
        if (fd < 0) die("open", a);
        for (long i = 0; i < n; i++) {
            if (pwrite(fd, buf, 1 << 20, (i % 256) << 20) != 1 << 20) die("pwrite", a);
        }
        close(fd);
        if (!keep) unlink(a);
    } else if (!strcmp(op, "mkdir")) {
        snprintf(a, sizeof a, "%s/d", dir);
        for (long i = 0; i < n; i++) if (mkdir(a, 0755) || rmdir(a)) die("mkdir", a);
    } else if (!strcmp(op, "rename")) {
        snprintf(a, sizeof a, "%s/file", dir);
        snprintf(b, sizeof b, "%s/file2", dir);
        for (long i = 0; i < n; i++) if (rename(a, b) || rename(b, a)) die("rename", a);
        n *= 2;
    } else if (!strcmp(op, "list")) {
        for (long i = 0; i < n; i++) {
            DIR *d = opendir(dir);
            if (!d) die("opendir", dir);
            while (readdir(d)) {}
            closedir(d);
        }
    } else {
        fprintf(stderr, "unknown operation %s\n", op);
        return 2;
    }
    printf("%s %ld %.0f\n", op, n, (double) (now() - start) / n);
    return 0;
}
