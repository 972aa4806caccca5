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
		tb_stretch_timeouts(); \
		return test_harness_run(argc, argv); \
	}

#endif /* TB_HARNESS_H */
