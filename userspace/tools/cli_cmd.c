// SPDX-License-Identifier: GPL-2.0
/* The tools' one command dispatcher; see cli_cmd.h. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli_cmd.h"
#include "cli_opt.h"
#include "tool.h"

const struct cli_cmd *cli_cmd_find(const struct cli_cmd *cmds,
				   const char *name, bool old)
{
	const struct cli_cmd *c;

	for (c = cmds; c->name; c++) {
		const char *n = old ? c->old_name : c->name;

		if (n && !strcmp(n, name))
			return c;
	}
	return NULL;
}

void cli_cmd_list(const struct cli_cmd *cmds, char *buf, size_t size)
{
	const struct cli_cmd *c;
	size_t len = 0;

	buf[0] = 0;
	for (c = cmds; c->name && len < size; c++)
		len += snprintf(buf + len, size - len, "%s%s",
				c == cmds ? "" : ", ", c->name);
}

const struct cli_cmd *cli_cmd_pick(const struct cli_cmd *cmds,
				   const char *what, int argc, char **argv)
{
	const struct cli_cmd *c;
	char names[512];

	if (argc < 1) {
		cli_cmd_list(cmds, names, sizeof(names));
		cli_opt_usage("no %s given (%s)", what, names);
	}
	c = cli_cmd_find(cmds, argv[0], false);
	if (!c)
		cli_opt_usage("unknown %s '%s'", what, argv[0]);
	return c;
}

int cli_cmd_select(const struct cli_cmd *cmds, const char *what,
		   int argc, char **argv, void (*help)(FILE *f),
		   void (*check)(void *ctx, const struct cli_cmd *c,
				 int argc, char **argv),
		   void *ctx)
{
	const struct cli_cmd *c;

	if (argc >= 1 && !strcmp(argv[0], "help")) {
		help(stdout);
		return TB_EXIT_OK;
	}
	c = cli_cmd_pick(cmds, what, argc, argv);
	if (check)
		check(ctx, c, argc, argv);
	return c->fn(argc, argv);
}

static void device_check(void *ctx, const struct cli_cmd *c, int argc,
			 char **argv)
{
	const struct cli_cmd_device *d = ctx;

	d->check(c, argc, argv);
	*d->fd = tool_open_device(*d->path, O_RDWR);
}

int cli_cmd_device(const struct cli_cmd_device *d, int argc, char **argv)
{
	struct tb_opt_parser p;
	int c, ret;

	tb_cli_init(argv[0]);
	tb_opt_init(&p, d->spec, NULL, argc, argv, 1);
	while ((c = cli_opt_next(&p, d->usage)))
		if (c == 'D')
			*d->path = p.arg;
	*d->fd = -1;
	ret = cli_cmd_select(d->cmds, "command", p.nr_operands, p.operands,
			     d->usage, device_check, (void *)d);
	if (*d->fd >= 0)
		close(*d->fd);
	return ret;
}
