// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tracebuf_fdr: exact records per event class, stream validity under
 * nesting, flight-recorder overwrite, streaming loss accounting, control
 * cycles, module unload while capturing, CPU hotplug and bad ioctl args.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>

#include "tb_harness.h"
#include "tb_selftest.h"
#include "fdr_util.h"

#define ID(space, key)	TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)

static int unpin(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < 64; i++)
		CPU_SET(i, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static uint8_t *capture_read(int fd, size_t *len)
{
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		return NULL;
	return fdr_read_all(fd, len);
}

/* ------------------------------------------------------------ records */

struct sys_seen {
	pid_t tid;
	uint32_t want;
	int enters, exits, bad_block;
	int args_ok;
	uint64_t args[3];
	int cpu;
	uint64_t last_t;
	int back_in_time;
};

static void sys_cb(const struct fdr_rec *r, void *arg)
{
	struct sys_seen *s = arg;

	if (r->kind != FDR_R_FUNC || r->tid != s->tid || r->id != s->want)
		return;
	if (r->pid != getpid() || r->cpu != s->cpu)
		s->bad_block++;
	if (r->t < s->last_t)
		s->back_in_time++;
	s->last_t = r->t;
	if (r->type == 1) {
		s->exits++;
	} else {
		s->enters++;
		if (r->type == 3 && r->nargs == 3 && r->args[0] == s->args[0] &&
		    r->args[1] == s->args[1] && r->args[2] == s->args[2])
			s->args_ok++;
	}
}

TEST(syscall_records_exact)
{
	struct sys_seen s = { 0 };
	char err[128];
	size_t len = 0;
	uint8_t *buf;
	int fd, i;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	s.tid = gettid();
	s.want = ID(SYSCALL, SYS_getppid);
	s.cpu = 0;
	ASSERT_LE(1, fdr_check(buf, len, sys_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1000, s.enters);
	EXPECT_EQ(1000, s.exits);
	EXPECT_EQ(0, s.bad_block);
	EXPECT_EQ(0, s.back_in_time);
	free(buf);

	/* Three arguments: Entry_Args plus three CallArgument records. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 0, 3));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 10; i++)
		syscall(SYS_lseek, -1L, 0x1234L + i, 2L);
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	memset(&s, 0, sizeof(s));
	s.tid = gettid();
	s.want = ID(SYSCALL, SYS_lseek);
	s.args[0] = (uint64_t)-1;
	s.args[1] = 0x1234;	/* only the first call matches exactly */
	s.args[2] = 2;
	ASSERT_LE(1, fdr_check(buf, len, sys_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(10, s.enters);
	EXPECT_EQ(10, s.exits);
	EXPECT_EQ(1, s.args_ok);
	free(buf);
	close(fd);
	unpin();
}

/* The exact bytes of one getppid call: enter then exit, same id. */
struct raw_seen {
	pid_t tid;
	int pairs;
	size_t enter_off;
	const uint8_t *base;
};

static void raw_cb(const struct fdr_rec *r, void *arg)
{
	struct raw_seen *s = arg;
	const uint8_t *p = s->base + r->off;
	uint32_t id = ID(SYSCALL, SYS_getppid);

	if (r->kind != FDR_R_FUNC || r->tid != s->tid || r->id != id)
		return;
	if (r->type == 0) {
		s->enter_off = r->off;
		return;
	}
	/* Exit follows its enter directly: 8-byte records, bit 0 clear. */
	if (s->enter_off && r->off == s->enter_off + 8 &&
	    fdr_le32(s->base + s->enter_off) == id << 4 &&
	    fdr_le32(p) == (id << 4 | 1 << 1))
		s->pairs++;
	s->enter_off = 0;
}

TEST(syscall_bytes_exact)
{
	struct raw_seen s = { 0 };
	char err[128];
	size_t len = 0;
	uint8_t *buf;
	int fd, i;

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	s.tid = gettid();
	s.base = buf;
	ASSERT_LE(1, fdr_check(buf, len, raw_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	/* An IRQ may split a pair now and then; nearly all are adjacent. */
	EXPECT_LE(90, s.pairs);
	free(buf);
	close(fd);
}

/* ------------------------------------------------------------ classes */

/*
 * Work items per worker task: they run one after another, so an entry
 * while the task's last one is open, or an exit with none open after the
 * task's first work record, is a lost record.  The task's first record may
 * be an exit (started before START) and its last an entry (running at
 * STOP): a worker on another CPU can straddle either.
 */
struct work_task {
	pid_t tid;
	int open;
	int records;
};

struct class_seen {
	int space_enter[8], space_exit[8];
	struct work_task work[256];
	int nr_work, work_lost, work_done;
	uint32_t vmstat_id;
	int vmstat_enter, vmstat_exit;
	int tty_irq, tty_enter, tty_exit;
	int marker_ok;
	int fork_child, exit_child;
	pid_t child;
	int faults_in_range;
	uint64_t lo, hi;
};

static void work_seen(struct class_seen *s, const struct fdr_rec *r)
{
	struct work_task *w = NULL;
	int i;

	for (i = 0; i < s->nr_work && !w; i++)
		if (s->work[i].tid == r->tid)
			w = &s->work[i];
	if (!w) {
		if (s->nr_work == ARRAY_SIZE(s->work)) {
			s->work_lost++;	/* cannot tell: fail loudly */
			return;
		}
		w = &s->work[s->nr_work++];
		w->tid = r->tid;
	}
	if (r->type == 1) {
		if (!w->open && w->records)
			s->work_lost++;
		if (w->open)
			s->work_done++;
		w->open = 0;
	} else {
		if (w->open)
			s->work_lost++;
		w->open = 1;
	}
	w->records++;
}

/* The id of work function @fn in the NAMES text, or 0. */
static uint32_t work_id(const char *names, const char *fn)
{
	char want[128];
	const char *line;
	unsigned int id;

	snprintf(want, sizeof(want), " work %s\n", fn);
	line = strstr(names, want);
	if (!line)
		return 0;
	while (line > names && line[-1] != '\n')
		line--;
	return sscanf(line, "%x", &id) == 1 ? id : 0;
}

static void vmstat_cb(const struct fdr_rec *r, void *arg)
{
	struct class_seen *s = arg;

	if (r->kind != FDR_R_FUNC || r->id != s->vmstat_id)
		return;
	r->type == 1 ? s->vmstat_exit++ : s->vmstat_enter++;
}

static void class_cb(const struct fdr_rec *r, void *arg)
{
	struct class_seen *s = arg;
	unsigned int space = TRACEBUF_FDR_ID_SPACE(r->id);

	if (r->kind == FDR_R_CUSTOM) {
		if (r->size == 11 && !memcmp(r->data, "hello world", 11) &&
		    r->tid == gettid())
			s->marker_ok++;
		return;
	}
	if (space >= 8)
		return;
	if (r->type == 1)
		s->space_exit[space]++;
	else
		s->space_enter[space]++;
	if (s->tty_irq >= 0 && r->id == ID(IRQ, s->tty_irq))
		r->type == 1 ? s->tty_exit++ : s->tty_enter++;
	if (space == TRACEBUF_FDR_SPACE_WORK)
		work_seen(s, r);
	if (r->id == ID(TASK, 0) && r->nargs == 1 && r->args[0] == (uint64_t)s->child)
		s->fork_child++;
	if (r->id == ID(TASK, 1) && r->nargs == 1 && r->args[0] == (uint64_t)s->child &&
	    r->tid == s->child)
		s->exit_child++;
	if (r->id == ID(FAULT, 0) && r->nargs == 1 && r->args[0] >= s->lo &&
	    r->args[0] < s->hi && r->tid == gettid())
		s->faults_in_range++;
}

/* IRQ number of a device in /proc/interrupts, or -1. */
static int irq_of(const char *dev)
{
	char line[512];
	int irq = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *end = line + strcspn(line, "\n");

		*end = 0;
		if (end - line > (long)strlen(dev) &&
		    !strcmp(end - strlen(dev), dev) && sscanf(line, " %d:", &irq) == 1)
			break;
		irq = -1;
	}
	fclose(f);
	return irq;
}

/* Work items on every CPU: vmstat's refresh runs schedule_on_each_cpu(). */
static void make_work(void)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd >= 0) {
		write(fd, "1\n", 2);
		close(fd);
	}
}

static void make_irqs(void)
{
	char buf[2048];
	int fd = open("/dev/ttyS0", O_WRONLY | O_NOCTTY);

	if (fd < 0)
		return;
	memset(buf, 'x', sizeof(buf));
	write(fd, buf, sizeof(buf));
	tcdrain(fd);
	close(fd);
}

TEST(all_classes)
{
	struct class_seen s = { 0 };
	char err[128], *names;
	struct tracebuf_fdr_names n = { 0 };
	size_t len;
	uint8_t *buf;
	char *mem;
	int fd, i;

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, fdr_all(), TRACEBUF_FDR_MODE_FLIGHT,
				4 << 20, 1));
	s.tty_irq = irq_of("ttyS0");
	ASSERT_LE(0, s.tty_irq);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	make_irqs();
	make_work();
	EXPECT_EQ(11, write(fd, "hello world", 11));
	s.child = fork();
	ASSERT_LE(0, s.child);
	if (s.child == 0)
		_exit(0);
	waitpid(s.child, NULL, 0);
	mem = mmap(NULL, 16 << 12, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	s.lo = (uintptr_t)mem;
	s.hi = s.lo + (16 << 12);
	for (i = 0; i < 16; i++)
		mem[i << 12] = 1;
	usleep(300000);		/* timers, RCU, vmstat work */
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, class_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_LT(0, s.space_enter[TRACEBUF_FDR_SPACE_SYSCALL]);
	EXPECT_LT(0, s.space_enter[TRACEBUF_FDR_SPACE_IRQ]);
	EXPECT_LT(0, s.space_exit[TRACEBUF_FDR_SPACE_IRQ]);
	EXPECT_LT(0, s.space_enter[TRACEBUF_FDR_SPACE_SOFTIRQ]);
	EXPECT_LT(0, s.space_exit[TRACEBUF_FDR_SPACE_SOFTIRQ]);
	EXPECT_EQ(1, s.marker_ok);
	EXPECT_EQ(1, s.fork_child);
	EXPECT_EQ(1, s.exit_child);
	if (fdr_all() & TRACEBUF_FDR_FAULT)
		EXPECT_EQ(16, s.faults_in_range);
	EXPECT_LT(0, s.tty_enter);
	EXPECT_EQ(s.tty_enter, s.tty_exit);
	EXPECT_LE(2, s.space_enter[TRACEBUF_FDR_SPACE_WORK]);
	/* Every work item that started and ended in the capture, paired. */
	EXPECT_LE(2, s.work_done);
	EXPECT_EQ(0, s.work_lost);
	munmap(mem, 16 << 12);

	/* Names: size query, then the text. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n));
	ASSERT_LT(0U, n.size);
	names = calloc(1, n.size + 1);
	n.buf = (uintptr_t)names;
	n.len = n.size;
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n));
	EXPECT_NE(NULL, strstr(names, "3000001 softirq TIMER\n"));
	snprintf(err, sizeof(err), "%x irq ttyS0\n", ID(IRQ, s.tty_irq));
	EXPECT_NE(NULL, strstr(names, err));
	EXPECT_NE(NULL, strstr(names, " work refresh_vm_stats\n")) TH_LOG("%s", names);
	/*
	 * make_work()'s items ran and ended inside the capture (the write
	 * waits for them): exactly as many exits as entries, one per CPU.
	 */
	s.vmstat_id = work_id(names, "refresh_vm_stats");
	ASSERT_NE(0U, s.vmstat_id);
	ASSERT_LE(1, fdr_check(buf, len, vmstat_cb, &s, err, sizeof(err)));
	EXPECT_LE(nr_cpus(), s.vmstat_enter);
	EXPECT_EQ(s.vmstat_enter, s.vmstat_exit);
	free(buf);
	free(names);
	close(fd);
}

static void *volatile bad_ptr;

TEST(marker_limits)
{
	char big[TRACEBUF_FDR_MARKER_MAX + 1];
	int fd = fdr_open_stopped();

	ASSERT_LE(0, fd);
	memset(big, 'm', sizeof(big));
	EXPECT_EQ(-1, write(fd, "x", 1));	/* not running */
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 0, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(-1, write(fd, "x", 1));	/* class off */
	EXPECT_EQ(EINVAL, errno);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 0, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(-1, write(fd, big, sizeof(big)));
	EXPECT_EQ(EMSGSIZE, errno);
	EXPECT_EQ((ssize_t)sizeof(big) - 1, write(fd, big, sizeof(big) - 1));
	EXPECT_EQ(-1, write(fd, bad_ptr, 10));
	EXPECT_EQ(EFAULT, errno);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
}

/* Context switches: every switch starts a block for the next task. */
struct switch_seen {
	pid_t a, b;
	int blocks_a, blocks_b, last_block;
};

static void switch_cb(const struct fdr_rec *r, void *arg)
{
	struct switch_seen *s = arg;

	if (r->kind != FDR_R_FUNC || (int)r->block == s->last_block)
		return;
	s->last_block = r->block;
	if (r->tid == s->a)
		s->blocks_a++;
	else if (r->tid == s->b)
		s->blocks_b++;
}

TEST(sched_switch_blocks)
{
	struct switch_seen s = { .last_block = -1 };
	int ping[2], pong[2], fd, i;
	char err[128], c = 0;
	size_t len = 0;
	uint8_t *buf;

	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, pipe(ping));
	ASSERT_EQ(0, pipe(pong));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	s.b = fork();
	ASSERT_LE(0, s.b);
	if (s.b == 0) {
		for (i = 0; i < 100; i++)
			if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	s.a = gettid();
	/* Both on CPU 0: each round trip is two context switches. */
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(1, write(ping[1], &c, 1));
		ASSERT_EQ(1, read(pong[0], &c, 1));
	}
	waitpid(s.b, NULL, 0);
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, switch_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("blocks with records: parent %d, child %d", s.blocks_a, s.blocks_b);
	EXPECT_LE(100, s.blocks_a);
	EXPECT_LE(100, s.blocks_b);
	free(buf);
	close(fd);
	unpin();
}

/* ------------------------------------------------------------ nesting */

struct nest_seen {
	int depth[65536];	/* per tid (mod): open IRQ/softirq frames */
	int underflow, irq, softirq, getppid, back_in_time;
	uint64_t last_t;
	pid_t tid;
};

static void nest_cb(const struct fdr_rec *r, void *arg)
{
	struct nest_seen *s = arg;
	unsigned int space = TRACEBUF_FDR_ID_SPACE(r->id);
	int *d = &s->depth[r->tid & 0xffff];

	if (r->kind != FDR_R_FUNC)
		return;
	/* The loop's task stays on CPU 1: its times only go forward. */
	if (r->tid == s->tid) {
		if (r->t < s->last_t)
			s->back_in_time++;
		s->last_t = r->t;
	}
	if (r->tid == s->tid && r->id == ID(SYSCALL, SYS_getppid) && r->type == 0)
		s->getppid++;
	if (space != TRACEBUF_FDR_SPACE_IRQ && space != TRACEBUF_FDR_SPACE_SOFTIRQ)
		return;
	if (r->type == 1) {
		if (*d > 0)
			(*d)--;
		else
			s->underflow++;
	} else {
		(*d)++;
		if (r->tid == s->tid)
			space == TRACEBUF_FDR_SPACE_IRQ ? s->irq++ : s->softirq++;
	}
}

static volatile int stop_noise;
static int noise_fd = -1;

/* Keeps the VM's PCI UART (tb_irq_tty(), wired to a null sink) interrupting. */
static void *noise(void *arg)
{
	char buf[1024];

	/* Off CPU 1, so that only the syscall loop runs there. */
	pin_cpu(0);
	memset(buf, 'x', sizeof(buf));
	while (!stop_noise) {
		if (write(noise_fd, buf, sizeof(buf)) < 0)
			break;
		tcdrain(noise_fd);
	}
	return NULL;
}

/* How many times @irq has fired on @cpu, from /proc/interrupts. */
static long irq_count_on(int irq, int cpu)
{
	char line[1024], *p;
	long v = -1;
	int n, i;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %d:%n", &i, &n) != 1 || i != irq)
			continue;
		p = line + n;
		for (i = 0; i <= cpu; i++)
			v = strtol(p, &p, 10);
		break;
	}
	fclose(f);
	return v;
}

