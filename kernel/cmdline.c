/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line parser; see cmdline.h. */
#include <stdarg.h>
#include "kernel/cmdline.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/uart.h"
#include "kernel/fbcon.h"
#include "lib/parse.h"
#include "lib/printf.h"
#include "lib/string.h"

const char cmdline_valid_options[] =
	"console= tests= skip= quick verbose nosmp novga nofb list iters= seed= cpus= "
	"timeout= ap_timeout= exit= apic= simulate= smpboot= fbscale= acpi_rsdp=";

/* simulate= values, in the order the canonical form lists them. */
static const struct {
	const char *name;
	uint32_t bit;
} sim_names[] = {
	{ "x2apic-nostick", SIM_X2APIC_NOSTICK }, { "ap-nostart", SIM_AP_NOSTART },
	{ "ap-alias", SIM_AP_ALIAS }, { "ap-late", SIM_AP_LATE },
};
#define NSIM (sizeof(sim_names) / sizeof(sim_names[0]))

static void error(struct options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void error(struct options *o, const char *fmt, ...)
{
	va_list ap;

	if (o->nerrors >= CMDLINE_MAX_ERRORS) {
		o->nerrors_dropped++;
		return;
	}
	va_start(ap, fmt);
	rl_vsnprintf(o->errors[o->nerrors++], CMDLINE_ERROR_LEN, fmt, ap);
	va_end(ap);
}

/* Printable, bounded echo of user text inside an error message. */
static const char *echo(struct slice s, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < s.n && n + 1 < size; i++) {
		char c = s.p[i];

		buf[n++] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	buf[n] = '\0';
	return buf;
}

static bool parse_number(struct options *o, const char *key, struct slice v,
			 uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t x;
	char e[64];

	if (!parse_u64(v, &x) || x < lo || x > hi) {
		error(o, "cmdline: %s'%s' is not valid: expected a number %llu..%llu",
		      key, echo(v, e, sizeof(e)), (unsigned long long)lo,
		      (unsigned long long)hi);
		return false;
	}
	*out = x;
	return true;
}

static void parse_console(struct options *o, struct slice v)
{
	struct slice dev, baud_s;
	uint64_t port = 0, baud = UART_BASE_BAUD;
	char e[64];
	static const uint16_t com[4] = { UART_COM1, UART_COM2, UART_COM3, UART_COM4 };

	slice_split(v, ',', &dev, &baud_s);
	if (dev.n == 5 && memcmp(dev.p, "ttyS", 4) == 0 && dev.p[4] >= '0' && dev.p[4] <= '3') {
		port = com[dev.p[4] - '0'];
	} else if (dev.n > 3 && memcmp(dev.p, "io:", 3) == 0) {
		if (!parse_u64(slice_of(dev.p + 3, dev.n - 3), &port) || port < 0x100 ||
		    port > 0xfff8) {
			error(o, "cmdline: console=%s: bad I/O port (expected io:0x100..0xfff8)",
			      echo(v, e, sizeof(e)));
			return;
		}
	} else {
		error(o, "cmdline: console=%s: valid devices are ttyS0, ttyS1, ttyS2, ttyS3, io:0xNNN",
		      echo(v, e, sizeof(e)));
		return;
	}
	if (baud_s.n) {
		if (!parse_u64(baud_s, &baud) || baud == 0 || baud > UART_BASE_BAUD ||
		    UART_BASE_BAUD % baud) {
			error(o, "cmdline: console=%s: baud must divide 115200 (e.g. 115200, 57600, 38400, 19200, 9600)",
			      echo(v, e, sizeof(e)));
			return;
		}
	}
	/* A port named twice is one console (a loader or LAVA helper that
	 * adds console=ttyS0 to a user's own would otherwise print every line
	 * twice on it); named twice with two speeds, it is an error. */
	for (unsigned i = 0; i < o->nconsoles; i++) {
		if (o->consoles[i].port != port)
			continue;
		if (o->consoles[i].baud != baud)
			error(o, "cmdline: console=%s: this port is already a console at %u baud",
			      echo(v, e, sizeof(e)), (unsigned)o->consoles[i].baud);
		return;
	}
	if (o->nconsoles >= CONSOLE_MAX_UARTS) {
		error(o, "cmdline: console=%s: at most %d consoles", echo(v, e, sizeof(e)),
		      CONSOLE_MAX_UARTS);
		return;
	}
	o->consoles[o->nconsoles++] = (struct console_spec){ (uint16_t)port, (uint32_t)baud };
}

static void append_list(struct options *o, char *dst, const char *key, struct slice v)
{
	size_t have = strlen(dst);
	char e[64];

	/* every name in the list is one: no empty list, no ",," */
	for (size_t i = 0; i <= v.n; i++) {
		bool end = i == v.n || v.p[i] == ',';
		bool empty_before = i == 0 || v.p[i - 1] == ',';

		if (end && empty_before) {
			error(o, "cmdline: %s%s: an empty name (the list is names separated by single commas)",
			      key, echo(v, e, sizeof(e)));
			return;
		}
	}
	for (size_t i = 0; i < v.n; i++) {
		char c = v.p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '.' || c == ',' || c == '-')) {
			error(o, "cmdline: %s%s: names may contain only a-z 0-9 _ - . and ','",
			      key, echo(v, e, sizeof(e)));
			return;
		}
	}
	if (have + (have && v.n ? 1 : 0) + v.n + 1 > CMDLINE_LIST_MAX) {
		/* Keep the whole names that fit, so that an over-long tests=
		 * never turns into "run everything"; the error (a config
		 * error for the run) names the limit and the first name lost. */
		size_t room = CMDLINE_LIST_MAX - 1 - have - (have ? 1 : 0), keep = 0;

		if (have + (have ? 1 : 0) < CMDLINE_LIST_MAX - 1) {
			for (size_t i = 0; i <= v.n && i <= room; i++)
				if (i == v.n || v.p[i] == ',')
					keep = i;
		}
		struct slice lost = slice_of(v.p + keep + (keep < v.n && v.p[keep] == ','),
					     v.n - keep - (keep < v.n && v.p[keep] == ','));

		error(o, "cmdline: %s list longer than %d characters (CMDLINE_LIST_MAX - 1); names from '%s' on were dropped",
		      key, CMDLINE_LIST_MAX - 1, echo(lost, e, 24));
		if (!keep)
			return;
		v.n = keep;
	}
	if (have && v.n)
		dst[have++] = ',';
	memcpy(dst + have, v.p, v.n);
	dst[have + v.n] = '\0';
}

