/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI table discovery and the few parsers ringlab needs; see acpi.h.
 *
 * Everything here reads firmware data that may be wrong, so:
 *  - all physical memory is reached through phys_view(), one bounded range
 *    at a time (the 36-byte header first, then the length it claims);
 *    tables that a checksummed RSDP/RSDT/XSDT points at through
 *    phys_view_fw(), which may also reach memory-map holes when the
 *    loader's map lists only RAM (iPXE; lib/physrange.h);
 *  - multi-byte fields are assembled byte by byte (tables are byte-packed
 *    and often unaligned: a real XSDT has been seen at 0xa0e2f), never read
 *    through a cast pointer;
 *  - every loop is bounded by a length already checked against what
 *    phys_view() could give, and every MADT entry advances by >= 2 bytes.
 * Problems become one short line in ai->errors; the table (or entry) at
 * fault is ignored and the rest is still used.
 *
 * Section numbers are ACPI 6.5 unless stated; HPET is the IA-PC HPET
 * specification 1.0a. */
#include "arch/x86/acpi.h"

#include <stdarg.h>

#include "lib/physmem.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/bytes.h"

/* ---------------------------------------------------------- constants --- */
/* Names as in ACPICA (actbl.h, actbl1.h, acconfig.h). */
#define ACPI_SIG_RSDP			"RSD PTR "
#define ACPI_SIG_RSDT			"RSDT"
#define ACPI_SIG_XSDT			"XSDT"
#define ACPI_SIG_MADT			"APIC"
#define ACPI_SIG_FADT			"FACP"
#define ACPI_SIG_HPET			"HPET"
#define ACPI_SIG_SPCR			"SPCR"
#define ACPI_NAMESEG_SIZE		4
#define ACPI_OEM_ID_SIZE		6

#define ACPI_RSDP_CHECKSUM_LENGTH	20	/* ACPI 1.0 part, §5.2.5.3 */
#define ACPI_RSDP_XCHECKSUM_LENGTH	36	/* whole ACPI 2.0 RSDP */
#define ACPI_EBDA_PTR_LOCATION		0x40E	/* BDA word: EBDA segment */
#define ACPI_EBDA_PTR_LENGTH		2
#define ACPI_EBDA_WINDOW_SIZE		1024
#define ACPI_HI_RSDP_WINDOW_BASE	0xE0000
#define ACPI_HI_RSDP_WINDOW_SIZE	0x20000
#define ACPI_RSDP_SCAN_STEP		16

#define ACPI_MADT_TYPE_LOCAL_APIC		0
#define ACPI_MADT_TYPE_IO_APIC			1
#define ACPI_MADT_TYPE_INT_SRC_OVERRIDE		2
#define ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE	5
#define ACPI_MADT_TYPE_LOCAL_X2APIC		9

#define ACPI_FADT_32BIT_TIMER		(1u << 8)	/* TMR_VAL_EXT */
#define ACPI_FADT_HW_REDUCED		(1u << 20)	/* HW_REDUCED_ACPI */
#define ACPI_FADT_V1_SIZE		116	/* ACPI 1.0 FADT ends after Flags */


/* Layout offsets, from the spec's tables (no packed structs: see top). */
#define SDT_HEADER_LEN		36	/* §5.2.6 */
#define SDT_LENGTH		4
#define SDT_REVISION		8
#define SDT_CHECKSUM		9

#define RSDP_CHECKSUM		8	/* §5.2.5.3 */
#define RSDP_OEM_ID		9
#define RSDP_REVISION		15
#define RSDP_RSDT_ADDRESS	16
#define RSDP_LENGTH		20
#define RSDP_XSDT_ADDRESS	24

#define MADT_ADDRESS		36	/* §5.2.12 */
#define MADT_FLAGS		40
#define MADT_ENTRIES		44
#define MADT_LOCAL_APIC_LEN	8	/* §5.2.12.2 */
#define MADT_IO_APIC_LEN	12	/* §5.2.12.3 */
#define MADT_INT_SRC_OVERRIDE_LEN 10	/* §5.2.12.5 */
#define MADT_LAPIC_OVERRIDE_LEN	12	/* §5.2.12.8 */
#define MADT_LOCAL_X2APIC_LEN	16	/* §5.2.12.12 */