static struct nest_seen nest;

/* Seconds since @t0 on the monotonic clock. */
static double secs_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

TEST_TIMEOUT(nesting_stress, 90)
{
	const int chunk = 10000, max_chunks = 60, want_irqs = 100;
	struct termios tio;
	struct timespec t0;
	char err[128], path[64];
	long irq0, irq1 = 0;
	volatile unsigned long spin;
	pthread_t th;
	size_t len;
	uint8_t *buf;
	int fd, irq, loops = 0, i;
	FILE *f;

	/* Device IRQs on CPU 1, where the syscall loop runs. */
	snprintf(path, sizeof(path), "/dev/%s", tb_irq_tty());
	noise_fd = open(path, O_WRONLY | O_NOCTTY);
	ASSERT_LE(0, noise_fd) TH_LOG("the VM's PCI UART is missing");
	ASSERT_EQ(0, tcgetattr(noise_fd, &tio));
	cfmakeraw(&tio);
	ASSERT_EQ(0, tcsetattr(noise_fd, TCSANOW, &tio));
	irq = irq_of(tb_irq_tty());
	ASSERT_LE(0, irq);
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "1\n");
	ASSERT_EQ(0, fclose(f));

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
				TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED,
				TRACEBUF_FDR_MODE_FLIGHT, 16 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	stop_noise = 0;
	ASSERT_EQ(0, pthread_create(&th, NULL, noise, NULL));
	ASSERT_EQ(0, pin_cpu(1));
	irq0 = irq_count_on(irq, 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/*
	 * Until CPU 1 has taken enough UART IRQs.  How many come per
	 * syscall depends on how fast this machine is next to the UART, so
	 * the syscalls stop where the ring would start overwriting them,
	 * and the task then spins in user mode, where the IRQs still land
	 * in it, for at most a bounded time.
	 */
	while (irq1 < want_irqs && secs_since(&t0) < tb_bound(20)) {
		if (loops < max_chunks * chunk) {
			for (i = 0; i < chunk; i++)
				syscall(SYS_getppid);
			loops += chunk;
		} else {
			for (spin = 0; spin < 10000000; spin++)
				;
		}
		irq1 = irq_count_on(irq, 1) - irq0;
	}
	stop_noise = 1;
	pthread_join(th, NULL);
	close(noise_fd);
	buf = capture_read(fd, &len);
	ASSERT_NE(NULL, buf);
	memset(&nest, 0, sizeof(nest));
	nest.tid = gettid();
	ASSERT_LE(1, fdr_check(buf, len, nest_cb, &nest, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("%d getppid, UART IRQs on CPU 1: %ld; IRQs in the loop's task: %d, softirqs: %d, %zu bytes",
	       loops, irq1, nest.irq, nest.softirq, len);
	EXPECT_EQ(loops, nest.getppid);
	EXPECT_EQ(0, nest.underflow);
	EXPECT_EQ(0, nest.back_in_time);
	/* CPU 1 runs nothing else: most of its IRQs nest in the loop's task. */
	EXPECT_LE(want_irqs, irq1);
	EXPECT_LE(irq1 * 3 / 4, nest.irq);
	free(buf);
	close(fd);
	unpin();
}

/* ------------------------------------------------------------ modes */

struct seq_seen {
	int n, first, last, gaps;
	int lost_reports;
};

static void seq_cb(const struct fdr_rec *r, void *arg)
{
	struct seq_seen *s = arg;
	int v;

	if (r->kind != FDR_R_CUSTOM)
		return;
	if (r->size > 15 && !memcmp(r->data, "tracebuf: lost ", 15)) {
		s->lost_reports++;
		return;
	}
	if (r->size != 32 || sscanf((const char *)r->data, "seq %d", &v) != 1)
		return;
	if (s->n && v != s->last + 1)
		s->gaps++;
	if (!s->n)
		s->first = v;
	s->last = v;
	s->n++;
}

static void write_markers_from(int fd, int first, int count)
{
	char m[32];
	int i;

	for (i = first; i < first + count; i++) {
		memset(m, ' ', sizeof(m));
		m[snprintf(m, sizeof(m), "seq %d", i)] = ' ';
		write(fd, m, sizeof(m));
	}
}

static void write_markers(int fd, int count)
{
	write_markers_from(fd, 0, count);
}

/* SCHED_FIFO at @prio for the calling thread; 0: back to SCHED_OTHER. */
static int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, prio ? SCHED_FIFO : SCHED_OTHER, &sp);
}

