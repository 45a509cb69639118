/* SPDX-License-Identifier: GPL-2.0-only */
/* SMBIOS entry point discovery and the type 0/1/2 strings; see smbios.h.
 *
 * Section numbers are DMTF DSP0134 3.7.  As in acpi.c, multi-byte fields
 * are read byte by byte (lib/bytes.h), every read goes through a view of
 * bytes already bounded, and every loop is bounded by a checked length. */
#include "arch/x86/smbios.h"

#include <stdarg.h>

#include "lib/bytes.h"
#include "lib/physmem.h"
#include "lib/printf.h"
#include "lib/string.h"

/* §5.2.1: the 32-bit (2.1+) entry point, 31 bytes. */
#define EP2_ANCHOR		"_SM_"
#define EP2_CHECKSUM		4
#define EP2_LENGTH		5
#define EP2_MAJOR		6
#define EP2_MINOR		7
#define EP2_IANCHOR		16	/* "_DMI_" */
#define EP2_ICHECKSUM_LEN	15	/* bytes 16-30 */
#define EP2_TABLE_LEN		22
#define EP2_TABLE_ADDR		24
#define EP2_MIN_LEN		0x1E	/* 2.1 documents 0x1F; some firmware says 0x1E */
#define EP2_SIZE		0x1F
/* §5.2.2: the 64-bit (3.0+) entry point, 24 bytes. */
#define EP3_ANCHOR		"_SM3_"
#define EP3_LENGTH		6
#define EP3_MAJOR		7
#define EP3_MINOR		8
#define EP3_TABLE_MAX		12
#define EP3_TABLE_ADDR		16
#define EP3_SIZE		0x18
#define EP_MAX_LEN		0x40	/* longer entry points are refused */

/* §6.1.2: structure header: type, length, handle. */
#define SH_TYPE			0
#define SH_LENGTH		1
#define SH_HANDLE		2
#define SH_SIZE			4
#define SMBIOS_TYPE_END		127

/* UEFI 2.10 §4.3, §4.6: the system table and its configuration table. */
#define EFI_SYSTAB_SIG		0x5453595320494249ull	/* "IBI SYST" */
#define EFI_SYSTAB64_NENTRIES	104
#define EFI_SYSTAB64_CONFIG	112
#define EFI_SYSTAB32_NENTRIES	64
#define EFI_SYSTAB32_CONFIG	68
#define EFI_CONFIG_MAX		512	/* entries looked at */

static const uint8_t guid_smbios[16] = {	/* EB9D2D31-2D88-11D3-9A16-0090273FC14D */
	0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
	0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };
static const uint8_t guid_smbios3[16] = {	/* F2FD1544-9794-4A2C-992E-E5BBCF20E394 */
	0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
	0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };

