/*
 * grt-journal-format.h — the bytes of the journal (grt-journal.h), shared by its writer
 * and its replay; private to libgrt.
 */
#ifndef GRT_JOURNAL_FORMAT_H
#define GRT_JOURNAL_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define JRN_MAGIC	"GRTJRNL1"
#define JRN_PAYLOAD_MAX	(1u << 30)	/* bytes of one result, at most */

enum { JRN_MERGE = 1, JRN_ROUND = 2 };

/* The file's first bytes: what run the journal belongs to. */
struct jrn_file {
	char magic[8];
	int64_t units;
	int32_t rounds;
	uint32_t crc;		/* of the 20 bytes before it */
};

/*
 * Before every record. The length is stored twice (the second time inverted): a length
 * damaged in one place cannot pass for the torn tail of a crash, which is a prefix of
 * what was written.
 */
struct jrn_head {
	uint32_t len;		/* of the body and the payload */
	uint32_t len_inv;	/* ~len */
	uint32_t crc;		/* CRC-32C of the body and the payload */
};

struct jrn_body {
	uint8_t kind;
	uint8_t zero[3];
	int32_t round;
	int64_t start;
	int64_t count;
};

_Static_assert(sizeof(struct jrn_file) == 24, "journal header layout");
_Static_assert(sizeof(struct jrn_head) == 12, "journal record head layout");
_Static_assert(sizeof(struct jrn_body) == 24, "journal record body layout");

/* grt-journal.c, for the replay: start the writer thread */
struct grt_journal;
int grt_journal_start(struct grt_journal *j);

#endif
