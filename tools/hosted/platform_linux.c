/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform API (kernel/platform.h) for ringlab-hosted: one thread per
 * CPU the process may run on, each pinned with sched_setaffinity; CPU 0 is
 * the main thread, which runs the tests.
 *
 * What the kernel does with catch points and interrupts is done here with
 * signals: a test's or work item's SIGSEGV/SIGBUS/SIGILL/SIGFPE returns to
 * its sigsetjmp point (reported as a fault); the test budget is an
 * ITIMER_REAL whose SIGALRM (blocked in the workers, so it reaches the main
 * thread) unwinds the test as a TIMEOUT; a worker that overruns plat_wait
 * gets SIGUSR1, which unwinds its work item (PLAT_ABORTED). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tools/hosted/hosted.h"
#include "arch/x86/cpuenv.h"
#include "arch/x86/cpuinfo.h"
#include "arch/x86/tsc_read.h"
#include "kernel/platform.h"
#include "kernel/report.h"
#include "kernel/test.h"

#define MAX_THREADS 1024

struct worker {
	pthread_t tid;
	int linux_cpu;
	volatile bool online, lost;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	plat_fn fn;
	void *arg;
	volatile uint64_t work_seq, done_seq;
	volatile int status;
	sigjmp_buf jb;
	volatile sig_atomic_t in_work;
};

static struct worker workers[MAX_THREADS];
static unsigned nworkers;
static __thread int my_index = -1;
static __thread volatile sig_atomic_t unsafe_depth, deferred_sig;
static uint64_t hz;

/* main thread's catch point for the running case */
static sigjmp_buf case_jb;
static volatile sig_atomic_t in_case;
static volatile sig_atomic_t case_signal;
static volatile uintptr_t case_fault_addr;

/* per-test allocations */
struct alloc {
	void *p;
	size_t n;
	struct alloc *next;
};
static struct alloc *allocs;
static pthread_mutex_t alloc_mu = PTHREAD_MUTEX_INITIALIZER;

uint64_t plat_lost_us(void)
{
	return T_LOST_BASE_US;	/* threads on Linux: no boot calibration */
}

uint64_t plat_tsc_hz(void)
{
	return hz;
}

const char *plat_strerror(int rc)
{
	switch (rc) {
	case PLAT_OK: return "ok";
	case PLAT_TIMEOUT: return "no answer (thread lost)";
	case PLAT_FAULT: return "signal (fault)";
	case PLAT_ABORTED: return "overran, aborted by SIGUSR1";
	case PLAT_OFFLINE: return "CPU offline";
	case PLAT_BUSY: return "CPU busy";
	default: return "invalid request";
	}
}

unsigned plat_ncpus(void)
{
	return nworkers;
}

bool plat_online(unsigned cpu)
{
	return cpu < nworkers && workers[cpu].online && !workers[cpu].lost;
}

unsigned plat_this_cpu(void)
{
	return my_index < 0 ? 0 : (unsigned)my_index;
}

uint32_t plat_cpu_apic_id(unsigned cpu)
{
	return cpu < nworkers ? (uint32_t)workers[cpu].linux_cpu : 0xffffffffu;
}

uint64_t plat_irq_save(void)
{
	return 0;
}

void plat_irq_restore(uint64_t flags)
{
	(void)flags;
}

void *plat_alloc(size_t bytes)
{
	size_t n = (bytes + 4095) & ~(size_t)4095;

	hosted_unsafe_enter();
	void *p = mmap(NULL, n ? n : 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct alloc *a = malloc(sizeof(*a));

	if (p == MAP_FAILED || !a) {
		free(a);
		hosted_unsafe_leave();
		return NULL;
	}
	*a = (struct alloc){ p, n ? n : 4096, NULL };
	pthread_mutex_lock(&alloc_mu);
	a->next = allocs;
	allocs = a;
	pthread_mutex_unlock(&alloc_mu);
	hosted_unsafe_leave();
	return p;
}

static void free_allocs(void)
{
	/* called after the case's timer is off: no deferral needed */
	pthread_mutex_lock(&alloc_mu);
	while (allocs) {
		struct alloc *a = allocs;

		allocs = a->next;
		munmap(a->p, a->n);
		free(a);
	}
	pthread_mutex_unlock(&alloc_mu);
}

static bool idle(const struct worker *w)
{
	return __atomic_load_n(&w->done_seq, __ATOMIC_ACQUIRE) == w->work_seq;
}

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (my_index > 0 && workers[my_index].in_work) {
		siglongjmp(workers[my_index].jb, sig);
	}
	if (my_index <= 0 && in_case) {
		case_signal = sig;
		case_fault_addr = (uintptr_t)si->si_addr;
		siglongjmp(case_jb, sig);
	}
	/* Outside any test: the hosted equivalent of a panic. */
	static const char msg[] = "ringlab: PANIC: fatal signal outside any test\n";
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do */
	}
	_exit(3);
}