static void smbios_err(struct smbios_info *si, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Only the first problem is kept: one broken table, one error line. */
static void smbios_err(struct smbios_info *si, const char *fmt, ...)
{
	va_list ap;

	if (si->error[0])
		return;
	va_start(ap, fmt);
	rl_vsnprintf(si->error, SMBIOS_ERROR_LEN, fmt, ap);
	va_end(ap);
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

void smbios_quote(char *dst, size_t size, const char *s)
{
	size_t o = 0;

	if (!size)
		return;
	/* room for the closing quote and the NUL is kept at every step */
	if (size >= 3)
		dst[o++] = '"';
	for (; s && *s && o + 3 < size; s++) {
		if (*s == '"' || *s == '\\') {
			if (o + 4 >= size)
				break;
			dst[o++] = '\\';
		}
		dst[o++] = *s;
	}
	if (size >= 3)
		dst[o++] = '"';
	dst[o] = '\0';
}

/* ------------------------------------------------------- entry point --- */
const char *smbios_ep_check(struct smbios_info *si, const uint8_t *p, size_t avail)
{
	if (!p || avail < 5)
		return "truncated";
	if (!memcmp(p, EP3_ANCHOR, 5)) {
		if (avail < EP3_SIZE)
			return "truncated";
		uint8_t len = p[EP3_LENGTH];

		if (len < EP3_SIZE || len > EP_MAX_LEN)
			return "bad entry point length";
		if (len > avail)
			return "truncated";
		if (byte_sum(p, len))
			return "checksum mismatch";
		si->v3 = true;
		si->major = p[EP3_MAJOR];
		si->minor = p[EP3_MINOR];
		si->table_len = le32(p + EP3_TABLE_MAX);
		si->table_phys = le64(p + EP3_TABLE_ADDR);
		return NULL;
	}
	if (!memcmp(p, EP2_ANCHOR, 4)) {
		if (avail < EP2_SIZE)
			return "truncated";
		uint8_t len = p[EP2_LENGTH];

		if (len < EP2_MIN_LEN || len > EP_MAX_LEN)
			return "bad entry point length";
		if (len > avail)
			return "truncated";
		if (byte_sum(p, len))
			return "checksum mismatch";
		if (memcmp(p + EP2_IANCHOR, "_DMI_", 5))
			return "no _DMI_ intermediate anchor";
		if (byte_sum(p + EP2_IANCHOR, EP2_ICHECKSUM_LEN))
			return "intermediate checksum mismatch";
		si->v3 = false;
		si->major = p[EP2_MAJOR];
		si->minor = p[EP2_MINOR];
		si->table_len = le16(p + EP2_TABLE_LEN);
		si->table_phys = le32(p + EP2_TABLE_ADDR);
		return NULL;
	}
	return "no _SM_ or _SM3_ anchor";
}

/* View the entry point at pa: its first bytes, then as many as it says. */
static const uint8_t *ep_view(uint64_t pa, size_t *avail)
{
	const uint8_t *p = phys_view_fw(pa, EP3_SIZE), *q;

	*avail = p ? EP3_SIZE : 0;
	if (!p)
		return NULL;
	uint8_t len = !memcmp(p, EP3_ANCHOR, 5) ? p[EP3_LENGTH] :
		      !memcmp(p, EP2_ANCHOR, 4) ? p[EP2_LENGTH] : 0;

	if (!memcmp(p, EP2_ANCHOR, 4) && len < EP2_SIZE)
		len = EP2_SIZE;	/* the fields are there even when length says 0x1E */
	if (len > EP3_SIZE && len <= EP_MAX_LEN) {
		q = phys_view_fw(pa, len);
		if (q) {
			*avail = len;
			return q;
		}
	}
	return p;
}

/* --------------------------------------------------- structure table --- */
/* String `idx` (1-based, §6.1.3) of the string set [s, end): copied
 * sanitized into dst; false when the set has fewer strings. */
static bool get_string(const uint8_t *s, const uint8_t *end, uint8_t idx, char *dst)
{
	dst[0] = '\0';
	if (!idx)
		return true;	/* "no string" */
	for (unsigned n = 1; s < end && *s; n++) {
		const uint8_t *e = s;

		while (e < end && *e)
			e++;
		if (n == idx) {
			size_t k = 0;

			for (; s < e && k < SMBIOS_STR_MAX - 1; s++)
				dst[k++] = (*s >= 0x20 && *s < 0x7f) ? (char)*s : '?';
			/* trailing blanks are padding, not part of the name */
			while (k && dst[k - 1] == ' ')
				k--;
			dst[k] = '\0';
			return true;
		}
		s = e + 1;
	}
	return false;
}

struct want_str {
	uint8_t type, off;
	char *dst;
	const char *what;
};

bool smbios_walk(struct smbios_info *si, const uint8_t *t, uint32_t len, bool len_is_max)
{
	const struct want_str want[] = {
		{ 0, 4, si->bios_vendor, "BIOS vendor" }, { 0, 5, si->bios_version, "BIOS version" },
		{ 0, 8, si->bios_date, "BIOS date" },
		{ 1, 4, si->sys_vendor, "system manufacturer" }, { 1, 5, si->sys_product, "system product" },
		{ 1, 7, si->sys_serial, "system serial" },
		{ 2, 4, si->board_vendor, "board manufacturer" }, { 2, 5, si->board_product, "board product" },
	};
	uint32_t off = 0;

	si->nstructs = 0;
	while (off < len) {
		if (si->nstructs >= SMBIOS_MAX_STRUCTS) {
			smbios_err(si, "smbios: more than %u structures, walk stopped", SMBIOS_MAX_STRUCTS);
			return false;
		}
		if (len - off < SH_SIZE) {
			if (len_is_max)
				return true;	/* 3.x: the maximum, not the exact size */
			smbios_err(si, "smbios: %u stray byte(s) at table offset %u", len - off, off);
			return false;
		}
		const uint8_t *h = t + off;
		uint8_t type = h[SH_TYPE], flen = h[SH_LENGTH];
		uint16_t handle = le16(h + SH_HANDLE);

		if (flen < SH_SIZE || flen > len - off) {
			smbios_err(si, "smbios: structure type %u handle 0x%x at table offset %u has length %u (%u bytes left), walk stopped",
				   type, handle, off, flen, len - off);
			return false;
		}
		/* §6.1.3: the string set follows, ended by two NULs (just two
		 * when there are no strings). */
		const uint8_t *s = h + flen, *end = t + len, *p = s;

		while (p + 1 < end && !(p[0] == 0 && p[1] == 0))
			p++;
		if (p + 1 >= end) {
			smbios_err(si, "smbios: structure type %u handle 0x%x at table offset %u: string set runs past the table (%u bytes), walk stopped",
				   type, handle, off, len);
			return false;
		}
		si->nstructs++;
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			if (want[i].type != type)
				continue;
			if (type == 0)
				si->have_bios = true;
			else if (type == 1)
				si->have_system = true;
			else
				si->have_board = true;
			if (want[i].off >= flen)
				continue;	/* an older, shorter structure */
			if (!get_string(s, p + 1, h[want[i].off], want[i].dst))
				smbios_err(si, "smbios: structure type %u handle 0x%x: %s is string %u, past the structure's strings",
					   type, handle, want[i].what, h[want[i].off]);
		}
		off = (uint32_t)(p + 2 - t);
		if (type == SMBIOS_TYPE_END)
			break;
	}
	return true;
}

/* ------------------------------------------------------------- sources --- */
/* Check the entry point and walk its table; false (with si->error set)
 * when the entry point is bad, so that the next source is tried.  A good
 * entry point with a broken table stays the answer. */
static bool use_ep(struct smbios_info *si, const uint8_t *p, size_t avail,
		   const char *source, uint64_t ep_phys)
{
	const char *bad = smbios_ep_check(si, p, avail);

	if (bad) {
		smbios_err(si, "smbios: entry point from %s: %s, ignored", source, bad);
		return false;
	}
	si->found = true;
	si->source = source;
	si->ep_phys = ep_phys;
	if (!si->table_len || si->table_len > SMBIOS_TABLE_MAX_LEN) {
		smbios_err(si, "smbios: structure table length %u (limit %u), not read",
			   si->table_len, SMBIOS_TABLE_MAX_LEN);
		return true;
	}
	const uint8_t *t = phys_view_fw(si->table_phys, si->table_len);

	if (!t) {
		smbios_err(si, "smbios: structure table 0x%llx+%u not readable",
			   ull(si->table_phys), si->table_len);
		return true;
	}
	smbios_walk(si, t, si->table_len, si->v3);
	return true;
}

static bool from_efi(struct smbios_info *si, uint64_t systab, bool efi64)
{
	uint32_t nent_off = efi64 ? EFI_SYSTAB64_NENTRIES : EFI_SYSTAB32_NENTRIES;
	uint32_t cfg_off = efi64 ? EFI_SYSTAB64_CONFIG : EFI_SYSTAB32_CONFIG;
	uint32_t esz = efi64 ? 24 : 20;
	const uint8_t *st = phys_view_fw(systab, cfg_off + (efi64 ? 8 : 4));

	if (!st) {
		smbios_err(si, "smbios: EFI system table at 0x%llx not readable", ull(systab));
		return false;
	}
	if (le64(st) != EFI_SYSTAB_SIG) {
		smbios_err(si, "smbios: EFI system table at 0x%llx has a bad signature", ull(systab));
		return false;
	}
	uint64_t n = efi64 ? le64(st + nent_off) : le32(st + nent_off);
	uint64_t cfg = efi64 ? le64(st + cfg_off) : le32(st + cfg_off);

	if (n > EFI_CONFIG_MAX)
		n = EFI_CONFIG_MAX;
	const uint8_t *c = n ? phys_view_fw(cfg, (size_t)n * esz) : NULL;

	if (!c) {
		if (n)
			smbios_err(si, "smbios: EFI configuration table 0x%llx (%llu entries) not readable",
				   ull(cfg), ull(n));
		return false;
	}
	/* SMBIOS3 first (64-bit table address), then SMBIOS. */
	for (int pass = 0; pass < 2; pass++) {
		const uint8_t *g = pass ? guid_smbios : guid_smbios3;

		for (uint64_t i = 0; i < n; i++) {
			const uint8_t *e = c + i * esz;

			if (memcmp(e, g, 16))
				continue;
			uint64_t pa = efi64 ? le64(e + 16) : le32(e + 16);
			size_t avail;
			const uint8_t *p = ep_view(pa, &avail);

			if (use_ep(si, p, avail, pass ? "efi-smbios" : "efi-smbios3", pa))
				return true;
		}
	}
	return false;
}

static bool from_scan(struct smbios_info *si)
{
	for (uint64_t pa = SMBIOS_SCAN_BASE; pa + EP3_SIZE <= SMBIOS_SCAN_END; pa += 16) {
		const uint8_t *a = phys_view(pa, 5);

		if (!a || (memcmp(a, EP3_ANCHOR, 5) && memcmp(a, EP2_ANCHOR, 4)))
			continue;
		size_t avail;
		const uint8_t *p = ep_view(pa, &avail);

		if (use_ep(si, p, avail, "bios-scan", pa))
			return true;
	}
	return false;
}

bool smbios_init(struct smbios_info *si, const void *tag, size_t tag_len,
		 uint64_t efi_systab, bool efi64)
{
	memset(si, 0, sizeof(*si));
	if (tag && use_ep(si, tag, tag_len, "multiboot2-tag13", 0))
		return true;
	if (efi_systab && from_efi(si, efi_systab, efi64))
		return true;
	if (from_scan(si))
		return true;
	str_copy(si->why, tag || efi_systab ? "no valid entry point in the loader's tag, the EFI table or 0xF0000-0xFFFFF" :
		 "no entry point in 0xF0000-0xFFFFF", sizeof(si->why));
	return false;
}
