/*
 * test-cancel-ask.c — a canceller's request (store/cancel-ask.h) in a job directory of its
 * own: written and read back by its pid only (another pid, or none, reads nothing), one
 * line cleaned of control bytes, a request too long cut at its cap, removed by forget; a
 * directory it cannot be written in refused with the path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "common/file.h"
#include "store/cancel-ask.h"

int
main(void)
{
	char dir[] = "/tmp/gs-test-cancel-ask.XXXXXX", who[CANCEL_ASK_MAX], why[512];
	char path[256], long_who[1000];
	struct job_state st;

	if (mkdtemp(dir) == NULL)
		return 2;
	memset(&st, 0, sizeof st);
	st.dir = dir;
	is_int(cancel_ask_read(&st, getpid(), who, sizeof who), 0, "no request: nothing read");
	is_int(cancel_ask_write(&st, "cancelled by gridsubmit cancel (pid 1, user u)", why,
	    sizeof why), 0, "a request written");
	snprintf(path, sizeof path, "%s/.cancel-%ld", dir, (long)getpid());
	ok(access(path, F_OK) == 0, "as .cancel-PID of the asking process");
	is_int(cancel_ask_read(&st, getpid(), who, sizeof who), 1, "read back by its pid");
	is_str(who, "cancelled by gridsubmit cancel (pid 1, user u)", "the words, one line");
	is_int(cancel_ask_read(&st, getpid() + 1, who, sizeof who), 0,
	    "another pid's signal: nothing read");
	is_int(cancel_ask_read(&st, 0, who, sizeof who), 0, "the kernel's signal: nothing read");
	cancel_ask_write(&st, "from\tthe\x1b[2J console\nsecond line", why, sizeof why);
	cancel_ask_read(&st, getpid(), who, sizeof who);
	is_str(who, "from the[2J console second line", "control bytes cleaned, one line");
	memset(long_who, 'x', sizeof long_who - 1);
	long_who[sizeof long_who - 1] = '\0';
	cancel_ask_write(&st, long_who, why, sizeof why);
	is_int(cancel_ask_read(&st, getpid(), who, sizeof who), 1, "a long request read");
	is_int(strlen(who), CANCEL_ASK_MAX - 1, "cut at its cap");
	cancel_ask_forget(&st);
	ok(access(path, F_OK) == -1, "forget removes it");
	is_int(cancel_ask_read(&st, getpid(), who, sizeof who), 0, "then nothing is read");
	st.dir = "/nonexistent/job";
	is_int(cancel_ask_write(&st, "x", why, sizeof why), -1, "a directory that is not there");
	ok(strstr(why, "/nonexistent/job/.cancel-") != NULL, "refused with the path: %s", why);
	rmdir(dir);
	return tap_failures > 0;
}