#define FADT_PM_TIMER_BLOCK	76	/* §5.2.9 */
#define FADT_PM_TIMER_LENGTH	91
#define FADT_FLAGS		112
#define FADT_XPM_TIMER_BLOCK	208

#define GAS_SPACE_ID		0	/* Generic Address Structure, §5.2.3.2 */
#define GAS_ADDRESS		4
#define GAS_LEN			12

#define HPET_ADDRESS		40	/* GAS, after the u32 block ID; HPET spec §3.2.4 */
#define HPET_SEQUENCE		52
#define HPET_MINIMUM_TICK	53
#define HPET_TABLE_LEN		56

/* Our own bounds, not the spec's.  The largest real tables (DSDTs) are a
 * few hundred KiB; anything claiming more than this is corrupt, and summing
 * it could walk into MMIO.  Every RSDP revision so far is 36 bytes. */
#define ACPI_TABLE_MAX_LEN	(16u << 20)
#define ACPI_RSDP_MAX_LEN	4096u
/* The EBDA lives in conventional memory, above the BDA (0x400) and below
 * the VGA hole (0xA0000).  ACPICA tests "> 0x400" (tbxfroot.c). */
#define EBDA_LOW		0x400u
#define EBDA_HIGH		0xA0000u

#define ACPI_X2APIC_INVALID_ID	0xFFFFFFFFu
#define ACPI_XAPIC_INVALID_ID	0xFFu

/* ------------------------------------------------------------ helpers --- */
/* Firmware strings end up in log lines; a control byte (or a newline) in a
 * corrupt signature must not break the line-oriented log format. */
static void copy_printable(char *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	dst[n] = '\0';
}

/* What to call a table in a message: the spec's names for the three we
 * parse, else its (sanitised) signature. */
static const char *table_name(const uint8_t *sig, char buf[ACPI_NAMESEG_SIZE + 1])
{
	if (!memcmp(sig, ACPI_SIG_MADT, ACPI_NAMESEG_SIZE))
		return "MADT";
	if (!memcmp(sig, ACPI_SIG_FADT, ACPI_NAMESEG_SIZE))
		return "FADT";
	copy_printable(buf, sig, ACPI_NAMESEG_SIZE);
	return buf;
}

