/* SPDX-License-Identifier: GPL-2.0-only */
/* Environment classification; see cpuenv.h. */
#include "arch/x86/cpuenv.h"
#include "lib/printf.h"
#include "lib/string.h"

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

void cpu_env_classify(const struct cpuinfo *ci, const char *acpi_oem, const char *loader,
		      struct cpu_env *env)
{
	bool qemu_loader = starts(loader, "qemu");

	memset(env, 0, sizeof(*env));
	if (ci->hypervisor && !strncmp(ci->hv_signature, "TCGTCGTCGTCG", 12)) {
		env->kind = CPU_ENV_EMULATOR;
		rl_snprintf(env->name, sizeof(env->name), "emulator:qemu-tcg");
		rl_snprintf(env->note, sizeof(env->note),
			    "under QEMU TCG: timings and orderings are the emulator's, not a hardware result");
	} else if (ci->hypervisor) {
		const size_t pre = sizeof("hypervisor:") - 1;
		size_t n;

		env->kind = CPU_ENV_HYPERVISOR;
		n = (size_t)rl_snprintf(env->name, sizeof(env->name), "hypervisor:%s",
					ci->hv_signature[0] ? ci->hv_signature : "unnamed");
		if (n >= sizeof(env->name))
			n = sizeof(env->name) - 1;
		/* keep it one key=value token: no blanks, no '=' */
		for (size_t i = pre; i < n; i++)
			if (env->name[i] == ' ' || env->name[i] == '=' || env->name[i] == ';' ||
			    env->name[i] == ')' || env->name[i] == ',')
				env->name[i] = '_';
		/* trailing blanks of a signature shorter than 12 bytes */
		while (n > pre && env->name[n - 1] == '_')
			env->name[--n] = '\0';
		rl_snprintf(env->note, sizeof(env->note),
			    "under a hypervisor (%s): timings include its exits and emulation, not a bare-metal result",
			    env->name + pre);
	} else if (qemu_loader) {
		env->kind = CPU_ENV_EMULATOR;
		rl_snprintf(env->name, sizeof(env->name), "emulator:qemu");
		rl_snprintf(env->note, sizeof(env->note),
			    "under QEMU with the hypervisor bit hidden: timings are not a hardware result");
	} else if (starts(acpi_oem, "BOCHS")) {
		env->kind = CPU_ENV_EMULATOR;
		rl_snprintf(env->name, sizeof(env->name), "emulator:bochs");
		rl_snprintf(env->note, sizeof(env->note),
			    "under Bochs: timings and orderings are the emulator's, not a hardware result");
	} else {
		env->kind = CPU_ENV_BARE_METAL;
		rl_snprintf(env->name, sizeof(env->name), "bare-metal");
	}
}