static void deliver(int sig)
{
	if (sig == SIGUSR1 && my_index > 0 && workers[my_index].in_work)
		siglongjmp(workers[my_index].jb, SIGUSR1);
	if (sig == SIGALRM && in_case) {
		case_signal = SIGALRM;
		siglongjmp(case_jb, SIGALRM);
	}
}

static void abort_handler(int sig)
{
	if (unsafe_depth)
		deferred_sig = sig;
	else
		deliver(sig);
}

static void alarm_handler(int sig)
{
	if (unsafe_depth)
		deferred_sig = sig;
	else
		deliver(sig);
}

void hosted_unsafe_enter(void)
{
	unsafe_depth++;
}

void hosted_unsafe_leave(void)
{
	if (--unsafe_depth == 0 && deferred_sig) {
		int sig = deferred_sig;

		deferred_sig = 0;
		deliver(sig);
	}
}

static void *worker_main(void *p)
{
	struct worker *w = p;
	sigset_t set;

	my_index = (int)(w - workers);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	w->online = true;
	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (idle(w))
			pthread_cond_wait(&w->cv, &w->mu);
		plat_fn fn = w->fn;
		void *arg = w->arg;
		uint64_t seq = w->work_seq;

		pthread_mutex_unlock(&w->mu);
		int sig = sigsetjmp(w->jb, 1);

		if (sig == 0) {
			w->in_work = 1;
			fn(arg);
			w->in_work = 0;
			w->status = PLAT_OK;
		} else {
			w->in_work = 0;
			w->status = sig == SIGUSR1 ? PLAT_ABORTED : PLAT_FAULT;
		}
		__atomic_store_n(&w->done_seq, seq, __ATOMIC_RELEASE);
	}
	return NULL;
}