TEST(flight_keeps_newest)
{
	struct tracebuf_fdr_stats st;
	struct seq_seen s = { 0 };
	char err[128];
	size_t len;
	uint8_t *buf;
	int fd, total = 20000;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	/*
	 * Every switch away from the writer opens a new block (80 bytes of
	 * header), so fewer markers fit.  Kernel threads preempt the loop
	 * in a slow kernel (the debug kernel of make check-debug): no switch
	 * while writing keeps the count the same in every kernel.
	 */
	ASSERT_EQ(0, set_fifo(50));
	write_markers(fd, total);
	ASSERT_EQ(0, set_fifo(0));
	/* Snapshot while running, then read it. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	buf = fdr_read_all(fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	ASSERT_LE(1, fdr_check(buf, len, seq_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("kept %d markers %d..%d of %d, %zu bytes", s.n, s.first, s.last,
	       total, len);
	EXPECT_EQ(total - 1, s.last);
	EXPECT_EQ(0, s.gaps);
	/* 48 bytes each: at least 15 of the 16 pages stay (4 KiB each). */
	EXPECT_LE(15 * 4096 / 48 - 15, s.n);
	EXPECT_EQ((uint64_t)total, st.written);
	EXPECT_EQ(0ULL, st.dropped);
	EXPECT_EQ((uint64_t)total, (uint64_t)s.n + st.overwritten);
	EXPECT_LT(0, s.lost_reports);
	/* A second read of the same file is at EOF. */
	EXPECT_EQ(0, read(fd, err, sizeof(err)));
	free(buf);
	ioctl(fd, TRACEBUF_FDR_IOC_STOP);
	close(fd);
	unpin();
}

