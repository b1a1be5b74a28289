/*
 * name.h — the names that reach a shell or ssh from a file: host names and user names.
 * One check for both the site files (through remote.h) and what the job store reads
 * back (state.json's allocations): a value that passes is safe as one word of sh and
 * cannot be taken for an option.
 */
#ifndef GS_NAME_H
#define GS_NAME_H

/* 1 when name is a valid host name: [A-Za-z0-9.-], no leading '-', labels <= 63, <= 253. */
int name_host_valid(const char *name);

/* 1 when user is a valid user name: [A-Za-z0-9._-], no leading '-', at most 64. */
int name_user_valid(const char *user);

/* 1 when s is a non-empty run of at most 18 decimal digits (a Slurm job id). */
int name_digits_valid(const char *s);

#endif
