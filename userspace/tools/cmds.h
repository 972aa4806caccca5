/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of the `tracebuf` front command (tracebuf.c), one file
 * each.  An entry takes the arguments after the subcommand's name, with
 * argv[0] naming the command as the user typed it ("tracebuf record", or
 * an old name such as "tracebuf-record"), and returns the exit status
 * (cli/cli.h).
 */
#ifndef TB_CMDS_H
#define TB_CMDS_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct tb_opt_spec;

int cmd_record(int argc, char **argv);
int cmd_bpf(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_fdr(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_workload(int argc, char **argv);
int cmd_crash(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_top(int argc, char **argv);

/* Each one's command line (cli/opt.h): options, commands, operands. */
extern const struct tb_opt_spec cmd_record_spec;
extern const struct tb_opt_spec cmd_bpf_spec;
extern const struct tb_opt_spec cmd_ctl_spec;
extern const struct tb_opt_spec cmd_fdr_spec;
extern const struct tb_opt_spec cmd_convert_spec;
extern const struct tb_opt_spec cmd_decode_spec;
extern const struct tb_opt_spec cmd_workload_spec;
extern const struct tb_opt_spec cmd_crash_spec;
extern const struct tb_opt_spec cmd_report_spec;
extern const struct tb_opt_spec cmd_diff_spec;
extern const struct tb_opt_spec cmd_script_spec;
extern const struct tb_opt_spec cmd_top_spec;

#endif /* TB_CMDS_H */