TEST(stream_loss_exact)
{
	struct tracebuf_fdr_stats st;
	struct tracebuf_fdr_cpu_stats cs[FDR_MAX_CPUS];
	struct seq_seen s = { 0 };
	char err[128];
	size_t len;
	uint8_t *buf;
	int fd, total = 5000;

	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_STREAM, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	write_markers(fd, total);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	buf = fdr_read_all(fd, &len);
	ASSERT_NE(NULL, buf);
	memset(&st, 0, sizeof(st));
	st.cpus = (uintptr_t)cs;
	st.nr_cpus = FDR_MAX_CPUS;
	st.cpu_size = sizeof(cs[0]);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st));
	/* The array pointer comes back as given: the struct can be reused. */
	EXPECT_EQ((uintptr_t)cs, st.cpus);
	ASSERT_LE(1, fdr_check(buf, len, seq_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("stream: %d markers, written %llu dropped %llu", s.n,
	       (unsigned long long)st.written, (unsigned long long)st.dropped);
	EXPECT_EQ((uint64_t)total, st.written + st.dropped);
	EXPECT_EQ((uint64_t)s.n, st.written);
	EXPECT_EQ(0, s.first);
	EXPECT_EQ(0, s.gaps);
	EXPECT_LT(0ULL, st.dropped);
	EXPECT_EQ(0ULL, st.overwritten);
	EXPECT_EQ(st.written, cs[0].written);
	EXPECT_EQ(st.dropped, cs[0].dropped);
	free(buf);
	close(fd);
	unpin();
}

/*
 * A write that finds a loss waiting must report it before its own record,
 * even when its block and page have room (the write path's fast case).
 * A snapshot the parent holds and does not read keeps CPU 0's ring from
 * reusing pages, so once it is full a child there loses its next large
 * marker while the page still has room for small records; the child's
 * next syscall records, which take the fast path when nothing is
 * waiting, must report that loss at once.  A write path that reported
 * losses only when it opens a block or a page would leave it out: the
 * child stops before it needs another page.
 */
struct loss_sum {
	uint64_t lost;
	int reports;
};

static void loss_cb(const struct fdr_rec *r, void *arg)
{
	struct loss_sum *s = arg;
	unsigned long long n;

	if (r->kind == FDR_R_CUSTOM && r->cpu == 0 && r->size > 15 &&
	    sscanf((const char *)r->data, "tracebuf: lost %llu events", &n) == 1) {
		s->lost += n;
		s->reports++;
	}
}

TEST(loss_reported_at_next_write)
{
	struct tracebuf_fdr_cpu_stats cs[FDR_MAX_CPUS];
	struct tracebuf_fdr_stats st;
	struct loss_sum s = { 0 };
	volatile int *shared;	/* [0]: child started, [1]: held, [2]: done */
	char err[128], big[992];
	int fd, hfd, rfd, i, status;
	uint8_t *buf;
	size_t len;
	pid_t child;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs 2 CPUs");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_MARKER,
				TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	memset(big, 'x', sizeof(big));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct tracebuf_fdr_stats cst;

		/* Gone with the test, even when an assertion ends it early. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin_cpu(0))
			_exit(1);
		write(fd, big, sizeof(big));
		shared[0] = 1;
		while (!shared[1])
			usleep(1000);
		/* 16 pages of 4 KiB, three of these to a page. */
		for (i = 0; i < 100; i++) {
			write(fd, big, sizeof(big));
			memset(&cst, 0, sizeof(cst));
			cst.cpus = (uintptr_t)cs;
			cst.nr_cpus = FDR_MAX_CPUS;
			cst.cpu_size = sizeof(cs[0]);
			if (ioctl(fd, TRACEBUF_FDR_IOC_STATS, &cst) ||
			    cs[0].dropped)
				break;
		}
		for (i = 0; i < 10; i++)
			syscall(SYS_getppid);
		shared[2] = 1;
		_exit(cs[0].dropped ? 0 : 2);
	}
	ASSERT_EQ(0, pin_cpu(1));
	for (i = 0; !shared[0] && i < 5000; i++)
		usleep(1000);
	ASSERT_TRUE(shared[0]) TH_LOG("the child did not start on CPU 0");
	/* Hold CPU 0's pages from the oldest one on. */
	hfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, hfd);
	ASSERT_EQ(0, ioctl(hfd, TRACEBUF_FDR_IOC_SNAPSHOT));
	shared[1] = 1;
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	close(hfd);
	memset(&st, 0, sizeof(st));
	st.cpus = (uintptr_t)cs;
	st.nr_cpus = FDR_MAX_CPUS;
	st.cpu_size = sizeof(cs[0]);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st));
	TH_LOG("CPU 0: written %llu, dropped %llu, overwritten %llu, %llu bytes",
	       (unsigned long long)cs[0].written,
	       (unsigned long long)cs[0].dropped,
	       (unsigned long long)cs[0].overwritten,
	       (unsigned long long)cs[0].bytes);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child lost nothing");
	rfd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, rfd);
	buf = fdr_read_all(rfd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, loss_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("CPU 0 dropped %llu, %d reports of %llu",
	       (unsigned long long)cs[0].dropped, s.reports,
	       (unsigned long long)s.lost);
	ASSERT_LT(0ULL, cs[0].dropped);
	/* Nothing may have been overwritten, or reports could be gone. */
	ASSERT_EQ(0ULL, cs[0].overwritten);
	EXPECT_EQ(cs[0].dropped, s.lost);
	free(buf);
	close(rfd);
	close(fd);
	munmap((void *)shared, 4096);
	unpin();
}

