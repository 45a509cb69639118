/* SPDX-License-Identifier: GPL-2.0-only */
/* Expected-fault API; see fault.h. */
#include "arch/x86/fault.h"
#include "arch/x86/catch.h"
#include "arch/x86/cpu.h"

struct fault_result fault_catch(void (*fn)(void *arg), void *arg)
{
	struct catch_frame f;
	struct fault_result r = { .vector = -1 };

	catch_push(&f, CATCH_QUIET);
	if (catch_enter(&f) == 0) {
		fn(arg);
		catch_pop(&f);
		return r;
	}
	r.vector = f.vector;
	r.error_code = f.error_code;
	r.rip = f.fault_rip;
	r.cr2 = f.cr2;
	return r;
}

struct msr_op {
	uint32_t msr;
	uint64_t val;
};

static void do_rdmsr(void *p)
{
	struct msr_op *op = p;

	op->val = rdmsr(op->msr);
}

static void do_wrmsr(void *p)
{
	struct msr_op *op = p;

	wrmsr(op->msr, op->val);
}

struct fault_result rdmsr_safe(uint32_t msr, uint64_t *val)
{
	struct msr_op op = { msr, 0 };
	struct fault_result r = fault_catch(do_rdmsr, &op);

	*val = fault_none(r) ? op.val : 0;
	return r;
}

struct fault_result wrmsr_safe(uint32_t msr, uint64_t val)
{
	struct msr_op op = { msr, val };

	return fault_catch(do_wrmsr, &op);
}

static void do_rdtscp(void *p)
{
	(void)p;
	__asm__ volatile("rdtscp" ::: "rax", "rdx", "rcx", "memory");
}

static void do_serialize(void *p)
{
	(void)p;
	__asm__ volatile(".byte 0x0f, 0x01, 0xe8" ::: "memory");
}

struct fault_result probe_rdtscp(void)
{
	return fault_catch(do_rdtscp, 0);
}

struct fault_result probe_serialize(void)
{
	return fault_catch(do_serialize, 0);
}
