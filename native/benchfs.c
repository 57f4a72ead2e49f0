/*
 * The bench tree filesystem in C: the reference the Java bindings are compared with. One source,
 * built against libfuse 3 (FUSE_USE_VERSION 31) and libfuse 2 (26), see native/build-bench.sh.
 *
 *   /            dir 0755: small, big, data.bin, w
 *   /small       8 files file-0 .. file-7, 4096 bytes each
 *   /big         10,000 files file-00000 .. file-09999, 4096 bytes each
 *   /data.bin    536,870,912 bytes
 *   /w           writable scratch dir 0777: create, write (data discarded, size kept),
 *                getattr, truncate, unlink, rename, utimens
 * Every file byte at offset o is o % 251. Kernel caching is off (attr/entry/negative timeouts 0).
 * Usage: benchfs3 [--no-auto-inval-data] MOUNTPOINT
 *        (foreground; ends on fusermount3 -u or SIGTERM). The flag (libfuse 3 only) turns off the
 *        capability libfuse 3 wants by default and libfuse 2 never asked for, to show its cost.
 */
#ifndef FUSE_USE_VERSION
#define FUSE_USE_VERSION 31
#endif
#define _FILE_OFFSET_BITS 64
#include <fuse.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_SIZE 4096
#define DATA_SIZE 536870912LL
#define BIG_COUNT 10000
#define SMALL_COUNT 8
#define MAX_SCRATCH 4096
#define PATTERN_SIZE ((1 << 20) + 251)

static char pattern[PATTERN_SIZE];

struct scratch { char name[256]; long long size; int used; };
static struct scratch scratch[MAX_SCRATCH];
static pthread_mutex_t scratch_lock = PTHREAD_MUTEX_INITIALIZER;

static struct scratch *find_scratch(const char *name) {
    for (int i = 0; i < MAX_SCRATCH; i++)
        if (scratch[i].used && strcmp(scratch[i].name, name) == 0) return &scratch[i];
    return NULL;
}

/* 1: a file of /small or /big; 0: not one */
static int tree_file(const char *path) {
    if (strncmp(path, "/small/file-", 12) == 0) {
        char *end; long i = strtol(path + 12, &end, 10);
        return *end == 0 && end - (path + 12) == 1 && i >= 0 && i < SMALL_COUNT;
    }
    if (strncmp(path, "/big/file-", 10) == 0) {
        char *end; long i = strtol(path + 10, &end, 10);
        return *end == 0 && end - (path + 10) == 5 && i >= 0 && i < BIG_COUNT;
    }
    return 0;
}

static void fill_dir_stat(struct stat *st, mode_t mode) { memset(st, 0, sizeof *st); st->st_mode = S_IFDIR | mode; st->st_nlink = 2; }
static void fill_file_stat(struct stat *st, off_t size) { memset(st, 0, sizeof *st); st->st_mode = S_IFREG | 0444; st->st_nlink = 1; st->st_size = size; }

static int do_getattr(const char *path, struct stat *st) {
    if (strcmp(path, "/") == 0 || strcmp(path, "/small") == 0 || strcmp(path, "/big") == 0) { fill_dir_stat(st, 0755); return 0; }
    if (strcmp(path, "/w") == 0) { fill_dir_stat(st, 0777); return 0; }
    if (strcmp(path, "/data.bin") == 0) { fill_file_stat(st, DATA_SIZE); return 0; }
    if (tree_file(path)) { fill_file_stat(st, FILE_SIZE); return 0; }
    if (strncmp(path, "/w/", 3) == 0) {
        pthread_mutex_lock(&scratch_lock);
        struct scratch *s = find_scratch(path + 3);
        int rc = -ENOENT;
        if (s) { fill_file_stat(st, s->size); st->st_mode = S_IFREG | 0644; rc = 0; }
        pthread_mutex_unlock(&scratch_lock);
        return rc;
    }
    return -ENOENT;
}