static void acpi_err(struct acpi_info *ai, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Keep the first ACPI_MAX_ERRORS - 1 messages; once they overflow, the last
 * slot says so, so that a reader knows the list is incomplete. */
static void acpi_err(struct acpi_info *ai, const char *fmt, ...)
{
	va_list ap;

	if (ai->nerrors >= ACPI_MAX_ERRORS) {
		str_copy(ai->errors[ACPI_MAX_ERRORS - 1],
			 "acpi: too many errors, later ones not recorded",
			 ACPI_ERROR_LEN);
		return;
	}
	va_start(ap, fmt);
	rl_vsnprintf(ai->errors[ai->nerrors], ACPI_ERROR_LEN, fmt, ap);
	va_end(ap);
	ai->nerrors++;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

/* --------------------------------------------------------------- RSDP --- */
bool acpi_checksum_ok(const void *p, size_t len)
{
	/* §5.2.5.3, §5.2.6: the covered bytes, checksum included, sum to 0. */
	return p && byte_sum(p, len) == 0;
}

enum rsdp_verdict {
	RSDP_OK,
	RSDP_SHORT,		/* fewer bytes available than it needs */
	RSDP_BAD_SIG,
	RSDP_BAD_CHECKSUM,
	RSDP_BAD_LENGTH,
	RSDP_BAD_XCHECKSUM,
};

static const char *const rsdp_verdict_text[] = {
	[RSDP_OK] = "ok",
	[RSDP_SHORT] = "truncated",
	[RSDP_BAD_SIG] = "bad signature",
	[RSDP_BAD_CHECKSUM] = "checksum mismatch",
	[RSDP_BAD_LENGTH] = "bad length",
	[RSDP_BAD_XCHECKSUM] = "extended checksum mismatch",
};

static uint8_t rsdp_revision(const uint8_t *p)
{
	return p[RSDP_REVISION];
}

static enum rsdp_verdict rsdp_check(const uint8_t *p, size_t avail)
{
	if (!p || avail < ACPI_RSDP_CHECKSUM_LENGTH)
		return RSDP_SHORT;
	if (memcmp(p, ACPI_SIG_RSDP, 8))
		return RSDP_BAD_SIG;
	/* §5.2.5.3: the checksum covers the first 20 bytes (ACPI 1.0 part);
	 * from revision 2 on the extended checksum covers `Length` bytes. */
	if (byte_sum(p, ACPI_RSDP_CHECKSUM_LENGTH))
		return RSDP_BAD_CHECKSUM;
	if (rsdp_revision(p) < 2)
		return RSDP_OK;
	if (avail < RSDP_LENGTH + 4)
		return RSDP_SHORT;
	uint32_t len = le32(p + RSDP_LENGTH);

	if (len < ACPI_RSDP_XCHECKSUM_LENGTH || len > ACPI_RSDP_MAX_LEN)
		return RSDP_BAD_LENGTH;
	if (len > avail)
		return RSDP_SHORT;
	if (byte_sum(p, len))
		return RSDP_BAD_XCHECKSUM;
	return RSDP_OK;
}

bool acpi_rsdp_valid(const void *p, size_t avail)
{
	return rsdp_check(p, avail) == RSDP_OK;
}

/* Candidate at pa: view 20 bytes, and for revision >= 2 first the Length
 * field and then as many bytes as it says (when that is sane), so that
 * rsdp_check() sees it all and nothing is read outside a view. */
static const uint8_t *rsdp_view(uint64_t pa, size_t *avail)
{
	const uint8_t *p = phys_view(pa, ACPI_RSDP_CHECKSUM_LENGTH), *q;

	*avail = ACPI_RSDP_CHECKSUM_LENGTH;
	if (!p || rsdp_revision(p) < 2)
		return p;
	q = phys_view(pa, RSDP_LENGTH + 4);
	if (!q)
		return p;
	p = q;
	*avail = RSDP_LENGTH + 4;

	uint32_t len = le32(p + RSDP_LENGTH);

	if (len >= ACPI_RSDP_XCHECKSUM_LENGTH && len <= ACPI_RSDP_MAX_LEN) {
		q = phys_view(pa, len);
		if (q) {
			*avail = len;
			return q;
		}
	}
	return p;	/* rsdp_check() says what is wrong */
}

/* §5.2.5.1: the RSDP sits on a 16-byte boundary in [base, base + size).
 * Windows are viewed one candidate at a time so that a hole in what
 * phys_view() maps only hides the candidates inside it. */
static const uint8_t *rsdp_scan(struct acpi_info *ai, uint64_t base,
				uint64_t size, const char *where, uint64_t *found)
{
	for (uint64_t pa = base;
	     pa + ACPI_RSDP_CHECKSUM_LENGTH <= base + size;
	     pa += ACPI_RSDP_SCAN_STEP) {
		const uint8_t *sig = phys_view(pa, 8);

		if (!sig || memcmp(sig, ACPI_SIG_RSDP, 8))
			continue;
		size_t avail;
		const uint8_t *p = rsdp_view(pa, &avail);
		enum rsdp_verdict v = rsdp_check(p, avail);

		if (v == RSDP_OK) {
			*found = pa;
			return p;
		}
		acpi_err(ai, "acpi: RSDP candidate in %s at 0x%llx: %s, skipped",
			 where, ull(pa), rsdp_verdict_text[v]);
	}
	return NULL;
}

static const uint8_t *rsdp_find_bios(struct acpi_info *ai)
{
	const uint8_t *p, *w = phys_view(ACPI_EBDA_PTR_LOCATION,
					 ACPI_EBDA_PTR_LENGTH);
	uint64_t pa;

	/* §5.2.5.1: first the EBDA's first KiB, then the BIOS ROM area. */
	if (w) {
		uint32_t ebda = (uint32_t)le16(w) << 4;

		if (ebda > EBDA_LOW && ebda < EBDA_HIGH) {
			uint32_t size = EBDA_HIGH - ebda;

			if (size > ACPI_EBDA_WINDOW_SIZE)
				size = ACPI_EBDA_WINDOW_SIZE;
			p = rsdp_scan(ai, ebda, size, "EBDA", &pa);
			if (p) {
				ai->rsdp_source = "ebda";
				ai->rsdp_phys = pa;
				return p;
			}
		}
	}
	p = rsdp_scan(ai, ACPI_HI_RSDP_WINDOW_BASE, ACPI_HI_RSDP_WINDOW_SIZE,
		      "BIOS ROM", &pa);
	if (p) {
		ai->rsdp_source = "bios-rom";
		ai->rsdp_phys = pa;
	}
	return p;
}

/* ------------------------------------------------------------- tables --- */
/* Map the table at pa (its address comes from a checksummed RSDP or
 * RSDT/XSDT, so phys_view_fw(): lib/physmem.h), checking (in this order) that its header is
 * readable, its signature is `want` (when given), its length is sane and
 * readable, and its checksum is zero.  *ref is filled with what could be
 * learnt (signature "????" when not even the header was readable).
 * Returns the table, or NULL after one line in errors ending in `fate`. */
static const uint8_t *load_table(struct acpi_info *ai, uint64_t pa,
				 const char *want, struct acpi_table_ref *ref,
				 const char *fate)
{
	char nbuf[ACPI_NAMESEG_SIZE + 1];
	const uint8_t *h = phys_view_fw(pa, SDT_HEADER_LEN), *t;
	const char *name;
	uint32_t len;

	memset(ref, 0, sizeof(*ref));
	ref->phys = pa;
	str_copy(ref->sig, "????", sizeof(ref->sig));
	if (!h) {
		acpi_err(ai, "acpi: %s at 0x%llx: header not readable, %s",
			 want ? want : "table", ull(pa), fate);
		return NULL;
	}
	copy_printable(ref->sig, h, ACPI_NAMESEG_SIZE);
	len = le32(h + SDT_LENGTH);
	ref->length = len;
	ref->revision = h[SDT_REVISION];
	name = table_name(h, nbuf);
	if (want && memcmp(h, want, ACPI_NAMESEG_SIZE)) {
		acpi_err(ai, "acpi: %s at 0x%llx: signature '%s' is not %s, %s",
			 want, ull(pa), ref->sig, want, fate);
		return NULL;
	}
	if (len < SDT_HEADER_LEN || len > ACPI_TABLE_MAX_LEN) {
		acpi_err(ai, "acpi: %s at 0x%llx: bad length %u, %s", name,
			 ull(pa), len, fate);
		return NULL;
	}
	t = phys_view_fw(pa, len);
	if (!t) {
		acpi_err(ai, "acpi: %s at 0x%llx: %u bytes not readable, %s",
			 name, ull(pa), len, fate);
		return NULL;
	}
	uint8_t sum = byte_sum(t, len);

	if (sum) {
		acpi_err(ai, "acpi: %s at 0x%llx: checksum mismatch (sum 0x%02x), %s",
			 name, ull(pa), sum, fate);
		return NULL;
	}
	ref->checksum_ok = true;
	return t;
}

/* ---------------------------------------------------------------- MADT --- */
static void madt_add_cpu(struct acpi_info *ai, uint8_t type, uint32_t apic_id,
			 uint32_t uid, uint32_t flags)
{
	uint32_t invalid = type == ACPI_MADT_TYPE_LOCAL_APIC ?
			   ACPI_XAPIC_INVALID_ID : ACPI_X2APIC_INVALID_ID;

	/* Skipped as Linux does (acpi/boot.c): an all-ones ID is a
	 * placeholder, and with neither Enabled nor Online Capable the entry
	 * is not a CPU that can ever run (§5.2.12.2, Local APIC Flags).
	 * Linux also keeps such entries of MADT revisions < 5 (before Online
	 * Capable existed) as possible hot-plug CPUs; ringlab starts Enabled
	 * CPUs only, so it counts them here and loses nothing. */
	if (apic_id == invalid ||
	    !(flags & (ACPI_MADT_ENABLED | ACPI_MADT_ONLINE_CAPABLE))) {
		ai->ncpus_ignored++;
		return;
	}
	/* Quadratic, but bounded by ACPI_MAX_CPUS and run once at boot.  An
	 * xAPIC and an x2APIC entry with the same ID describe one CPU. */
	for (unsigned i = 0; i < ai->ncpus; i++) {
		if (ai->cpus[i].apic_id == apic_id) {
			acpi_err(ai, "acpi: MADT: APIC ID 0x%x listed again (type %u, uid %u), ignored",
				 apic_id, type, uid);
			return;
		}
	}
	if (ai->ncpus >= ACPI_MAX_CPUS) {
		ai->ncpus_dropped++;
		return;
	}
	struct acpi_cpu *c = &ai->cpus[ai->ncpus++];

	c->apic_id = apic_id;
	c->uid = uid;
	c->flags = flags;
	c->type = type;
}

/* §5.2.12.5: Bus (0 = ISA), Source (the ISA IRQ), GSI, INTI flags. */
static void madt_add_isa_override(struct acpi_info *ai, uint32_t off, const uint8_t *e)
{
	uint8_t bus = e[2], irq = e[3];
	uint32_t gsi = le32(e + 4);

	if (bus != 0 || irq >= ACPI_ISA_IRQS) {
		acpi_err(ai, "acpi: MADT: interrupt source override at offset %u for bus %u IRQ %u (not ISA 0-15), ignored",
			 off, bus, irq);
		return;
	}
	if (ai->isa_irq[irq].present) {
		acpi_err(ai, "acpi: MADT: second interrupt source override for ISA IRQ %u at offset %u (GSI %u), ignored",
			 irq, off, gsi);
		return;
	}
	ai->isa_irq[irq] = (struct acpi_isa_override){ true, gsi, le16(e + 8) };
}

uint32_t acpi_isa_irq_gsi(const struct acpi_info *ai, unsigned irq, uint16_t *flags)
{
	if (irq < ACPI_ISA_IRQS && ai->isa_irq[irq].present) {
		if (flags)
			*flags = ai->isa_irq[irq].flags;
		return ai->isa_irq[irq].gsi;
	}
	if (flags)
		*flags = 0;
	return irq;
}

static const struct {
	uint8_t type;
	uint8_t min_len;
} madt_min_len[] = {
	{ ACPI_MADT_TYPE_LOCAL_APIC, MADT_LOCAL_APIC_LEN },
	{ ACPI_MADT_TYPE_IO_APIC, MADT_IO_APIC_LEN },
	{ ACPI_MADT_TYPE_INT_SRC_OVERRIDE, MADT_INT_SRC_OVERRIDE_LEN },
	{ ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE, MADT_LAPIC_OVERRIDE_LEN },
	{ ACPI_MADT_TYPE_LOCAL_X2APIC, MADT_LOCAL_X2APIC_LEN },
};

void acpi_parse_madt(struct acpi_info *ai, const void *table, uint32_t len)
{
	const uint8_t *t = table;
	unsigned ioapics_dropped = 0, dropped_before = ai->ncpus_dropped;
	bool have_override = false;

	if (!t || len < MADT_ENTRIES) {
		acpi_err(ai, "acpi: MADT length %u < %u, ignored", len, MADT_ENTRIES);
		ai->madt_invalid = true;
		return;
	}
	ai->have_madt = true;
	ai->cpus_source = "madt";
	ai->madt_revision = t[SDT_REVISION];
	ai->madt_flags = le32(t + MADT_FLAGS);
	ai->lapic_addr = le32(t + MADT_ADDRESS);

	uint32_t off = MADT_ENTRIES;

	while (off < len) {
		if (len - off < 2) {
			acpi_err(ai, "acpi: MADT: %u stray byte(s) at offset %u",
				 len - off, off);
			ai->madt_invalid = true;
			break;
		}
		const uint8_t *e = t + off;
		uint8_t type = e[0], elen = e[1];

		/* §5.2.12: each entry gives its own length; a length that
		 * cannot hold the type/length pair would never advance. */
		if (elen < 2 || elen > len - off) {
			acpi_err(ai, "acpi: MADT: entry type %u at offset %u has length %u (%u left), walk stopped",
				 type, off, elen, len - off);
			ai->madt_invalid = true;
			break;
		}
		off += elen;

		bool short_entry = false;

		for (size_t i = 0; i < sizeof(madt_min_len) / sizeof(madt_min_len[0]); i++) {
			if (madt_min_len[i].type == type && elen < madt_min_len[i].min_len) {
				acpi_err(ai, "acpi: MADT: type %u entry at offset %u has length %u < %u, skipped",
					 type, off - elen, elen, madt_min_len[i].min_len);
				short_entry = true;
			}
		}
		if (short_entry)
			continue;

		/* Longer entries than we know are fine: later revisions may
		 * append fields, and `elen` still steps over them. */
		switch (type) {
		case ACPI_MADT_TYPE_LOCAL_APIC:
			madt_add_cpu(ai, type, e[3], e[2], le32(e + 4));
			break;
		case ACPI_MADT_TYPE_LOCAL_X2APIC:
			madt_add_cpu(ai, type, le32(e + 4), le32(e + 12),
				     le32(e + 8));
			break;
		case ACPI_MADT_TYPE_IO_APIC:
			if (ai->nioapics >= ACPI_MAX_IOAPICS) {
				ioapics_dropped++;
				break;
			}
			ai->ioapics[ai->nioapics].id = e[2];
			ai->ioapics[ai->nioapics].addr = le32(e + 4);
			ai->ioapics[ai->nioapics].gsi_base = le32(e + 8);
			ai->nioapics++;
			break;
		case ACPI_MADT_TYPE_INT_SRC_OVERRIDE:
			madt_add_isa_override(ai, off - elen, e);
			break;
		case ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE:
			/* §5.2.12.8: at most one; when present it replaces
			 * the 32-bit address in the MADT header. */
			if (have_override) {
				acpi_err(ai, "acpi: MADT: second LAPIC address override at offset %u, ignored",
					 off - elen);
				break;
			}
			have_override = true;
			ai->lapic_addr = le64(e + 4);
			break;
		default:
			break;	/* not needed by ringlab */
		}
	}
	if (ai->ncpus_dropped > dropped_before)
		acpi_err(ai, "acpi: MADT: %u CPU entries beyond the %u kept, dropped",
			 ai->ncpus_dropped - dropped_before, ACPI_MAX_CPUS);
	if (ioapics_dropped)
		acpi_err(ai, "acpi: MADT: %u I/O APICs beyond the %u kept, dropped",
			 ioapics_dropped, ACPI_MAX_IOAPICS);
}

unsigned acpi_enabled_cpus(const struct acpi_info *ai)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ai->ncpus && i < ACPI_MAX_CPUS; i++)
		if (ai->cpus[i].flags & ACPI_MADT_ENABLED)
			n++;
	return n;
}

