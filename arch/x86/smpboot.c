/* Placeholder until the trampoline lands. */
#include "arch/x86/smpboot.h"
#include "lib/string.h"

static struct smpboot_result result;

void smpboot_start_aps(const struct boot_info *bi, const struct acpi_info *ai,
		       const struct options *o, struct smpboot_result *res)
{
	(void)bi; (void)ai; (void)o;
	memset(&result, 0, sizeof(result));
	*res = result;
}

const struct smpboot_result *smpboot_get_result(void)
{
	return &result;
}