static int do_open(const char *path, struct fuse_file_info *fi) {
    (void) fi;
    if (strcmp(path, "/data.bin") == 0 || tree_file(path)) return 0;
    if (strncmp(path, "/w/", 3) == 0) {
        pthread_mutex_lock(&scratch_lock);
        struct scratch *s = find_scratch(path + 3);
        if (s && (fi->flags & O_TRUNC)) s->size = 0;
        pthread_mutex_unlock(&scratch_lock);
        return s ? 0 : -ENOENT;
    }
    return -ENOENT;
}

static int do_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) fi;
    long long total = strcmp(path, "/data.bin") == 0 ? DATA_SIZE : tree_file(path) ? FILE_SIZE : -1;
    if (total < 0) {
        if (strncmp(path, "/w/", 3) == 0) return 0; /* scratch data is discarded */
        return -ENOENT;
    }
    if (off >= total) return 0;
    if ((long long) (off + size) > total) size = total - off;
    size_t done = 0;
    while (done < size) {
        size_t n = size - done < (1 << 20) ? size - done : (1 << 20);
        memcpy(buf + done, pattern + (off + done) % 251, n);
        done += n;
    }
    return (int) size;
}

static int do_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void) mode; (void) fi;
    if (strncmp(path, "/w/", 3) != 0 || strchr(path + 3, '/') || strlen(path + 3) > 255) return -EACCES;
    pthread_mutex_lock(&scratch_lock);
    int rc = -ENOSPC;
    struct scratch *s = find_scratch(path + 3);
    if (s) { s->size = 0; rc = 0; }
    for (int i = 0; !s && i < MAX_SCRATCH; i++)
        if (!scratch[i].used) { scratch[i].used = 1; strcpy(scratch[i].name, path + 3); scratch[i].size = 0; rc = 0; break; }
    pthread_mutex_unlock(&scratch_lock);
    return rc;
}

static int do_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) buf; (void) fi;
    if (strncmp(path, "/w/", 3) != 0) return -EACCES;
    pthread_mutex_lock(&scratch_lock);
    struct scratch *s = find_scratch(path + 3);
    if (s && off + (long long) size > s->size) s->size = off + size;
    pthread_mutex_unlock(&scratch_lock);
    return s ? (int) size : -ENOENT;
}

static int do_truncate(const char *path, off_t size) {
    if (strncmp(path, "/w/", 3) != 0) return -EACCES;
    pthread_mutex_lock(&scratch_lock);
    struct scratch *s = find_scratch(path + 3);
    if (s) s->size = size;
    pthread_mutex_unlock(&scratch_lock);
    return s ? 0 : -ENOENT;
}

static int do_unlink(const char *path) {
    if (strncmp(path, "/w/", 3) != 0) return -EACCES;
    pthread_mutex_lock(&scratch_lock);
    struct scratch *s = find_scratch(path + 3);
    if (s) s->used = 0;
    pthread_mutex_unlock(&scratch_lock);
    return s ? 0 : -ENOENT;
}

static int do_rename(const char *from, const char *to) {
    if (strncmp(from, "/w/", 3) != 0 || strncmp(to, "/w/", 3) != 0 || strchr(to + 3, '/')) return -EACCES;
    pthread_mutex_lock(&scratch_lock);
    struct scratch *s = find_scratch(from + 3);
    if (s) {
        struct scratch *old = find_scratch(to + 3);
        if (old && old != s) old->used = 0;
        strcpy(s->name, to + 3);
    }
    pthread_mutex_unlock(&scratch_lock);
    return s ? 0 : -ENOENT;
}