/* ---------------------------------------------------------------- FADT --- */
void acpi_parse_fadt(struct acpi_info *ai, const void *table, uint32_t len)
{
	const uint8_t *t = table;

	if (!t || len < SDT_HEADER_LEN) {
		acpi_err(ai, "acpi: FADT length %u < %u, ignored", len, SDT_HEADER_LEN);
		return;
	}
	ai->have_fadt = true;
	ai->fadt_revision = t[SDT_REVISION];
	/* The length, not the revision, says which fields exist (firmware
	 * gets the revision wrong); like ACPICA, a field the table does
	 * not reach reads as zero. */
	if (len < ACPI_FADT_V1_SIZE)
		acpi_err(ai, "acpi: FADT length %u < %u (ACPI 1.0), missing fields read as 0",
			 len, ACPI_FADT_V1_SIZE);

	uint32_t flags = len >= FADT_FLAGS + 4 ? le32(t + FADT_FLAGS) : 0;

	ai->hw_reduced = flags & ACPI_FADT_HW_REDUCED;
	/* §5.2.9: with HW_REDUCED_ACPI set, OSPM ignores the fixed hardware
	 * fields (offsets 46-108 and 148-232, and flag bit 8 among others),
	 * which include both PM timer blocks and TMR_VAL_EXT. */
	if (ai->hw_reduced)
		return;
	ai->pm_tmr_32bit = flags & ACPI_FADT_32BIT_TIMER;

	/* §5.2.9: a nonzero X_PM_TMR_BLK that OSPM can use supersedes
	 * PM_TMR_BLK.  ringlab reads the timer with `in`, so only a system
	 * I/O address within the 16-bit port space is usable. */
	if (len >= FADT_XPM_TIMER_BLOCK + GAS_LEN) {
		const uint8_t *gas = t + FADT_XPM_TIMER_BLOCK;
		uint8_t space = gas[GAS_SPACE_ID];
		uint64_t addr = le64(gas + GAS_ADDRESS);

		if (addr && space == ACPI_ADR_SPACE_SYSTEM_IO && addr <= 0xFFFF) {
			ai->pm_tmr_port = (uint16_t)addr;
			return;
		}
		if (addr)
			acpi_err(ai, "acpi: FADT: X_PM_TMR_BLK 0x%llx in address space %u unusable, trying PM_TMR_BLK",
				 ull(addr), space);
	}
	uint32_t blk = len >= FADT_PM_TIMER_BLOCK + 4 ? le32(t + FADT_PM_TIMER_BLOCK) : 0;
	uint8_t blk_len = len > FADT_PM_TIMER_LENGTH ? t[FADT_PM_TIMER_LENGTH] : 0;

	if (!blk)
		return;		/* no PM timer */
	/* §5.2.9: PM_TMR_LEN must be 4 when the timer is supported. */
	if (blk_len != 4 || blk > 0xFFFF) {
		acpi_err(ai, "acpi: FADT: PM_TMR_BLK 0x%x with PM_TMR_LEN %u unusable",
			 blk, blk_len);
		return;
	}
	ai->pm_tmr_port = (uint16_t)blk;
}

