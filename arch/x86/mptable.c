/* SPDX-License-Identifier: GPL-2.0-only */
/* MP specification 1.4 parser; see mptable.h.  Section numbers are the
 * Intel MultiProcessor Specification version 1.4 (May 1997). */
#include "arch/x86/mptable.h"

#include <stdarg.h>

#include "arch/x86/acpi.h"
#include "lib/physmem.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/bytes.h"

/* §4.1 MP Floating Pointer Structure */
#define MPF_SIGNATURE		"_MP_"
#define MPF_SIZE		16
#define MPF_PHYSPTR		4
#define MPF_LENGTH		8	/* in 16-byte paragraphs: 1 */
#define MPF_SPEC_REV		9
#define MPF_FEATURE1		11	/* default configuration type, 0 = table */
/* §4.2 MP Configuration Table Header */
#define MPC_SIGNATURE		"PCMP"
#define MPC_HEADER_LEN		44
#define MPC_LENGTH		4	/* u16: base table length, header included */
#define MPC_ENTRY_COUNT		34
#define MPC_LAPIC		36
/* §4.3 entries; processors are 20 bytes, every other base entry 8. */
#define MP_PROCESSOR		0
#define MP_BUS			1
#define MP_IOAPIC		2
#define MP_INTSRC		3
#define MP_LINTSRC		4
#define MP_PROCESSOR_LEN	20
#define MP_OTHER_LEN		8
#define CPU_ENABLED		(1u << 0)	/* §4.3.1 CPU flags EN */
#define CPU_BOOTPROCESSOR	(1u << 1)	/* BP */
#define MPC_APIC_USABLE		(1u << 0)	/* §4.3.3 I/O APIC flags EN */
/* §4 search areas */
#define BDA_EBDA_SEG		0x40E
#define BDA_BASE_MEM_KB		0x413
#define MP_ROM_BASE		0xF0000
#define MP_ROM_SIZE		0x10000
#define MP_SEARCH_KB		1024
#define MP_DEFAULT_APIC		0xFEE00000u	/* §5.1 */
/* Ours: a base table claiming more than this is corrupt (it is a few KiB
 * even with hundreds of CPUs). */
#define MPC_MAX_LEN		0x10000u

