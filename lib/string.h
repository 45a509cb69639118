/* SPDX-License-Identifier: GPL-2.0-only */
/* Freestanding string and memory helpers.
 *
 * The kernel is built -ffreestanding and gets these from lib/string.c; the
 * host builds (unit tests, the hosted runner) use the C library's versions,
 * which have the same names and contracts. */
#ifndef RINGLAB_LIB_STRING_H
#define RINGLAB_LIB_STRING_H

#include <stddef.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
#endif

/* Copy at most size-1 bytes and always terminate (when size > 0).
 * Returns strlen(src), so truncation is detectable as ret >= size. */
size_t str_copy(char *dst, const char *src, size_t size);

/* True when the n bytes at s equal the NUL-terminated word w. */
int str_eq_n(const char *s, size_t n, const char *w);

#endif