static bool looks_like_path(struct slice t)
{
	if (t.n && t.p[0] == '/')
		return true;
	for (size_t i = 0; i + 4 <= t.n; i++)
		if (memcmp(t.p + i, ".elf", 4) == 0)
			return true;
	return false;
}

void cmdline_note_truncated(struct options *o, size_t limit)
{
	error(o, "cmdline: command line longer than %zu bytes (the limit): the option at the cut was cut and every option after it is lost",
	      limit);
}

unsigned cmdline_parse(const char *text, size_t n, struct options *o)
{
	struct slice rest = slice_of(text, strnlen(text, n)), tok;
	bool first = true;
	char e[64];

	memset(o, 0, sizeof(*o));
	while (slice_next(&rest, " \t\r\n", &tok)) {
		struct slice key, val;
		bool has_val = slice_split(tok, '=', &key, &val);
		uint64_t x;

		if (first && !has_val && looks_like_path(tok)) {
			first = false;
			continue;
		}
		first = false;
#define FLAG(name, field) \
		if (slice_eq(key, name)) { \
			if (has_val) \
				error(o, "cmdline: '%s' takes no value", name); \
			else \
				o->field = true; \
			continue; \
		}
		FLAG("quick", quick)
		FLAG("verbose", verbose)
		FLAG("nosmp", nosmp)
		FLAG("novga", novga)
		FLAG("nofb", nofb)
		FLAG("list", list)
#undef FLAG
		if (!has_val) {
			static const char *const valued[] = {
				"console", "tests", "skip", "iters", "seed", "cpus",
				"timeout", "ap_timeout", "exit", "apic", "simulate", "smpboot", "fbscale",
				"acpi_rsdp",
			};
			bool known = false;

			for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
				if (slice_eq(key, valued[i]))
					known = true;
			if (known)
				error(o, "cmdline: '%s' needs a value (%s=...)",
				      echo(key, e, sizeof(e)), e);
			else
				error(o, "cmdline: unknown option '%s' (valid: %s)",
				      echo(tok, e, sizeof(e)), cmdline_valid_options);
			continue;
		}
		if (slice_eq(key, "console")) {
			parse_console(o, val);
		} else if (slice_eq(key, "tests")) {
			o->tests_given = true;
			append_list(o, o->tests, "tests=", val);
		} else if (slice_eq(key, "skip")) {
			o->skip_given = true;
			append_list(o, o->skip, "skip=", val);
		} else if (slice_eq(key, "iters")) {
			if (parse_number(o, "iters=", val, 1, 1000000000ull, &x))
				o->iters = x;
		} else if (slice_eq(key, "seed")) {
			if (parse_number(o, "seed=", val, 0, UINT64_MAX, &x)) {
				o->seed = x;
				o->seed_set = true;
			}
		} else if (slice_eq(key, "cpus")) {
			if (parse_number(o, "cpus=", val, 1, 1u << 20, &x))
				o->cpus = (uint32_t)x;
		} else if (slice_eq(key, "timeout")) {
			if (parse_number(o, "timeout=", val, 1, 86400, &x))
				o->timeout_s = (uint32_t)x;
		} else if (slice_eq(key, "ap_timeout")) {
			if (parse_number(o, "ap_timeout=", val, 1, 60000, &x))
				o->ap_timeout_ms = (uint32_t)x;
		} else if (slice_eq(key, "exit")) {
			if (slice_eq(val, "qemu"))
				o->exit_mode = EXIT_QEMU;
			else if (slice_eq(val, "halt"))
				o->exit_mode = EXIT_HALT;
			else if (slice_eq(val, "reboot"))
				o->exit_mode = EXIT_REBOOT;
			else
				error(o, "cmdline: exit=%s: valid values are qemu, halt, reboot",
				      echo(val, e, sizeof(e)));
		} else if (slice_eq(key, "apic")) {
			if (slice_eq(val, "auto"))
				o->apic = APIC_AUTO;
			else if (slice_eq(val, "xapic"))
				o->apic = APIC_XAPIC;
			else if (slice_eq(val, "x2apic"))
				o->apic = APIC_X2APIC;
			else
				error(o, "cmdline: apic=%s: valid values are auto, xapic, x2apic",
				      echo(val, e, sizeof(e)));
		} else if (slice_eq(key, "simulate")) {
			struct slice r = val, item;

			while (slice_next(&r, ",", &item)) {
				unsigned k = 0;

				while (k < NSIM && !slice_eq(item, sim_names[k].name))
					k++;
				if (k < NSIM) {
					o->simulate |= sim_names[k].bit;
				} else if (item.n > 7 && !strncmp(item.p, "cpuid:", 6) &&
					   (item.p[6] == '+' || item.p[6] == '-')) {
					struct slice name = { item.p + 7, item.n - 7 };
					unsigned f = 0;

					while (f < cpu_nfeatures && !slice_eq(name, cpu_features[f].name))
						f++;
					if (f == cpu_nfeatures)
						error(o, "cmdline: simulate=%s: unknown CPU feature; valid: the names of the cpu.features line (rtm, invpcid, clzero, ...)",
						      echo(item, e, sizeof(e)));
					else if (o->nsim_cpuid >= CMDLINE_MAX_SIM_CPUID)
						error(o, "cmdline: simulate=%s: at most %u cpuid: items",
						      echo(item, e, sizeof(e)), CMDLINE_MAX_SIM_CPUID);
					else {
						o->sim_cpuid[o->nsim_cpuid].feature = (uint8_t)f;
						o->sim_cpuid[o->nsim_cpuid++].on = item.p[6] == '+';
					}
				} else {
					error(o, "cmdline: simulate=%s: valid values are x2apic-nostick, ap-nostart, ap-alias, ap-late, cpuid:+NAME, cpuid:-NAME",
					      echo(item, e, sizeof(e)));
				}
			}
		} else if (slice_eq(key, "smpboot")) {
			if (slice_eq(val, "parallel"))
				o->smpboot = SMPBOOT_PARALLEL;
			else if (slice_eq(val, "serial"))
				o->smpboot = SMPBOOT_SERIAL;
			else
				error(o, "cmdline: smpboot=%s: valid values are parallel, serial",
				      echo(val, e, sizeof(e)));
		} else if (slice_eq(key, "fbscale")) {
			/* the screen console's text scale (kernel/fbcon.h) */
			if (slice_eq(val, "auto"))
				o->fbscale = 0;
			else if (parse_u64(val, &x) && x >= 1 && x <= FBCON_SCALE_MAX)
				o->fbscale = (uint8_t)x;
			else
				error(o, "cmdline: fbscale=%s: valid values are auto and 1 to %u",
				      echo(val, e, sizeof(e)), FBCON_SCALE_MAX);
		} else if (slice_eq(key, "acpi_rsdp")) {
			/* A physical address: MAXPHYADDR is at most 52 (SDM
			 * vol. 3A §4.1.4); 0 would mean "not given". */
			if (parse_u64(val, &x) && x && x < (1ull << 52))
				o->acpi_rsdp = x;
			else
				error(o, "cmdline: acpi_rsdp=%s: expected a physical address 0x1..0xfffffffffffff (hex with 0x, or decimal)",
				      echo(val, e, sizeof(e)));
		} else {
			error(o, "cmdline: unknown option '%s' (valid: %s)",
			      echo(tok, e, sizeof(e)), cmdline_valid_options);
		}
	}
	return o->nerrors + o->nerrors_dropped;
}