struct reader_arg {
	int fd;
	size_t len;
	uint8_t *buf;
};

static void *stream_reader(void *p)
{
	struct reader_arg *a = p;

	a->buf = fdr_read_all(a->fd, &a->len);
	return NULL;
}

TEST(stream_blocking_reader)
{
	struct tracebuf_fdr_config c = {
		.classes = TRACEBUF_FDR_MARKER,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = 64 << 10,
		.wakeup = 4096,
	};
	struct tracebuf_fdr_stats st;
	struct reader_arg a = { 0 };
	struct seq_seen s = { 0 };
	struct pollfd pfd;
	pthread_t th;
	char err[128];
	int fd, rfd, i, total = 20000 + 200;

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	rfd = open(TB_FDR_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, rfd);
	pfd.fd = rfd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 0));		/* nothing committed yet */
	write_markers(fd, 200);			/* 9600 bytes > wakeup */
	EXPECT_EQ(1, poll(&pfd, 1, 1000));
	close(rfd);
	a.fd = open(TB_FDR_DEV, O_RDONLY);
	ASSERT_LE(0, a.fd);
	ASSERT_EQ(0, pthread_create(&th, NULL, stream_reader, &a));
	for (i = 200; i < total; i += 100) {
		write_markers_from(fd, i, 100);
		usleep(1000);
	}
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	pthread_join(th, NULL);
	ASSERT_NE(NULL, a.buf);
	ASSERT_EQ(0, fdr_stats(fd, &st));
	ASSERT_LE(1, fdr_check(a.buf, a.len, seq_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	TH_LOG("reader got %d markers, dropped %llu", s.n,
	       (unsigned long long)st.dropped);
	EXPECT_EQ((uint64_t)total, st.written + st.dropped);
	EXPECT_EQ((uint64_t)s.n, st.written);
	free(a.buf);
	close(a.fd);
	close(fd);
}

/*
 * A block open for more than 2^32 clock ticks needs a TSCWrap before its next
 * delta.  4.4 s is that many ticks of any clock of 1 GHz or more.
 */
struct wrap_seen {
	int n;
	unsigned int block[2];
	uint64_t t[2];
};

static void wrap_cb(const struct fdr_rec *r, void *arg)
{
	struct wrap_seen *s = arg;

	if (r->kind == FDR_R_CUSTOM && r->size == 4 && !memcmp(r->data, "wrap", 4) &&
	    s->n < 2) {
		s->block[s->n] = r->block;
		s->t[s->n++] = r->t;
	}
}

/* Write @val to a sysctl or sysfs file: 0, or -1 with errno (EINVAL...). */
static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

TEST(tsc_wrap)
{
	struct wrap_seen s;
	char err[128];
	size_t len = 0;
	uint8_t *buf;
	int fd, try;
	uint64_t t0;

	struct sched_param sp = { .sched_priority = 99 };
	char rt_runtime[32] = "";
	/*
	 * Long enough for the counter's low 32 bits to wrap: 4.4 s at the
	 * TSC's GHz rates; 2^32 ticks and a tenth at a slower counter
	 * (arm64's CNTVCT_EL0: 62.5 MHz under qemu, about 76 s).
	 */
	double spin = 4.4, hz = fdr_counter_hz();
	FILE *f;

	if (hz && 1.1 * 4294967296.0 / hz > spin)
		spin = 1.1 * 4294967296.0 / hz;
	/*
	 * SCHED_FIFO without RT throttling, and without the soft-lockup
	 * watchdog's stopper work (every 4 s): nothing switches us out.
	 */
	f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r+");
	if (f) {
		if (!fgets(rt_runtime, sizeof(rt_runtime), f))
			rt_runtime[0] = 0;
		rewind(f);
		fprintf(f, "-1\n");
		fclose(f);
	}
	write_file("/proc/sys/kernel/soft_watchdog", "0\n");
	ASSERT_EQ(0, pin_cpu(1));
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &sp));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	for (try = 0; try < 3; try++) {
		ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
					TRACEBUF_FDR_MODE_FLIGHT, 64 << 10, 0));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		ASSERT_EQ(4, write(fd, "wrap", 4));
		/* Spin without syscalls, so the block stays open. */
		t0 = now_ns();
		while (now_ns() - t0 < spin * 1e9)
			;
		ASSERT_EQ(4, write(fd, "wrap", 4));
		buf = capture_read(fd, &len);
		ASSERT_NE(NULL, buf);
		memset(&s, 0, sizeof(s));
		ASSERT_LE(1, fdr_check(buf, len, wrap_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
		free(buf);
		ASSERT_EQ(2, s.n);
		if (s.block[0] == s.block[1])
			break;
		TH_LOG("switched out while spinning (blocks %u %u), again",
		       s.block[0], s.block[1]);
	}
	close(fd);
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	unpin();
	write_file("/proc/sys/kernel/soft_watchdog", "1\n");
	if (rt_runtime[0])
		write_file("/proc/sys/kernel/sched_rt_runtime_us", rt_runtime);
	if (try == 3)
		SKIP(return, "the spinning task was always switched out");
	ASSERT_LT(0xffffffffULL, s.t[1] - s.t[0])
		TH_LOG("clock of %llu Hz: no wrap in %.1f s", (unsigned long long)fdr_hz, spin);
	EXPECT_LE(1, fdr_tsc_wraps);
	/* The spin, in seconds, as the trace's own clock measured it. */
	EXPECT_LE(spin, (double)(s.t[1] - s.t[0]) / fdr_hz);
	EXPECT_GT(spin + 1.0, (double)(s.t[1] - s.t[0]) / fdr_hz);
}