static void mp_err(struct mp_info *mp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mp_err(struct mp_info *mp, const char *fmt, ...)
{
	va_list ap;

	if (mp->nerrors >= MP_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	rl_vsnprintf(mp->errors[mp->nerrors++], MP_ERROR_LEN, fmt, ap);
	va_end(ap);
}

/* §4: the floating pointer is on a 16-byte boundary; its checksum covers
 * LENGTH paragraphs. */
static const uint8_t *scan(struct mp_info *mp, uint64_t base, uint64_t size, const char *where)
{
	for (uint64_t pa = base; pa + MPF_SIZE <= base + size; pa += 16) {
		const uint8_t *p = phys_view(pa, MPF_SIZE);

		if (!p || memcmp(p, MPF_SIGNATURE, 4))
			continue;
		if (p[MPF_LENGTH] != 1 || byte_sum(p, MPF_SIZE)) {
			mp_err(mp, "mptable: floating pointer in %s at 0x%llx: length %u or checksum bad, skipped",
			       where, (unsigned long long)pa, p[MPF_LENGTH]);
			continue;
		}
		mp->fps_phys = pa;
		mp->fps_where = where;
		return p;
	}
	return NULL;
}

static const uint8_t *find_fps(struct mp_info *mp)
{
	const uint8_t *w = phys_view(BDA_EBDA_SEG, 2), *p = NULL;
	uint32_t ebda = w ? le16(w) << 4 : 0;

	/* §4: the first KiB of the EBDA; or, without one, the last KiB of
	 * base memory; then the BIOS ROM between 0xF0000 and 0xFFFFF. */
	if (ebda > 0x400 && ebda < 0xA0000) {
		p = scan(mp, ebda, MP_SEARCH_KB, "EBDA");
	} else {
		const uint8_t *k = phys_view(BDA_BASE_MEM_KB, 2);
		uint32_t kb = k ? le16(k) : 0;

		if (kb >= 1 && kb <= 640)
			p = scan(mp, (uint64_t)(kb - 1) * 1024, MP_SEARCH_KB, "base memory top");
	}
	return p ? p : scan(mp, MP_ROM_BASE, MP_ROM_SIZE, "BIOS ROM");
}

static void add_cpu(struct acpi_info *ai, struct mp_info *mp, uint32_t id, uint32_t flags)
{
	mp->ncpus++;
	if (!(flags & CPU_ENABLED)) {
		ai->ncpus_ignored++;	/* §4.3.1: EN clear = unusable */
		return;
	}
	for (unsigned i = 0; i < ai->ncpus; i++) {
		if (ai->cpus[i].apic_id == id) {
			mp_err(mp, "mptable: APIC ID 0x%x listed again, ignored", id);
			return;
		}
	}
	if (ai->ncpus >= ACPI_MAX_CPUS) {
		ai->ncpus_dropped++;
		return;
	}
	mp->ncpus_enabled++;
	ai->cpus[ai->ncpus++] = (struct acpi_cpu){
		.apic_id = id, .uid = mp->ncpus - 1, .flags = ACPI_MADT_ENABLED, .type = 0,
	};
}

static bool parse_table(struct acpi_info *ai, struct mp_info *mp, uint64_t pa)
{
	/* pa comes from the checksummed floating pointer: phys_view_fw(),
	 * as for ACPI tables (lib/physmem.h). */
	const uint8_t *h = phys_view_fw(pa, MPC_HEADER_LEN);

	if (!h || memcmp(h, MPC_SIGNATURE, 4)) {
		mp_err(mp, "mptable: no PCMP configuration table at 0x%llx", (unsigned long long)pa);
		return false;
	}
	uint32_t len = le16(h + MPC_LENGTH), count = le16(h + MPC_ENTRY_COUNT);

	if (len < MPC_HEADER_LEN || len > MPC_MAX_LEN) {
		mp_err(mp, "mptable: configuration table length %u invalid", len);
		return false;
	}
	const uint8_t *t = phys_view_fw(pa, len);

	if (!t) {
		mp_err(mp, "mptable: configuration table at 0x%llx+%u not readable",
		       (unsigned long long)pa, len);
		return false;
	}
	if (byte_sum(t, len)) {
		mp_err(mp, "mptable: configuration table checksum bad");
		return false;
	}
	ai->lapic_addr = le32(t + MPC_LAPIC);

	uint32_t off = MPC_HEADER_LEN;

	for (uint32_t i = 0; i < count && off < len; i++) {
		uint8_t type = t[off];
		uint32_t elen = type == MP_PROCESSOR ? MP_PROCESSOR_LEN : MP_OTHER_LEN;

		if (type > MP_LINTSRC) {
			/* §4.3: base entries are types 0-4; an unknown one has
			 * no known length, so nothing after it can be trusted. */
			mp_err(mp, "mptable: unknown entry type %u at offset %u, walk stopped", type, off);
			break;
		}
		if (elen > len - off) {
			mp_err(mp, "mptable: entry type %u at offset %u runs past the table (%u bytes), walk stopped",
			       type, off, len);
			break;
		}
		const uint8_t *e = t + off;

		if (type == MP_PROCESSOR)
			add_cpu(ai, mp, e[1], e[3]);
		else if (type == MP_IOAPIC && (e[3] & MPC_APIC_USABLE) && ai->nioapics < ACPI_MAX_IOAPICS)
			ai->ioapics[ai->nioapics++] = (struct acpi_ioapic){ e[1], le32(e + 4), 0 };
		off += elen;
	}
	return true;
}

bool mptable_fill(struct acpi_info *ai, struct mp_info *mp)
{
	memset(mp, 0, sizeof(*mp));

	const uint8_t *f = find_fps(mp);

	if (!f) {
		mp_err(mp, "mptable: no MP floating pointer structure (EBDA, base memory top, BIOS ROM)");
		return false;
	}
	mp->found = true;
	mp->spec_rev = f[MPF_SPEC_REV];
	mp->default_config = f[MPF_FEATURE1];
	mp->table_phys = le32(f + MPF_PHYSPTR);

	/* Replace whatever CPU list there was (a rejected MADT's leftovers). */
	ai->ncpus = ai->ncpus_ignored = ai->ncpus_dropped = 0;
	ai->nioapics = 0;
	/* The MP table's I/O interrupt entries are not parsed: no ISA
	 * routing is known (arch/x86/acpi.h isa_irq). */
	memset(ai->isa_irq, 0, sizeof(ai->isa_irq));
	if (mp->default_config) {
		/* §5: default configurations are two processors, APIC IDs 0
		 * and 1, with the APIC at its default address. */
		ai->lapic_addr = MP_DEFAULT_APIC;
		add_cpu(ai, mp, 0, CPU_ENABLED | CPU_BOOTPROCESSOR);
		add_cpu(ai, mp, 1, CPU_ENABLED);
	} else if (!mp->table_phys || !parse_table(ai, mp, mp->table_phys)) {
		if (!mp->table_phys)
			mp_err(mp, "mptable: floating pointer gives no configuration table and no default configuration");
		ai->ncpus = 0;
		return false;
	}
	if (!ai->ncpus) {
		mp_err(mp, "mptable: no enabled processor entries");
		return false;
	}
	/* §3.6.2: an MP system keeps PC/AT-compatible 8259As; say so as the
	 * MADT's PCAT_COMPAT flag would, so that they are masked. */
	ai->madt_flags |= ACPI_MADT_PCAT_COMPAT;
	ai->have_madt = true;
	ai->cpus_source = "mptable";
	return true;
}