int cmdline_format(const struct options *o, char *buf, size_t size)
{
	size_t len = 0;
	char tmp[8];

#define ADD(...) do { \
		int k_ = rl_snprintf(len < size ? buf + len : tmp, \
				     len < size ? size - len : sizeof(tmp), __VA_ARGS__); \
		len += (size_t)k_; \
	} while (0)
	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < o->nconsoles; i++)
		ADD("%sconsole=io:0x%x,%u", len ? " " : "", o->consoles[i].port,
		    o->consoles[i].baud);
	if (o->tests[0])
		ADD("%stests=%s", len ? " " : "", o->tests);
	if (o->skip[0])
		ADD("%sskip=%s", len ? " " : "", o->skip);
	if (o->quick)
		ADD("%squick", len ? " " : "");
	if (o->list)
		ADD("%slist", len ? " " : "");
	if (o->verbose)
		ADD("%sverbose", len ? " " : "");
	if (o->nosmp)
		ADD("%snosmp", len ? " " : "");
	if (o->novga)
		ADD("%snovga", len ? " " : "");
	if (o->nofb)
		ADD("%snofb", len ? " " : "");
	if (o->iters)
		ADD("%siters=%llu", len ? " " : "", (unsigned long long)o->iters);
	if (o->seed_set)
		ADD("%sseed=%llu", len ? " " : "", (unsigned long long)o->seed);
	if (o->cpus)
		ADD("%scpus=%u", len ? " " : "", o->cpus);
	if (o->timeout_s)
		ADD("%stimeout=%u", len ? " " : "", o->timeout_s);
	if (o->ap_timeout_ms)
		ADD("%sap_timeout=%u", len ? " " : "", o->ap_timeout_ms);
	if (o->exit_mode != EXIT_DEFAULT)
		ADD("%sexit=%s", len ? " " : "",
		    o->exit_mode == EXIT_QEMU ? "qemu" : o->exit_mode == EXIT_HALT ? "halt" : "reboot");
	if (o->apic != APIC_AUTO)
		ADD("%sapic=%s", len ? " " : "", o->apic == APIC_XAPIC ? "xapic" : "x2apic");
	for (unsigned k = 0, first = 1; k < NSIM; k++) {
		if (!(o->simulate & sim_names[k].bit))
			continue;
		ADD("%s%s", first ? (len ? " simulate=" : "simulate=") : ",", sim_names[k].name);
		first = 0;
	}
	for (unsigned k = 0; k < o->nsim_cpuid; k++)
		ADD("%scpuid:%c%s", (k == 0 && !o->simulate) ? (len ? " simulate=" : "simulate=") : ",",
		    o->sim_cpuid[k].on ? '+' : '-', cpu_features[o->sim_cpuid[k].feature].name);
	if (o->smpboot == SMPBOOT_SERIAL)
		ADD("%ssmpboot=serial", len ? " " : "");
	if (o->fbscale)
		ADD("%sfbscale=%u", len ? " " : "", o->fbscale);
	if (o->acpi_rsdp)
		ADD("%sacpi_rsdp=0x%llx", len ? " " : "", (unsigned long long)o->acpi_rsdp);
