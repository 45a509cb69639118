/* SPDX-License-Identifier: GPL-2.0-only */
/* Freestanding string and memory helpers; see string.h. */
#include "lib/string.h"
#include <stdint.h>

#if !__STDC_HOSTED__
/* REP STOS/MOVS: fast on ERMS parts, and written in asm so that the
 * compiler cannot turn a byte loop back into a call to memset itself.
 * Aligned whole quadwords (pages, tables, most structures) go eight bytes
 * per iteration: the same stores on hardware, but a hypervisor that
 * emulates ring 0 runs one iteration at a time (REP STOSB was 1 MB/s
 * there, and every zeroed page of a case cost milliseconds).  The 32-bit
 * build (tests/qemu/mbforge) has no STOSQ and keeps the byte forms. */
#define QWORD_ALIGNED(a, b, n)	(!(((uintptr_t)(a) | (uintptr_t)(b) | (n)) & 7))

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

#ifdef __x86_64__
	if (QWORD_ALIGNED(dst, 0, n)) {
		uint64_t v = 0x0101010101010101ull * (uint8_t)c;
		size_t q = n / 8;

		__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
		return dst;
	}
#endif
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

#ifdef __x86_64__
	if (QWORD_ALIGNED(dst, src, n)) {
		size_t q = n / 8;

		__asm__ volatile("rep movsq" : "+D"(d), "+S"(src), "+c"(q) : : "memory");
		return dst;
	}
#endif
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
#endif

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

int str_eq_n(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);

	return wl == n && memcmp(s, w, n) == 0;
}
