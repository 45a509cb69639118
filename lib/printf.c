/* SPDX-License-Identifier: GPL-2.0-only */
/* Bounded formatted output; see printf.h. */
#include <stdint.h>
#include "lib/printf.h"
#include "lib/string.h"

struct out {
	char *buf;
	size_t size;
	size_t len;	/* bytes the full output would take */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_run(struct out *o, const char *s, size_t n)
{
	if (o->len + 1 < o->size) {
		size_t room = o->size - 1 - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void put_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8 };

static void put_number(struct out *o, uint64_t v, int neg, unsigned base,
		       int upper, int flags, int width, int prec, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, plen = prefix ? (int)strlen(prefix) : 0;
	char sign = 0;

	if (neg)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	int zeros = prec > n ? prec - n : 0;
	int total = n + zeros + (sign ? 1 : 0) + plen;

	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && width > total) {
		zeros += width - total;
		total = width;
	}
	if (!(flags & F_LEFT))
		put_repeat(o, ' ', width - total);
	if (sign)
		put(o, sign);
	for (int i = 0; i < plen; i++)
		put(o, prefix[i]);
	put_repeat(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		put_repeat(o, ' ', width - total);
}

int rl_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	while (*fmt) {
		if (*fmt != '%') {
			/* a literal run in one copy: most of a log line's text
			 * comes from here, and per-character stores are what
			 * an emulated ring 0 pays for */
			const char *e = fmt + 1;

			while (*e && *e != '%')
				e++;
			put_run(&o, fmt, (size_t)(e - fmt));
			fmt = e;
			continue;
		}
		fmt++;
		int flags = 0, width = 0, prec = -1, lng = 0;

		for (;; fmt++) {
			if (*fmt == '-')
				flags |= F_LEFT;
			else if (*fmt == '0')
				flags |= F_ZERO;
			else if (*fmt == '+')
				flags |= F_PLUS;
			else if (*fmt == ' ')
				flags |= F_SPACE;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		/* lng: -2 hh, -1 h, 0 int, 1 long, 2 long long / size_t */
		if (*fmt == 'h') {
			lng = -1;
			if (*++fmt == 'h') {
				lng = -2;
				fmt++;
			}
		} else if (*fmt == 'l') {
			lng = 1;
			if (*++fmt == 'l') {
				lng = 2;
				fmt++;
			}
		} else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
			lng = 2;
			fmt++;
		}
		char c = *fmt;

		if (!c)
			break;
		fmt++;
		switch (c) {
		case 'd':
		case 'i': {
			int64_t v;

			if (lng >= 1)
				v = lng == 1 ? va_arg(ap, long) : va_arg(ap, long long);
			else
				v = va_arg(ap, int);
			if (lng == -1)
				v = (short)v;
			else if (lng == -2)
				v = (signed char)v;
			uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

			put_number(&o, u, v < 0, 10, 0, flags, width, prec, NULL);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v;

			if (lng >= 1)
				v = lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned long long);
			else
				v = va_arg(ap, unsigned int);
			if (lng == -1)
				v = (unsigned short)v;
			else if (lng == -2)
				v = (unsigned char)v;
			unsigned base = c == 'u' ? 10 : c == 'o' ? 8 : 16;

			put_number(&o, v, 0, base, c == 'X', flags & ~(F_PLUS | F_SPACE),
				   width, prec, NULL);
			break;
		}
		case 'p':
			put_number(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), 0, 16, 0,
				   0, 0, 16, "0x");
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			int len = (int)(prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s));

			if (!(flags & F_LEFT))
				put_repeat(&o, ' ', width - len);
			put_run(&o, s, (size_t)len);
			if (flags & F_LEFT)
				put_repeat(&o, ' ', width - len);
			break;
		}
		case 'c':
			if (!(flags & F_LEFT))
				put_repeat(&o, ' ', width - 1);
			put(&o, (char)va_arg(ap, int));
			if (flags & F_LEFT)
				put_repeat(&o, ' ', width - 1);
			break;
		case '%':
			put(&o, '%');
			break;
		default:
			/* Unknown conversion: print it verbatim so the bug shows. */
			put(&o, '%');
			put(&o, c);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int rl_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = rl_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
