/*
 * json-fail.h — a command's failure in --json mode told on stdout too: the error
 * document of gridsubmit-json(5), {"schema_version": 2, "error": {"code": EXIT,
 * "message": "...", "messages": [...]}}, with the exit status unchanged. Scripts that
 * read stdout then never get an empty answer, whatever failed and wherever it exited.
 */
#ifndef GS_JSON_FAIL_H
#define GS_JSON_FAIL_H

#include <jansson.h>

struct cmd_entry;

/*
 * Called by main() before cmd runs: when argv (argv[0] the command's name) has --json
 * before any "--" and cmd takes --json (its synopsis says so), what goes to stderr from
 * here on is kept as well, and an exit with a non-zero status that printed no document
 * prints the error document made of it.
 */
void json_fail_arm(const struct cmd_entry *cmd, int argc, char **argv);

/*
 * doc (a command's own document, for jsonout_print) with the "error" object added when
 * code is not 0: its message is the first error said on stderr, else "exit status CODE".
 * For the commands that print a document of their own whatever happened (cancel and wait
 * of several ids, sites check, a simulation that failed). Returns doc.
 */
json_t *json_fail_doc(json_t *doc, int code);

#endif
