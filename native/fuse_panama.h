/*
 * The one header jextract reads and the layout probe compiles: it fixes the API level and
 * the off_t width that the Java bindings were written against.
 *
 * FUSE_USE_VERSION 312: the 3.12 API (fuse_loop_cfg_*, unsigned ioctl cmd). Libraries from
 * 3.10 on are accepted at run time; the loader picks older symbols where 3.12's are absent.
 */
#ifndef FUSE_PANAMA_H
#define FUSE_PANAMA_H

#define FUSE_USE_VERSION 312
#define _FILE_OFFSET_BITS 64
#define _GNU_SOURCE

#include <fuse.h>
#include <fuse_lowlevel.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#endif