/*
 * The header's cycle_frequency is the unit of the timestamps, whichever
 * clock (fdr_clock=auto: the TSC where the kernel trusts it; local:
 * local_clock() ns) recorded them: 200 ms apart must read as about 0.2 s.
 */
struct marker_times {
	int n;
	uint64_t t[2];
};

static void marker_times_cb(const struct fdr_rec *r, void *arg)
{
	struct marker_times *m = arg;

	if (r->kind == FDR_R_CUSTOM && r->size == 4 &&
	    !memcmp(r->data, "tick", 4) && m->n < 2)
		m->t[m->n++] = r->t;
}

static int set_clock_param(const char *val)
{
	return write_file("/sys/module/tracebuf/parameters/fdr_clock", val);
}

static int read_file_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok ? 0 : -1;
}

TEST(clock_choice)
{
	static const char *const clocks[] = { "local", "auto" };
	char cs[64] = "", err[128];
	struct marker_times m;
	size_t len = 0;
	unsigned int i;
	uint8_t *buf;
	double secs;
	int fd;

	EXPECT_EQ(-1, set_clock_param("bogus"));
	EXPECT_EQ(EINVAL, errno);
	read_file_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       cs, sizeof(cs));
	/*
	 * Both markers on one CPU: a stream holds each CPU's blocks in
	 * turn, so markers written on two CPUs would come in CPU order,
	 * not in time order.
	 */
	ASSERT_EQ(0, pin_cpu(0));
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, set_clock_param(clocks[i]));
		ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_MARKER,
					TRACEBUF_FDR_MODE_FLIGHT, 0, 0));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		ASSERT_EQ(4, write(fd, "tick", 4));
		usleep(200000);
		ASSERT_EQ(4, write(fd, "tick", 4));
		buf = capture_read(fd, &len);
		ASSERT_NE(NULL, buf);
		memset(&m, 0, sizeof(m));
		ASSERT_LE(1, fdr_check(buf, len, marker_times_cb, &m, err,
				       sizeof(err))) TH_LOG("%s", err);
		free(buf);
		ASSERT_EQ(2, m.n);
		secs = (double)(m.t[1] - m.t[0]) / fdr_hz;
		EXPECT_LE(0.2, secs) TH_LOG("%s: %.3f s at %llu Hz", clocks[i],
					    secs, (unsigned long long)fdr_hz);
		EXPECT_GT(1.0, secs) TH_LOG("%s: %.3f s at %llu Hz", clocks[i],
					    secs, (unsigned long long)fdr_hz);
		if (i == 0) {
			EXPECT_EQ(1000000000ULL, fdr_hz);
		} else if (!strcmp(cs, "tsc")) {
			/* The VM's TSC: reliable (tsc=reliable), the clocksource. */
			EXPECT_NE(1000000000ULL, fdr_hz);
		} else if (fdr_counter_hz()) {
			/* arm64: CNTVCT_EL0, the header says CNTFRQ_EL0. */
			EXPECT_EQ(fdr_counter_hz(), fdr_hz);
		}
	}
	close(fd);
	unpin();
	ASSERT_EQ(0, set_clock_param("auto"));
}

