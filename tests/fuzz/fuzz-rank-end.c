/*
 * fuzz-rank-end.c — libFuzzer target for the rank wrapper's end line (common/rank-end.h),
 * which the supervisor reads from DIR/rank-ends and from the lease, where any process that
 * reaches the port can write. Each line of the input is parsed on its own (a line that
 * parses must come back the same through rank_end_format), then the whole input is read
 * as a job directory's rank-ends file beside a rankmap made of the same bytes.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rank-end.h"
#include "tests/fuzz/fuzz-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A parsed line written again and parsed back: the same rank, host and end. */
static void
fuzz_round_trip(const struct rank_end *e)
{
	struct rank_end back;
	char buf[RANK_END_LINE_MAX], text[256];
	int st = e->signal != 0 ? e->signal : (e->exit & 0xff) << 8;

	/* a time that is no number would reach state.json, which has no NaN */
	if (!isfinite(e->time) || e->time < 0)
		abort();
	rank_end_text(e, text, sizeof text);
	/* signal 127 has no wait status of its own: the kernel sends none above 64 */
	if (e->signal != 0 ? e->signal >= 127 || e->exit != -1 : e->exit < 0 || e->exit > 255)
		return;
	if (rank_end_format(buf, sizeof buf, e->rank, e->host, st, e->time) < 0)
		return;
	if (rank_end_parse(buf, &back) != 0)
		abort();
	if (back.rank != e->rank || back.exit != e->exit || back.signal != e->signal ||
	    strcmp(back.host, e->host) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rank_end e, *v;
	char line[RANK_END_LINE_MAX * 2], path[512];
	size_t i = 0, j, n;

	while (i < size) {
		for (j = 0; i < size && data[i] != '\n' && j < sizeof line - 1; i++)
			line[j++] = (char)data[i];
		line[j] = '\0';
		i++;
		if (rank_end_parse(line, &e) == 0)
			fuzz_round_trip(&e);
	}
	fuzz_write(RANK_ENDS_FILE, data, size, path, sizeof path);
	fuzz_write("rankmap", data, size, path, sizeof path);
	if (rank_ends_read(fuzz_dir(), &v, &n) != 0)
		abort();
	(void)rank_ends_first_failure(v, n);
	free(v);
	return 0;
}
