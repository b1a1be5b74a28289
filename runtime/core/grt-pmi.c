/*
 * grt-pmi.c — the PMI-1 end of a rank without MPI_Finalize (grt-pmi.h): plain POSIX, no
 * MPI, so that libgrt and the plain programs' interposer share it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/grt-pmi.h"

int
grt_pmi_finalize(void)
{
	static const char request[] = "cmd=finalize\n", ack[] = "cmd=finalize_ack";
	const char *env = getenv("PMI_FD");
	char reply[64];
	size_t got = 0;
	char *end;
	long fd;

	if (env == NULL || *env == '\0')
		return -1;
	fd = strtol(env, &end, 10);
	if (*end != '\0' || fd < 0 || fd > 65535)
		return -1;
	if (write((int)fd, request, sizeof request - 1) != (ssize_t)(sizeof request - 1))
		return -1;
	while (got < sizeof reply - 1 && memchr(reply, '\n', got) == NULL) {
		struct pollfd pfd = { (int)fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&pfd, 1, GRT_PMI_ACK_LIMIT) <= 0)
			return -1;
		n = read((int)fd, reply + got, sizeof reply - 1 - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	reply[got] = '\0';
	if (strncmp(reply, ack, sizeof ack - 1) == 0)
		return 0;
	fprintf(stderr, "grt: hydra's proxy answered the end with \"%.*s\"\n",
	    (int)strcspn(reply, "\n"), reply);
	return -1;
}