/* ------------------------------------------------------------ control */

TEST(start_stop_cycles)
{
	static const uint32_t sizes[] = { 64 << 10, 256 << 10, 1 << 20, 128 << 10 };
	char err[128];
	size_t len;
	uint8_t *buf;
	int fd, i;

	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	for (i = 0; i < 6; i++) {
		uint32_t mode = i & 1 ? TRACEBUF_FDR_MODE_STREAM :
				TRACEBUF_FDR_MODE_FLIGHT;

		ASSERT_EQ(0, fdr_config(fd, fdr_all(), mode, sizes[i % 4],
					i % 7));
		ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
		EXPECT_EQ(-EBUSY, fdr_config(fd, fdr_all(), mode, 0, 0));
		EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_START));
		EXPECT_EQ(EBUSY, errno);
		syscall(SYS_getppid);
		usleep(2000);
		buf = capture_read(fd, &len);
		ASSERT_NE(NULL, buf);
		ASSERT_LE(0, fdr_check(buf, len, NULL, NULL, err, sizeof(err))) TH_LOG("%s", err);
		free(buf);
		EXPECT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));	/* idempotent */
	}
	close(fd);
}

TEST(unload_while_capturing)
{
	int fd = fdr_open_stopped(), i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, fdr_all(), TRACEBUF_FDR_MODE_STREAM,
				256 << 10, 6));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	EXPECT_EQ(-EWOULDBLOCK, tb_module_unload());	/* open file pins it */
	close(fd);
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, tb_module_unload());
	ASSERT_EQ(0, tb_module_load());
	TB_WAIT_FOR(!access(TB_FDR_DEV, F_OK), 2);
	fd = open(TB_FDR_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	close(fd);
}

struct cpu_seen {
	int per_cpu[FDR_MAX_CPUS];
};

static void cpu_cb(const struct fdr_rec *r, void *arg)
{
	struct cpu_seen *s = arg;

	if (r->kind == FDR_R_FUNC)
		s->per_cpu[r->cpu]++;
}

static int set_online(int cpu, int on)
{
	char path[64];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", on) < 0;
	return fclose(f) || ret ? -1 : 0;
}

TEST(cpu_hotplug)
{
	struct cpu_seen s = { 0 };
	char err[128];
	size_t len = 0;
	uint8_t *buf;
	int fd, i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_SCHED |
				TRACEBUF_FDR_IRQ, TRACEBUF_FDR_MODE_FLIGHT,
				1 << 20, 0));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_START));
	ASSERT_EQ(0, pin_cpu(1));
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, set_online(1, 0));
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	/* CPU 1 is offline: its data is still in the snapshot. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	buf = fdr_read_all(fd, &len);
	ASSERT_EQ(0, set_online(1, 1));
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, cpu_cb, &s, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_LT(100, s.per_cpu[1]);
	EXPECT_LT(100, s.per_cpu[0]);
	free(buf);
	ASSERT_EQ(0, pin_cpu(1));
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	/* This file read its snapshot to EOF: SNAPSHOT re-arms it. */
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STOP));
	ASSERT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	buf = fdr_read_all(fd, &len);
	ASSERT_NE(NULL, buf);
	ASSERT_LE(1, fdr_check(buf, len, NULL, NULL, err, sizeof(err))) TH_LOG("%s", err);
	free(buf);
	close(fd);
	unpin();
}