/* ---------------------------------------------------------------- HPET --- */
void acpi_parse_hpet(struct acpi_info *ai, const void *table, uint32_t len)
{
	const uint8_t *t = table;

	if (!t || len < HPET_TABLE_LEN) {
		acpi_err(ai, "acpi: HPET length %u < %u, ignored", len, HPET_TABLE_LEN);
		return;
	}
	const uint8_t *gas = t + HPET_ADDRESS;
	uint8_t space = gas[GAS_SPACE_ID];
	uint64_t addr = le64(gas + GAS_ADDRESS);

	/* HPET spec 1.0a §3.2.4: the register block is memory-mapped; an
	 * HPET "in I/O space" cannot be driven by a memory-mapped driver. */
	if (space != ACPI_ADR_SPACE_SYSTEM_MEMORY || !addr) {
		acpi_err(ai, "acpi: HPET: base 0x%llx in address space %u, ignored",
			 ull(addr), space);
		return;
	}
	ai->have_hpet = true;
	ai->hpet_addr = addr;
	ai->hpet_number = t[HPET_SEQUENCE];
	ai->hpet_min_tick = le16(t + HPET_MINIMUM_TICK);
}

/* ---------------------------------------------------------------- init --- */
/* Choose the root table.  §5.2.8: an OS must use the XSDT when present
 * (revision >= 2 RSDP, nonzero address); when it does not check out, the
 * RSDT (§5.2.7) lists the same tables with 32-bit addresses. */
