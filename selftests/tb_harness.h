/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness as every tracebuf selftest and host test
 * (userspace/tests) runs it.  Include this in place of kselftest_harness.h
 * (both Makefiles refuse a test that does not), so that no test's pass
 * depends on how fast the machine is:
 *
 * TB_SLOW (tb_knobs.h) multiplies every test's timeout, the harness's
 * default of 30 s included, and TB_SCALE the counts of the tests that
 * can run long.
 */
#ifndef TB_HARNESS_H
#define TB_HARNESS_H

#include <string.h>

#include "kselftest_harness.h"
#include "tb_knobs.h"

/*
 * The harness of 6.1 takes each test's timeout from a compile-time
 * constant (TEST_TIMEOUT_DEFAULT, 30 s, or the TEST_*_TIMEOUT argument):
 * stretch them all by TB_SLOW before the tests run.
 */
static inline void tb_stretch_timeouts(void)
{
	double slow = tb_env_factor("TB_SLOW");
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout = (int)(t->timeout * slow + 0.5);
}

/*
 * -t NAME (repeated: any of them) runs only the tests of that name, or of
 * FIXTURE.NAME, in every variant: the harness of 6.1 has no such option
 * and runs every test of a binary whatever its arguments, so that one
 * test of fdr_stress_test in a guest took its 26.
 */
static inline int tb_test_wanted(const struct __fixture_metadata *f,
				 const struct __test_metadata *t,
				 int argc, char **argv)
{
	size_t n = strlen(f->name);
	int i;

	for (i = 1; i + 1 < argc; i++) {
		const char *a = argv[i + 1];

		if (strcmp(argv[i], "-t"))
			continue;
		if (!strcmp(a, t->name) ||
		    (!strncmp(a, f->name, n) && a[n] == '.' &&
		     !strcmp(a + n + 1, t->name)))
			return 1;
	}
	return 0;
}

static inline void tb_select_tests(int argc, char **argv)
{
	struct __test_metadata *t, *next, *last;
	struct __fixture_metadata *f;
	int i, any = 0;

	for (i = 1; i + 1 < argc; i++)
		any |= !strcmp(argv[i], "-t");
	if (!any)
		return;
	for (f = __fixture_list; f; f = f->next) {
		/* The lists' shape: next ends in NULL, the head's prev is the last. */
		last = NULL;
		for (t = f->tests, f->tests = NULL; t; t = next) {
			next = t->next;
			if (!tb_test_wanted(f, t, argc, argv))
				continue;
			t->next = NULL;
			if (last) {
				last->next = t;
				t->prev = last;
			} else {
				f->tests = t;
			}
			last = t;
		}
		if (f->tests)
			f->tests->prev = last;
	}
}

/*
 * A plain test with a timeout of its own, which the harness of 6.1 has only
 * for fixtures (TEST_F_TIMEOUT).  The test's metadata is declared first so
 * that a constructor can set it; main() then stretches it like the rest.
 */
#ifndef TEST_TIMEOUT
#define TEST_TIMEOUT(test_name, secs) \
	static struct __test_metadata _##test_name##_object; \
	static void __attribute__((constructor)) \
	_##test_name##_set_timeout(void) \
	{ \
		_##test_name##_object.timeout = (secs); \
	} \
	TEST(test_name)
#endif

#undef TEST_HARNESS_MAIN
#define TEST_HARNESS_MAIN \
	int main(int argc, char **argv) \
	{ \
		tb_select_tests(argc, argv); \
		tb_stretch_timeouts(); \
		return test_harness_run(argc, argv); \
	}

#endif /* TB_HARNESS_H */