static int list(const char *path, void *buf, int (*add)(void *, const char *)) {
    char name[32];
    add(buf, "."); add(buf, "..");
    if (strcmp(path, "/") == 0) {
        add(buf, "small"); add(buf, "big"); add(buf, "data.bin"); add(buf, "w");
    } else if (strcmp(path, "/small") == 0) {
        for (int i = 0; i < SMALL_COUNT; i++) { snprintf(name, sizeof name, "file-%d", i); add(buf, name); }
    } else if (strcmp(path, "/big") == 0) {
        for (int i = 0; i < BIG_COUNT; i++) { snprintf(name, sizeof name, "file-%05d", i); add(buf, name); }
    } else if (strcmp(path, "/w") == 0) {
        pthread_mutex_lock(&scratch_lock);
        for (int i = 0; i < MAX_SCRATCH; i++) if (scratch[i].used) add(buf, scratch[i].name);
        pthread_mutex_unlock(&scratch_lock);
    } else {
        return -ENOENT;
    }
    return 0;
}

#if FUSE_USE_VERSION >= 30
static __thread fuse_fill_dir_t thread_filler;
static int add3(void *buf, const char *name) { return thread_filler(buf, name, NULL, 0, 0); }
static int op_getattr(const char *p, struct stat *st, struct fuse_file_info *fi) { (void) fi; return do_getattr(p, st); }
static int op_readdir(const char *p, void *buf, fuse_fill_dir_t f, off_t off, struct fuse_file_info *fi, enum fuse_readdir_flags fl) {
    (void) off; (void) fi; (void) fl; thread_filler = f; return list(p, buf, add3);
}
static int op_truncate(const char *p, off_t s, struct fuse_file_info *fi) { (void) fi; return do_truncate(p, s); }
static int op_rename(const char *a, const char *b, unsigned int flags) { return flags ? -EINVAL : do_rename(a, b); }
static int op_utimens(const char *p, const struct timespec tv[2], struct fuse_file_info *fi) { (void) tv; (void) fi; struct stat st; return do_getattr(p, &st); }
static int no_auto_inval_data;
static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    cfg->attr_timeout = 0; cfg->entry_timeout = 0; cfg->negative_timeout = 0;
    if (no_auto_inval_data) conn->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
    return NULL;
}
#else
static __thread fuse_fill_dir_t thread_filler;
static int add2(void *buf, const char *name) { return thread_filler(buf, name, NULL, 0); }
static int op_getattr(const char *p, struct stat *st) { return do_getattr(p, st); }
static int op_readdir(const char *p, void *buf, fuse_fill_dir_t f, off_t off, struct fuse_file_info *fi) {
    (void) off; (void) fi; thread_filler = f; return list(p, buf, add2);
}
static int op_truncate(const char *p, off_t s) { return do_truncate(p, s); }
static int op_rename(const char *a, const char *b) { return do_rename(a, b); }
static int op_utimens(const char *p, const struct timespec tv[2]) { (void) tv; struct stat st; return do_getattr(p, &st); }
#endif

static struct fuse_operations ops = {
    .getattr = op_getattr, .readdir = op_readdir, .open = do_open, .read = do_read, .create = do_create,
    .write = do_write, .truncate = op_truncate, .unlink = do_unlink, .rename = op_rename, .utimens = op_utimens,
#if FUSE_USE_VERSION >= 30
    .init = op_init,
#endif
};

int main(int argc, char *argv[]) {
    int i = 1;
    char *options = "attr_timeout=0,entry_timeout=0,negative_timeout=0,fsname=benchfs";
    for (; i < argc - 1; i++) {
#if FUSE_USE_VERSION >= 30
        if (!strcmp(argv[i], "--no-auto-inval-data")) { no_auto_inval_data = 1; continue; }
        /* libfuse 3.18+: requests over io_uring where the fuse module's enable_uring is on. */
        if (!strcmp(argv[i], "--io-uring")) { options = "attr_timeout=0,entry_timeout=0,negative_timeout=0,fsname=benchfs,io_uring"; continue; }
#endif
        break;
    }
    if (i != argc - 1) { fprintf(stderr, "usage: %s [--no-auto-inval-data] [--io-uring] MOUNTPOINT\n", argv[0]); return 2; }
    for (int k = 0; k < PATTERN_SIZE; k++) pattern[k] = (char) (k % 251);
    char *args[] = {argv[0], "-f", "-o", options, argv[i], NULL};
    return fuse_main(5, args, &ops, NULL);
}
