/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Companion files: what a collector writes next to its trace OUTPUT
 * (OUTPUT.names, OUTPUT.map, OUTPUT.tasks, ...), and where a reader looks
 * for them when it is given OUTPUT.  One place for the naming rule.
 */
#ifndef TB_COMPANION_H
#define TB_COMPANION_H

#define TB_COMPANION_NAMES	".names"
#define TB_COMPANION_MAP	".map"
#define TB_COMPANION_TASKS	".tasks"
#define TB_COMPANION_TFILE	".tfile"
#define TB_COMPANION_JSON	".json"

/*
 * INPUT followed by @suffix, allocated; NULL for stdin/stdout ("-" or
 * NULL) and when out of memory (errno ENOMEM).
 */
char *tb_companion_path(const char *input, const char *suffix);

#endif /* TB_COMPANION_H */