static const uint8_t *load_root(struct acpi_info *ai, const uint8_t *rsdp,
				uint32_t *len)
{
	struct acpi_table_ref ref;
	uint32_t rsdt = le32(rsdp + RSDP_RSDT_ADDRESS);
	uint64_t xsdt = rsdp_revision(rsdp) >= 2 ? le64(rsdp + RSDP_XSDT_ADDRESS) : 0;
	const uint8_t *t;

	if (xsdt) {
		t = load_table(ai, xsdt, ACPI_SIG_XSDT, &ref,
			       rsdt ? "using RSDT" : "no RSDT to fall back to");
		if (t) {
			ai->root_phys = xsdt;
			ai->root_is_xsdt = true;
			*len = ref.length;
			return t;
		}
	}
	if (!rsdt) {
		if (!xsdt)
			acpi_err(ai, "acpi: RSDP gives no RSDT or XSDT address");
		return NULL;
	}
	t = load_table(ai, rsdt, ACPI_SIG_RSDT, &ref, "no tables");
	if (!t)
		return NULL;
	ai->root_phys = rsdt;
	*len = ref.length;
	return t;
}

/* acpi_rsdp=ADDR: the address is the user's, not a checksummed pointer's,
 * so it is read through phys_view() only (a memory-map entry or the BIOS
 * area, never a hole), and what is there must pass the RSDP checks. */