#undef ADD
	return (int)len;
}

static bool sim_cpuid_equal(const struct options *a, const struct options *b)
{
	for (unsigned k = 0; k < a->nsim_cpuid && k < CMDLINE_MAX_SIM_CPUID; k++)
		if (a->sim_cpuid[k].feature != b->sim_cpuid[k].feature ||
		    a->sim_cpuid[k].on != b->sim_cpuid[k].on)
			return false;
	return true;
}

bool options_equal(const struct options *a, const struct options *b)
{
	if (a->nconsoles != b->nconsoles)
		return false;
	for (unsigned i = 0; i < a->nconsoles; i++)
		if (a->consoles[i].port != b->consoles[i].port ||
		    a->consoles[i].baud != b->consoles[i].baud)
			return false;
	return strcmp(a->tests, b->tests) == 0 && strcmp(a->skip, b->skip) == 0 &&
	       a->quick == b->quick && a->verbose == b->verbose && a->nosmp == b->nosmp &&
	       a->novga == b->novga && a->nofb == b->nofb && a->list == b->list && a->iters == b->iters && a->seed == b->seed &&
	       a->seed_set == b->seed_set && a->cpus == b->cpus &&
	       a->timeout_s == b->timeout_s && a->ap_timeout_ms == b->ap_timeout_ms &&
	       a->exit_mode == b->exit_mode && a->apic == b->apic &&
	       a->simulate == b->simulate && a->smpboot == b->smpboot && a->fbscale == b->fbscale &&
	       a->acpi_rsdp == b->acpi_rsdp &&
	       a->nsim_cpuid == b->nsim_cpuid && sim_cpuid_equal(a, b);
}
