// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf decode -J (issue 27 item 1: JSON where the vocabulary says
 * -J): every XScale input of the corpus decoded both ways, the JSON read
 * by python's json module, and each buffer's messages (offset, kind,
 * count, vector, target, checkpoint), warnings and instruction count
 * compared with the text form's lines, which xscale_test checks.
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_test_util.h"

/* Compares text (argv[1]) and JSON lines (argv[2]) of one decode. */
static const char compare_py[] =
"import json, re, sys\n"
"text = open(sys.argv[1]).read().split('\\n')\n"
"bufs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]\n"
"msgs, warns, counts = [], [], []\n"
"for l in text:\n"
"    m = re.match(r'^ *([0-9a-f]+)  (\\S+) *(.*)$', l)\n"
"    if l.startswith('# buffer '):\n"
"        msgs.append([]); warns.append([])\n"
"    elif l.startswith('# warning: offset 0x'):\n"
"        warns[-1].append(int(l.split()[3].rstrip(':'), 16))\n"
"    elif l.startswith('# ') and 'message(s)' in l:\n"
"        counts.append(int(l.split()[-3]))\n"
"    elif m:\n"
"        f = dict(kv.split('=') for kv in m.group(3).split() if '=' in kv)\n"
"        msgs[-1].append((int(m.group(1), 16), m.group(2), f, m.group(3)))\n"
"assert len(bufs) == len(msgs), (len(bufs), len(msgs))\n"
"n = 0\n"
"for b, tm, tw, ti in zip(bufs, msgs, warns, counts):\n"
"    assert len(b['messages']) == len(tm), (len(b['messages']), len(tm))\n"
"    for j, (o, k, f, rest) in zip(b['messages'], tm):\n"
"        assert (j['offset'], j['kind']) == (o, k), (j, o, k)\n"
"        if 'count' in f: assert j['count'] == int(f['count']), (j, f)\n"
"        if 'vector' in f: assert j['vector'] == int(f['vector'].split('(')[0]), (j, f)\n"
"        if 'target' in f: assert j['target'] == int(f['target'], 16), (j, f)\n"
"        if 'byte' in f: assert j['byte'] == int(f['byte'], 16), (j, f)\n"
"        for c in ('chkpt0', 'chkpt1'):\n"
"            assert (c in rest.split()) == (j.get('checkpoint') == c), (j, rest)\n"
"        n += 1\n"
"    assert sorted(w['offset'] for w in b['warnings']) == sorted(tw), (b['warnings'], tw)\n"
"    assert b['instructions'] == ti, (b['instructions'], ti)\n"
"print(n)\n";

TEST(json_says_what_the_text_says)
{
	char *dir = tu_tmpdir(), *list, *f, *save = NULL, *out, py[300];
	unsigned int files = 0, msgs = 0;
	FILE *s;
	int st;

	if (!tu_have("python3"))
		SKIP(return, "no python3");
	snprintf(py, sizeof(py), "%s/compare.py", dir);
	s = fopen(py, "w");
	ASSERT_NE(NULL, s);
	fputs(compare_py, s);
	fclose(s);
	list = tu_run(&st, "ls data/corpus/xscale/*");
	ASSERT_EQ(0, st);
	for (f = strtok_r(list, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
		int a, b;

		free(tu_run(&a, "%s decode %s >%s/t 2>/dev/null", tu_tool("tracebuf"),
			    f, dir));
		free(tu_run(&b, "%s decode -J %s >%s/j 2>/dev/null",
			    tu_tool("tracebuf"), f, dir));
		/* Both ways the same verdict on the file. */
		EXPECT_EQ(a, b) TH_LOG("%s: text exit %d, JSON exit %d", f, a, b);
		if (a || b)
			continue;
		out = tu_run(&st, "python3 %s %s/t %s/j", py, dir, dir);
		EXPECT_EQ(0, st) TH_LOG("%s: %s", f, out);
		msgs += atoi(out);
		files++;
		free(out);
	}
	/* The corpus holds checkpoints, wraps and suspect traces. */
	EXPECT_LE(5, files);
	EXPECT_LE(100, msgs);
	free(list);
	tu_rmdir(dir);
	free(dir);
}

TEST_HARNESS_MAIN