/* Hammer every entry point from several threads: no oops, no hang. */
static volatile int chaos_stop;

static void *chaos(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int fd = open(TB_FDR_DEV, O_RDWR | O_NONBLOCK);
	unsigned int toggles = 0;
	char buf[8192];

	if (fd < 0)
		return NULL;
	while (!chaos_stop) {
		struct tracebuf_fdr_stats st;
		struct tracebuf_fdr_names n = { 0 };

		/*
		 * Only thread 1 starts and stops, a few times a second: each
		 * start/stop live-patches kernel text, and multi-threaded
		 * TCG can livelock a vCPU on text patched under it (seen
		 * with plain ftrace event toggling, without this module).
		 */
		switch (rand_r(&seed) % 9) {
		case 0:
		case 1:
		case 2:
			if (arg == (void *)1 && !(++toggles & 15))
				ioctl(fd, toggles & 16 ? TRACEBUF_FDR_IOC_START :
					  TRACEBUF_FDR_IOC_STOP);
			else	/* EBUSY while running */
				fdr_config(fd, fdr_all(), rand_r(&seed) % 2,
					   (64 << 10) << (rand_r(&seed) % 3),
					   rand_r(&seed) % 7);
			break;
		case 3:
			ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT);
			break;
		case 4:
		case 5:
			read(fd, buf, rand_r(&seed) % 2 ? sizeof(buf) : 7);
			break;
		case 6:
			fdr_stats(fd, &st);
			break;
		case 7:
			ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n);
			break;
		default:
			write(fd, "chaos", 5);
			syscall(SYS_getppid);
			break;
		}
	}
	close(fd);
	return NULL;
}

TEST(concurrent_chaos)
{
	pthread_t th[6];
	int i, fd;

	chaos_stop = 0;
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, chaos, (void *)(uintptr_t)(i + 1)));
	usleep(3000000);
	chaos_stop = 1;
	for (i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	fd = fdr_open_stopped();
	ASSERT_LE(0, fd);
	close(fd);
}

/* ------------------------------------------------------------ bad args */

TEST(bad_ioctls)
{
	struct tracebuf_fdr_config c;
	struct tracebuf_fdr_stats st;
	struct {
		struct tracebuf_fdr_config c;
		uint32_t extra[2];
	} big;
	int fd = fdr_open_stopped();

#define CFG(...) do { struct tracebuf_fdr_config t = { __VA_ARGS__ }; c = t; if (!c.classes) c.classes = 1; } while (0)
	ASSERT_LE(0, fd);
	CFG(.mode = 2);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.classes = 0x80);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.mode = 0);
	c.classes = 0;
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.buf_size = 100000);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.buf_size = 32 << 10);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.buf_size = 128 << 20);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.nr_args = 7);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.reserved = 1);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);
	CFG(.buf_size = 64 << 10, .wakeup = (64 << 10) + 1);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &c));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_GET_CONFIG, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_STATS, NULL));
	EXPECT_EQ(EFAULT, errno);

	/* Larger struct: zero tail accepted, non-zero tail is E2BIG. */
	memset(&big, 0, sizeof(big));
	big.c.classes = TRACEBUF_FDR_SYSCALL;
	EXPECT_EQ(0, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, 0x40, big), &big));
	big.extra[1] = 1;
	EXPECT_EQ(-1, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, 0x40, big), &big));
	EXPECT_EQ(E2BIG, errno);
	/* Smaller than version 1. */
	EXPECT_EQ(-1, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, 0x40, uint32_t), &big));
	EXPECT_EQ(EINVAL, errno);
	/* Larger output struct: zero-filled beyond ours. */
	memset(&big, 0xff, sizeof(big));
	EXPECT_EQ(0, ioctl(fd, _IOR(TRACEBUF_IOC_MAGIC, 0x41, big), &big));
	EXPECT_EQ(0U, big.extra[0] | big.extra[1]);
	EXPECT_EQ((uint32_t)TRACEBUF_FDR_SYSCALL, big.c.classes);

	/* Unknown numbers and wrong directions. */
	EXPECT_EQ(-1, ioctl(fd, _IO(TRACEBUF_IOC_MAGIC, 0x4f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOR(TRACEBUF_IOC_MAGIC, 0x40, c), &c));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOW(TRACEBUF_IOC_MAGIC, 0x42, c), &c));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('x', 0x40)));
	EXPECT_EQ(ENOTTY, errno);

	/* Stats: bad per-CPU entry size or pointer. */
	memset(&st, 0, sizeof(st));
	st.cpus = 8;
	st.nr_cpus = 2;
	st.cpu_size = 3;
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st));
	EXPECT_EQ(EINVAL, errno);
	st.cpu_size = sizeof(struct tracebuf_fdr_cpu_stats);
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st));
	EXPECT_EQ(EFAULT, errno);
	st.cpus = 0;
	st.nr_cpus = 0xffffffff;
	EXPECT_EQ(0, ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st));
	EXPECT_EQ(TRACEBUF_ABI_VERSION, st.abi_version);

	/* Snapshot needs flight-recorder mode. */
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_STREAM, 0, 0));
	EXPECT_EQ(-1, ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, fdr_config(fd, TRACEBUF_FDR_SYSCALL,
				TRACEBUF_FDR_MODE_FLIGHT, 0, 0));
	close(fd);
}

static int open_errno_as(int (*drop)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int fd;

		if (drop())
			_exit(255);
		fd = open(TB_FDR_DEV, O_RDONLY);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(open_needs_perfmon)
{
	EXPECT_EQ(EPERM, open_errno_as(tb_drop_trace_caps));
}

TEST_HARNESS_MAIN
