/*
 * cancel-ask.h — who asked for a job's end. `gridsubmit cancel` (and the console's F9,
 * which runs it) writes DIR/.cancel-PID, PID its own, saying who it is, before it sends
 * the supervisor SIGTERM. The supervisor's handler keeps the sender's pid of the signal
 * (launch.h, launch_cancel_origin) and reads that very file: a signal whose sender left
 * no file is a plain signal (kill, a batch system), and two cancels at once cannot take
 * each other's place. Returns codes and reasons, as the store does.
 */
#ifndef GS_CANCEL_ASK_H
#define GS_CANCEL_ASK_H

#include <stddef.h>
#include <sys/types.h>

#include "store/jobstore.h"

#define CANCEL_ASK_MAX	256	/* bytes of who, NUL included */

/*
 * Record that this process (getpid()) asks for st's end, as who ("cancelled by gridsubmit
 * cancel (pid 42, user ana)"), written atomically in st's directory. 0, or -1 with why.
 */
int cancel_ask_write(const struct job_state *st, const char *who, char *why, size_t whylen);

/* 1 with who (cleaned, one line) when process pid asked for st's end, else 0. */
int cancel_ask_read(const struct job_state *st, pid_t pid, char *who, size_t len);

/* This process's request is answered (or given up): its file goes. */
void cancel_ask_forget(const struct job_state *st);

#endif
