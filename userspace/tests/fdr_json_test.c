// SPDX-License-Identifier: GPL-2.0
/*
 * trace_event JSON (lib/fdr_json.c) of an FDR file made with the FDR
 * writer: python's json module must load it, there must be one B or E
 * event per function record and one instant per custom event, ts in
 * microseconds, names from the map; llvm-xray convert -f trace_event, when
 * installed, must see as many function events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "fdr_json.h"
#include "fdr_reader.h"
#include "fdr_writer.h"
#include "name_map.h"
#include "tb_test_util.h"

/* Two threads, nested calls with arguments, a custom event. */
static void make_trace(const char *path, uint64_t *functions)
{
	static const uint64_t args[2] = { 7, 8 };
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 2000000000ULL,	/* 2 GHz */
	};
	struct tb_fdr_writer w;
	struct tb_fdr_stats st;
	struct tb_error err;
	FILE *f = fopen(path, "w+b");

	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_begin(&w, 10, 11, 0, 2000, 0, 0);
	tb_fdr_function(&w, TB_FDR_ENTER, 1, 2000, NULL, 0);
	tb_fdr_function(&w, TB_FDR_ENTER_ARGS, 2, 4000, args, 2);
	tb_fdr_custom(&w, 5000, "say \"hi\"\n\x01", 10);
	tb_fdr_function(&w, TB_FDR_EXIT, 2, 6000, NULL, 0);
	tb_fdr_function(&w, TB_FDR_EXIT, 1, 8000, NULL, 0);
	tb_fdr_begin(&w, 10, 12, 1, 3000, 0, 0);
	tb_fdr_function(&w, TB_FDR_ENTER, 3, 3000, NULL, 0);
	tb_fdr_function(&w, TB_FDR_TAIL_EXIT, 3, 3500, NULL, 0);
	tb_fdr_writer_finish(&w);
	rewind(f);
	if (tb_fdr_read(f, NULL, NULL, NULL, &st, &err))
		st.functions = 0;
	*functions = st.functions;
	fclose(f);
}

TEST(valid_json_one_event_per_record)
{
	char *dir = tu_tmpdir(), fdr[256], json[256], *out;
	struct tb_fdr_json_stats st;
	struct tb_name_map names = { 0 };
	struct tb_error err;
	uint64_t functions;
	FILE *in, *o;
	int status;

	snprintf(fdr, sizeof(fdr), "%s/t.fdr", dir);
	snprintf(json, sizeof(json), "%s/t.json", dir);
	make_trace(fdr, &functions);
	ASSERT_EQ(6, functions);
	ASSERT_EQ(0, tb_name_map_add(&names, 1, "outer"));
	ASSERT_EQ(0, tb_name_map_add(&names, 2, "in\"ner"));
	ASSERT_EQ(0, tb_name_map_finish(&names, &err));
	in = fopen(fdr, "rb");
	o = fopen(json, "w");
	ASSERT_EQ(0, tb_fdr_json_write(in, o, &names, &st, &err));
	fclose(in);
	fclose(o);
	EXPECT_EQ(3, st.begins);
	EXPECT_EQ(3, st.ends);
	EXPECT_EQ(1, st.instants);
	EXPECT_EQ(functions, st.begins + st.ends);

	/* Valid JSON; events by phase; names, args, ts in microseconds. */
	out = tu_run(&status, "python3 -c 'import json,sys; "
		     "d=json.load(open(sys.argv[1]))[\"traceEvents\"]; "
		     "print(\"\".join(e[\"ph\"] for e in d)); "
		     "print(d[0][\"name\"], d[0][\"ts\"], d[0][\"pid\"], d[0][\"tid\"]); "
		     "print(d[1][\"name\"], d[1][\"args\"][\"arg1\"]); "
		     "print(repr(d[2][\"args\"][\"data\"]), d[2][\"ts\"]); "
		     "print(d[5][\"name\"], d[5][\"tid\"])' %s", json);
	ASSERT_EQ(0, status) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "BBiEEBE\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "outer 1.0 10 11\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "in\"ner 8\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "'say \"hi\"\\n\\x01' 2.5\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "function 3 12\n")) TH_LOG("%s", out);
	free(out);

	/* llvm-xray's own conversion sees the same function events. */
	out = tu_run(&status, "llvm-xray --version");
	free(out);
	if (!status) {
		out = tu_run(&status, "llvm-xray convert -f trace_event -o %s/x.json %s && "
			     "python3 -c 'import json,sys; "
			     "d=json.load(open(sys.argv[1]))[\"traceEvents\"]; "
			     "print(sum(1 for e in d if e[\"ph\"] in \"BE\"))' %s/x.json",
			     dir, fdr, dir);
		EXPECT_EQ(0, status) TH_LOG("%s", out);
		EXPECT_EQ(6, atoi(out)) TH_LOG("%s", out);
		free(out);
	}
	tb_name_map_free(&names);
	tu_rmdir(dir);
	free(dir);
}

TEST(malformed_input_is_an_error)
{
	struct tb_error err;
	char junk[40] = "not an FDR file at all";
	FILE *in = fmemopen(junk, sizeof(junk), "rb"), *o = tmpfile();

	EXPECT_EQ(-1, tb_fdr_json_write(in, o, NULL, NULL, &err));
	fclose(in);
	fclose(o);
}

TEST_HARNESS_MAIN
