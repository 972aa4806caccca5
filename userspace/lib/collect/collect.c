// SPDX-License-Identifier: GPL-2.0
/*
 * The collectors' shared run-time: the traced command, the companion
 * files' paths, the summary and the statistics JSON (collect/collect.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "collect/collect.h"
#include "format/fdr_reader.h"
#include "util/companion.h"
#include "util/output.h"

void tb_collect_on_stop_signals(void (*handler)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Two pipes: the child blocks reading "go" until tracing is on, and
 * exec's errno comes back on a close-on-exec pipe, so that the parent
 * reads either the errno or, when exec succeeded, end of file.
 */
int tb_collect_cmd_fork(struct tb_collect_cmd *c, char *const argv[],
			bool stdout_to_stderr)
{
	int go[2], res[2];
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->go_fd = -1;
	c->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(res, O_CLOEXEC)) {
		int err = errno;

		close(go[0]);
		close(go[1]);
		return -err;
	}
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(go[0]);
		close(go[1]);
		close(res[0]);
		close(res[1]);
		return -err;
	}
	if (pid == 0) {
		sigset_t none;
		char b;
		int err;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		tb_collect_on_stop_signals(SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(go[1]);
		close(res[0]);
		/* No "go": the collector ended before tracing; run nothing. */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		err = 0;
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			err = errno;
		if (!err) {
			execvp(argv[0], argv);
			err = errno;
		}
		if (write(res[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(res[1]);
	c->pid = pid;
	c->go_fd = go[1];
	c->err_fd = res[0];
	return 0;
}

static void cmd_close(struct tb_collect_cmd *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->go_fd = -1;
	c->err_fd = -1;
}

int tb_collect_cmd_start(struct tb_collect_cmd *c)
{
	ssize_t n;
	int err = 0;

	if (write(c->go_fd, "g", 1) != 1)
		err = errno;
	else
		do
			n = read(c->err_fd, &err, sizeof(err));
		while (n < 0 && errno == EINTR);
	if (!err) {
		cmd_close(c);
		return 0;
	}
	cmd_close(c);
	while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
	return -err;
}

void tb_collect_cmd_cancel(struct tb_collect_cmd *c)
{
	/* Closing "go" makes the waiting child exit 127. */
	cmd_close(c);
	if (c->pid > 0)
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	c->pid = 0;
}

bool tb_collect_out_option(struct tb_collect_out *o, int opt,
			   const char *arg)
{
	switch (opt) {
	case 'r':
		o->raw = true;
		break;
	case 'N':
		o->no_tfile = true;
		break;
	case 'J':
		o->json = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'n':
		o->names = arg;
		break;
	case 'j':
		o->stats_json = arg;
		break;
	default:
		return false;
	}
	return true;
}

int tb_collect_paths_init(struct tb_collect_paths *p, const char *output)
{
	memset(p, 0, sizeof(*p));
	if (!strcmp(output, "-"))
		return 0;
	if (asprintf(&p->names, "%s.names", output) < 0)
		p->names = NULL;
	if (asprintf(&p->map, "%s.map", output) < 0)
		p->map = NULL;
	if (asprintf(&p->tfile, "%s.tfile", output) < 0)
		p->tfile = NULL;
	if (asprintf(&p->json, "%s.json", output) < 0)
		p->json = NULL;
	p->tasks = tb_companion_path(output, TB_COMPANION_TASKS);
	if (p->names && p->map && p->tfile && p->json && p->tasks)
		return 0;
	tb_collect_paths_free(p);
	return -ENOMEM;
}

void tb_collect_paths_free(struct tb_collect_paths *p)
{
	free(p->names);
	free(p->map);
	free(p->tfile);
	free(p->json);
	free(p->tasks);
	memset(p, 0, sizeof(*p));
}

void tb_collect_post_files(struct tb_fdr_post_files *f,
			   const struct tb_collect_paths *p,
			   const char *output, const struct tb_collect_out *o)
{
	bool file = strcmp(output, "-");

	f->trace = file ? output : NULL;
	f->names = o->names ? o->names : p->names;
	f->map = p->map;
	f->tfile = o->no_tfile ? NULL : p->tfile;
	f->json = o->json ? p->json : NULL;
}

void tb_collect_tasks_scan(struct tb_task_map *m)
{
	int ret = tb_task_map_scan(m, "/proc");

	if (ret < 0)
		tb_cli_warn("cannot list the tasks in /proc: %s; threads will have no names",
			    strerror(-ret));
}

int tb_collect_tasks_write(const struct tb_fdr_post *p,
			   const struct tb_task_map *m, const char *path)
{
	struct tb_output o;
	int ret;

	ret = tb_output_open(&o, path);
	if (ret)
		return ret;
	ret = tb_fdr_post_tasks(p, m, o.f);
	if (ret) {
		tb_output_abort(&o);
		return ret;
	}
	return tb_output_commit(&o);
}

const char *tb_collect_clock(const void *raw, size_t len)
{
	struct tb_fdr_header h;
	struct tb_error err;

	if (len < TB_FDR_HEADER_SIZE ||
	    tb_fdr_reader_parse_header(raw, &h, &err))
		return "unknown";
	if (h.cycle_frequency == 1000000000)
		return "local_clock";
#if defined(__x86_64__) || defined(__i386__)
	return "tsc";
#else
	return "counter";
#endif
}

char *tb_collect_cmdline(int argc, char *const argv[])
{
	char *text = NULL, *c;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int a;

	if (!f)
		return NULL;
	for (a = 0; a < argc && argv[a]; a++)
		fprintf(f, "%s%s", a ? " " : "", argv[a]);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	/* One line: a word's line end would start a key of its own. */
	for (c = text; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	return text;
}

char *tb_collect_capture_text(const char *collector, uint32_t classes,
			      const char *clock, bool this_machine,
			      const char *arguments)
{
	const char *sep = "";
	struct utsname u;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "collector %s\n", collector);
	/* 0: not known (a crash dump does not say). */
	if (classes)
		fputs("classes ", f);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (classes & tb_fdr_classes[i].bit) {
			fprintf(f, "%s%s", sep, tb_fdr_classes[i].name);
			sep = ",";
		}
	fprintf(f, "%sclock %s\n", classes ? "\n" : "", clock);
	if (this_machine && !uname(&u))
		fprintf(f, "hostname %s\nrelease %s\n", u.nodename, u.release);
	if (arguments)
		fprintf(f, "arguments %s\n", arguments);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int tb_collect_count(struct tb_collect_stats *s, const char *key,
		     uint64_t value)
{
	if (s->nr_counts == TB_COLLECT_MAX_COUNTS)
		return -ENOSPC;
	s->counts[s->nr_counts].key = key;
	s->counts[s->nr_counts].value = value;
	s->nr_counts++;
	return 0;
}

int tb_collect_status(int status)
{
	if (status == -1)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

void tb_collect_summary(FILE *f, const struct tb_collect_stats *s,
			const char *class_tail, const char *lost_tail)
{
	const struct tb_fdr_post_files *fl = s->files;
	uint64_t events = 0;
	size_t i;

	/*
	 * Records as the recorder counts them (an entry, an exit, a marker
	 * each), events as tracebuf report does (a call, a point event, a
	 * marker each): Documentation/tools.rst.
	 */
	fprintf(f, "%s: %llu records in %.2f s -> %s (%llu bytes, %llu blocks)\n",
		tb_cli_prog(), (unsigned long long)s->events, s->duration,
		s->output, (unsigned long long)s->bytes,
		(unsigned long long)s->blocks);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (s->classes & tb_fdr_classes[i].bit)
			events += s->per_class[i];
	if (s->kfuncs)
		events += s->kfunc_calls;
	fprintf(f, "  %llu events:", (unsigned long long)events);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		if (s->classes & tb_fdr_classes[i].bit)
			fprintf(f, " %s %llu", tb_fdr_classes[i].name,
				(unsigned long long)s->per_class[i]);
	if (s->kfuncs)
		fprintf(f, ", kernel function calls %llu",
			(unsigned long long)s->kfunc_calls);
	fprintf(f, "%s\n", class_tail ? class_tail : "");
	/* What the sched and syscall classes carry besides calls. */
	if (s->classes & (TRACEBUF_FDR_SCHED | TRACEBUF_FDR_SYSCALL)) {
		fprintf(f, "  with");
		if (s->classes & TRACEBUF_FDR_SCHED)
			fprintf(f, " %llu context switches, %llu wake-ups%s",
				(unsigned long long)s->switches,
				(unsigned long long)s->wakeups,
				s->classes & TRACEBUF_FDR_SYSCALL ? "," : "");
		if (s->classes & TRACEBUF_FDR_SYSCALL)
			fprintf(f, " %llu failed system calls",
				(unsigned long long)s->errors);
		fprintf(f, " (tracebuf report shows them)\n");
	}
	fprintf(f, "  lost %llu records%s", (unsigned long long)s->lost,
		lost_tail ? lost_tail : "");
	if (s->status != -1) {
		if (WIFEXITED(s->status))
			fprintf(f, "; command exited %d", WEXITSTATUS(s->status));
		else if (WIFSIGNALED(s->status))
			fprintf(f, "; command killed by signal %d",
				WTERMSIG(s->status));
	}
	fprintf(f, "\n");
	if (s->unmatched)
		fprintf(f, "  left out %llu exits whose entry precedes the capture or was lost (-r keeps them)\n",
			(unsigned long long)s->unmatched);
	if (!fl || !fl->names)
		return;
	if (s->raw)
		fprintf(f, "  names: %s (kernel ids; no map or tfile with -r)\n",
			fl->names);
	else
		fprintf(f, "  names: %s, map: %s (llvm-xray -m), tfile: %s\n",
			fl->names, fl->map ? fl->map : "-",
			fl->tfile ? fl->tfile : "-");
	if (fl->json)
		fprintf(f, "  trace_event JSON: %s\n", fl->json);
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static void json_classes(FILE *f, const char *key, const uint64_t *v)
{
	size_t i;

	fprintf(f, "\"%s\": {", key);
	for (i = 0; i < TB_FDR_NR_CLASSES; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "",
			tb_fdr_classes[i].name, (unsigned long long)v[i]);
	fprintf(f, "}, ");
}

void tb_collect_exclude(struct tb_collect_stats *s, const struct rusage *a,
			const struct rusage *b)
{
	struct timeval d;

	timersub(&b->ru_utime, &a->ru_utime, &d);
	timersub(&s->ru1.ru_utime, &d, &s->ru1.ru_utime);
	timersub(&b->ru_stime, &a->ru_stime, &d);
	timersub(&s->ru1.ru_stime, &d, &s->ru1.ru_stime);
	s->ru1.ru_nvcsw -= b->ru_nvcsw - a->ru_nvcsw;
}

void tb_collect_json(FILE *f, const struct tb_collect_stats *s)
{
	double user = tv_s(s->ru1.ru_utime) - tv_s(s->ru0.ru_utime);
	double sys = tv_s(s->ru1.ru_stime) - tv_s(s->ru0.ru_stime);
	unsigned int i;

	fprintf(f, "{\"events\": %llu, \"bytes\": %llu, \"blocks\": %llu, ",
		(unsigned long long)s->events, (unsigned long long)s->bytes,
		(unsigned long long)s->blocks);
	fprintf(f, "\"lost\": %llu, \"unmatched\": %llu, ",
		(unsigned long long)s->lost, (unsigned long long)s->unmatched);
	for (i = 0; i < s->nr_counts; i++)
		fprintf(f, "\"%s\": %llu, ", s->counts[i].key,
			(unsigned long long)s->counts[i].value);
	json_classes(f, "classes", s->per_class);
	if (s->lost_per_class)
		json_classes(f, "lost_classes", s->lost_per_class);
	fprintf(f, "\"duration_s\": %.6f, \"reader_user_s\": %.6f, ",
		s->duration, user);
	fprintf(f, "\"reader_sys_s\": %.6f, \"reader_ns\": %.0f, ",
		sys, (user + sys) * 1e9);
	/*
	 * A reader that blocked was woken: once per voluntary switch, but
	 * for those that waited for its own writes (O_DIRECT), counted apart.
	 */
	fprintf(f, "\"wakeups\": %ld, \"write_waits\": %ld, ",
		s->ru1.ru_nvcsw - s->ru0.ru_nvcsw - s->write_waits,
		s->write_waits);
	fprintf(f, "\"setup_cpu_s\": %.6f, \"command_status\": %d}\n",
		tv_s(s->ru0.ru_utime) + tv_s(s->ru0.ru_stime),
		tb_collect_status(s->status));
}

int tb_collect_write_json(const char *path, const struct tb_collect_stats *s)
{
	struct tb_output o;
	int ret;

	ret = tb_output_open(&o, path);
	if (ret)
		return ret;
	tb_collect_json(o.f, s);
	return tb_output_commit(&o);
}