int plat_post(unsigned cpu, plat_fn fn, void *arg)
{
	if (cpu >= nworkers || !fn || cpu == plat_this_cpu())
		return PLAT_INVALID;
	if (!plat_online(cpu))
		return PLAT_OFFLINE;
	struct worker *w = &workers[cpu];

	pthread_mutex_lock(&w->mu);
	if (!idle(w)) {
		pthread_mutex_unlock(&w->mu);
		return PLAT_BUSY;
	}
	w->fn = fn;
	w->arg = arg;
	w->status = PLAT_OK;
	__atomic_store_n(&w->work_seq, w->work_seq + 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return PLAT_OK;
}

static bool wait_idle(struct worker *w, uint64_t ms)
{
	uint64_t end = lfence_rdtsc() + plat_ns_to_cycles(ms * 1000000ull);

	while (!idle(w)) {
		if (lfence_rdtsc() > end)
			return false;
		sched_yield();
	}
	return true;
}

int plat_wait(unsigned cpu, uint64_t timeout_ms)
{
	if (cpu >= nworkers)
		return PLAT_INVALID;
	struct worker *w = &workers[cpu];

	if (w->lost)
		return PLAT_OFFLINE;
	if (wait_idle(w, timeout_ms))
		return w->status;
	pthread_kill(w->tid, SIGUSR1);
	if (wait_idle(w, 200))
		return PLAT_ABORTED;
	w->lost = true;
	w->online = false;
	rep_error("hosted", "thread for cpu %u (Linux CPU %d) stopped answering; left out", cpu,
		  w->linux_cpu);
	return PLAT_TIMEOUT;
}

/* sigsetjmp value for plat_abort_case(): no signal has this number */
#define CASE_ABORT 1000

void plat_abort_case(void)
{
	if (my_index > 0 || !in_case) {
		fprintf(stderr, "ringlab-hosted: plat_abort_case() outside a test body on CPU 0\n");
		abort();
	}
	siglongjmp(case_jb, CASE_ABORT);
}

const struct cpuinfo *plat_cpu_info(void)
{
	static struct cpuinfo ci;
	static bool read;

	if (!read) {
		cpuinfo_read(&ci);
		read = true;
	}
	return &ci;
}

/* No ACPI OEM ID or loader name in user space: CPUID alone. */
static const struct cpu_env *env_get(void)
{
	static struct cpu_env env;
	static bool done;

	if (!done) {
		cpu_env_classify(plat_cpu_info(), NULL, NULL, &env);
		done = true;
	}
	return &env;
}

/* CPUID.1:ECX[31], the bit every hypervisor sets for its guests (SDM
 * vol. 2A CPUID, "not used: always returns 0" on hardware): user space has
 * no firmware tables to tell emulators apart. */
bool plat_ring0(void)
{
	return false;
}

bool plat_under_emulator(void)
{
	return plat_cpu_info()->hypervisor;
}

uint64_t plat_emulated_mbps(void)
{
	return 0;
}

unsigned plat_cpu_probes(const struct cpu_probe_result **out)
{
	*out = NULL;
	return 0;
}

const char *plat_env(void)
{
	return env_get()->name;
}

const char *plat_env_note(void)
{
	return env_get()->note;
}

/* One topology value of a Linux CPU from sysfs, or -1. */
static long topo_value(int linux_cpu, const char *what)
{
	char path[96];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", linux_cpu, what);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

enum cpu_rel plat_cpu_relation(unsigned a, unsigned b)
{
	if (a == b)
		return REL_SELF;
	if (a >= nworkers || b >= nworkers)
		return REL_OTHER_PACKAGE;
	int x = workers[a].linux_cpu, y = workers[b].linux_cpu;
	long px = topo_value(x, "physical_package_id"), py = topo_value(y, "physical_package_id");

	if (px < 0 || py < 0 || px != py)
		return REL_OTHER_PACKAGE;
	long cx = topo_value(x, "core_id"), cy = topo_value(y, "core_id");

	if (cx < 0 || cy < 0 || cx != cy)
		return REL_SAME_PACKAGE;
	return REL_SMT_SIBLING;
}

/* ---- the run's state (kernel/platform.h accessors) ---- */

extern const char ringlab_version[];
static const struct options *run_options;

void hosted_set_options(const struct options *o)
{
	run_options = o;
}

const struct options *plat_options(void)
{
	return run_options;
}

const struct acpi_info *plat_acpi(void)
{
	return NULL;	/* no firmware tables in user space */
}

const struct boot_info *plat_boot_info(void)
{
	return NULL;	/* no multiboot information */
}

const char *plat_version(void)
{
	return ringlab_version;
}

uint64_t plat_ram_bytes(void)
{
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

bool plat_fb_range(uint64_t *pa, uint64_t *len)
{
	(void)pa;
	(void)len;
	return false;
}

bool plat_nmi_watch_available(void)
{
	return false;	/* SIGALRM stops every overrun: no interrupts-off spin */
}

void plat_panic(const char *why)
{
	hosted_unsafe_enter();	/* no unwinding from here on */
	rep_panic_line(why);
	rep_exit("panic", 3);
	rep_integrity();
	fflush(stdout);
	_exit(3);
}

static void arm_alarm(uint64_t ms)
{
	struct itimerval it = { { 0, 0 }, { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* The case's deferred actions (t_defer), each under the catch point and a
 * budget of its own; one that faults or overruns fails the case and the
 * next one still runs (t_defer_run forgets each before calling it). */
static void run_deferred(struct test_ctx *t)
{
	while (t->ndefer) {
		int sig = sigsetjmp(case_jb, 1);
		char why[200];

		if (sig == 0) {
			in_case = 1;
			arm_alarm(T_DEFER_BUDGET_MS);
			t_defer_run(t);
			in_case = 0;
			continue;
		}
		in_case = 0;
		if (sig == CASE_ABORT)
			continue;	/* t_abort() recorded why */
		if (sig == SIGALRM)
			snprintf(why, sizeof(why), "a deferred action (t_defer) overran its %u ms",
				 T_DEFER_BUDGET_MS);
		else
			snprintf(why, sizeof(why),
				 "a deferred action (t_defer) ended by signal %d (%s) at address 0x%llx",
				 sig, strsignal(sig), (unsigned long long)case_fault_addr);
		/* a timeout or an earlier failure keeps its result line */
		if (t->result == RES_TIMEOUT || t->result == RES_FAIL) {
			t_diag(t, "also failed: %s", why);
			t->failures++;
		} else {
			t_fail(t, "%s", why);
		}
	}
}

void plat_run_case(struct test_ctx *t)
{
	struct itimerval it = { { 0, 0 }, { (time_t)(t->budget_ms / 1000),
					   (suseconds_t)(t->budget_ms % 1000) * 1000 } };
	int sig = sigsetjmp(case_jb, 1);

	if (sig == 0) {
		in_case = 1;
		setitimer(ITIMER_REAL, &it, NULL);
		t->tc->fn(t);
	} else if (sig == CASE_ABORT) {
		/* t_abort(): the case recorded why it stopped */
		if (t->result != RES_FAIL) {
			t->result = RES_FAIL;
			rl_snprintf(t->reason, sizeof(t->reason), "case aborted");
		}
	} else if (sig == SIGALRM) {
		t->result = RES_TIMEOUT;
		rl_snprintf(t->reason, sizeof(t->reason),
			    "budget of %llu ms exceeded; stopped by SIGALRM",
			    (unsigned long long)t->budget_ms);
	} else {
		t->result = RES_FAIL;
		rl_snprintf(t->reason, sizeof(t->reason), "unexpected signal %d (%s) at address 0x%llx",
			    sig, strsignal(sig), (unsigned long long)case_fault_addr);
	}
	in_case = 0;
	run_deferred(t);
	plat_counters_close();
	arm_alarm(0);
	for (unsigned i = 1; i < nworkers; i++)
		if (plat_online(i) && !idle(&workers[i]))
			(void)plat_wait(i, 100);
	free_allocs();
}

static uint64_t calibrate(bool quick)
{
	struct timespec a, b;
	uint64_t best = 0;

	/* TSC against CLOCK_MONOTONIC_RAW (not slewed by NTP), median of 3. */
	uint64_t v[3];

	for (int i = 0; i < 3; i++) {
		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		uint64_t t0 = lfence_rdtsc();
		uint64_t ns;

		do {
			clock_gettime(CLOCK_MONOTONIC_RAW, &b);
			ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000ull + (uint64_t)b.tv_nsec -
			     (uint64_t)a.tv_nsec;
		} while (ns < (quick ? 20000000ull : 100000000ull));
		uint64_t t1 = lfence_rdtsc();

		v[i] = (uint64_t)(((unsigned __int128)(t1 - t0) * 1000000000ull) / ns);
	}
	for (int i = 0; i < 3; i++) {
		int less = 0;

		for (int j = 0; j < 3; j++)
			less += v[j] < v[i];
		if (less == 1)
			best = v[i];
	}
	return best ? best : v[0];
}

unsigned hosted_platform_init(bool quick, unsigned limit, char *err, size_t errsz)
{
	struct sigaction sa;
	cpu_set_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = abort_handler;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = alarm_handler;
	sigaction(SIGALRM, &sa, NULL);

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, errsz, "sched_getaffinity: %s", strerror(errno));
		return 0;
	}
	int cpuids[MAX_THREADS];
	unsigned n = 0;

	for (int c = 0; c < CPU_SETSIZE && n < MAX_THREADS; c++)
		if (CPU_ISSET(c, &set))
			cpuids[n++] = c;
	if (limit && n > limit)
		n = limit;
	nworkers = n;
	my_index = 0;
	workers[0].linux_cpu = cpuids[0];
	workers[0].online = true;
	CPU_ZERO(&set);
	CPU_SET(cpuids[0], &set);
	sched_setaffinity(0, sizeof(set), &set);
	hz = calibrate(quick);
	for (unsigned i = 1; i < n; i++) {
		struct worker *w = &workers[i];
		pthread_attr_t attr;

		w->linux_cpu = cpuids[i];
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->cv, NULL);
		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(cpuids[i], &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (pthread_create(&w->tid, &attr, worker_main, w) != 0) {
			snprintf(err, errsz, "pthread_create for CPU %d failed", cpuids[i]);
			nworkers = i;
			break;
		}
		pthread_attr_destroy(&attr);
	}
	/* wait for the workers to come up */
	for (unsigned i = 1; i < nworkers; i++)
		for (int k = 0; k < 2000 && !workers[i].online; k++)
			usleep(1000);
	return nworkers;
}