static const uint8_t *rsdp_at_user(struct acpi_info *ai, uint64_t pa)
{
	size_t avail;
	const uint8_t *p = rsdp_view(pa, &avail);
	enum rsdp_verdict v;

	if (!p) {
		acpi_err(ai, "acpi: acpi_rsdp=0x%llx is not in the memory map or the BIOS area; ignored",
			 ull(pa));
		return NULL;
	}
	v = rsdp_check(p, avail);
	if (v != RSDP_OK) {
		acpi_err(ai, "acpi: acpi_rsdp=0x%llx: %s; ignored", ull(pa), rsdp_verdict_text[v]);
		return NULL;
	}
	ai->rsdp_source = "acpi_rsdp=";
	ai->rsdp_phys = pa;
	return p;
}

bool acpi_init(struct acpi_info *ai, const void *rsdp_copy, size_t len,
	       const char *tag_source)
{
	return acpi_init_at(ai, 0, rsdp_copy, len, tag_source);
}

bool acpi_init_at(struct acpi_info *ai, uint64_t user_rsdp, const void *rsdp_copy, size_t len,
		  const char *tag_source)
{
	const uint8_t *rsdp = NULL;

	memset(ai, 0, sizeof(*ai));
	if (user_rsdp)
		rsdp = rsdp_at_user(ai, user_rsdp);
	if (!rsdp && rsdp_copy) {
		enum rsdp_verdict v = rsdp_check(rsdp_copy, len);
		const char *src = tag_source ? tag_source : "multiboot2";

		if (v == RSDP_OK) {
			rsdp = rsdp_copy;
			ai->rsdp_source = src;
		} else {
			acpi_err(ai, "acpi: RSDP copy from %s: %s, scanning memory",
				 src, rsdp_verdict_text[v]);
		}
	}
	if (!rsdp)
		rsdp = rsdp_find_bios(ai);
	if (!rsdp) {
		acpi_err(ai, "acpi: no valid RSDP found");
		return false;
	}
	ai->have_rsdp = true;
	ai->revision = rsdp_revision(rsdp);
	copy_printable(ai->oem_id, rsdp + RSDP_OEM_ID, ACPI_OEM_ID_SIZE);

	uint32_t rlen = 0;
	const uint8_t *root = load_root(ai, rsdp, &rlen);

	if (!root)
		return true;

	const size_t esz = ai->root_is_xsdt ? 8 : 4;
	const char *rname = ai->root_is_xsdt ? ACPI_SIG_XSDT : ACPI_SIG_RSDT;
	uint32_t n = (uint32_t)((rlen - SDT_HEADER_LEN) / esz);
	bool seen_madt = false, seen_fadt = false, seen_hpet = false, seen_spcr = false;
	unsigned unrecorded = 0;

	if ((rlen - SDT_HEADER_LEN) % esz)
		acpi_err(ai, "acpi: %s length %u leaves a partial entry, ignored",
			 rname, rlen);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = root + SDT_HEADER_LEN + i * esz;
		uint64_t pa = esz == 8 ? le64(e) : le32(e);
		struct acpi_table_ref ref;
		const uint8_t *t;

		if (!pa)
			continue;	/* an unused slot, as ACPICA treats it */
		t = load_table(ai, pa, NULL, &ref, "ignored");
		if (ai->ntables < ACPI_MAX_TABLES)
			ai->tables[ai->ntables++] = ref;
		else
			unrecorded++;
		if (!t) {
			/* A MADT that fails its checks: the CPU count cannot be
			 * trusted, and the verdict must say so (smp.online). */
			if (!memcmp(ref.sig, ACPI_SIG_MADT, ACPI_NAMESEG_SIZE))
				ai->madt_invalid = true;
			continue;
		}

		bool *seen = NULL;
		void (*parse)(struct acpi_info *, const void *, uint32_t) = NULL;

		if (!memcmp(t, ACPI_SIG_MADT, ACPI_NAMESEG_SIZE)) {
			seen = &seen_madt;
			parse = acpi_parse_madt;
		} else if (!memcmp(t, ACPI_SIG_FADT, ACPI_NAMESEG_SIZE)) {
			seen = &seen_fadt;
			parse = acpi_parse_fadt;
		} else if (!memcmp(t, ACPI_SIG_HPET, ACPI_NAMESEG_SIZE)) {
			seen = &seen_hpet;
			parse = acpi_parse_hpet;
		} else if (!memcmp(t, ACPI_SIG_SPCR, ACPI_NAMESEG_SIZE)) {
			seen = &seen_spcr;
			parse = acpi_parse_spcr;	/* arch/x86/acpi_spcr.c */
		}
		if (!parse)
			continue;
		if (*seen) {
			char nbuf[ACPI_NAMESEG_SIZE + 1];

			acpi_err(ai, "acpi: another %s at 0x%llx, ignored",
				 table_name(t, nbuf), ull(pa));
			/* Two CPU lists: which one is right cannot be known. */
			if (parse == acpi_parse_madt)
				ai->madt_invalid = true;
			continue;
		}
		*seen = true;
		parse(ai, t, ref.length);
	}
	if (unrecorded)
		acpi_err(ai, "acpi: %s lists %u tables beyond the %u recorded",
			 rname, unrecorded, ACPI_MAX_TABLES);
	return true;
}
