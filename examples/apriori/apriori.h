/* apriori.h — the transaction database and its generator (quest.c), for apriori.c. */
#ifndef APRIORI_H
#define APRIORI_H

#include <stddef.h>
#include <stdint.h>

/* Transactions in CSR form: transaction t is items[off[t] .. off[t+1]), sorted, distinct. */
struct tdb {
	int64_t ntrans;
	size_t *off;		/* ntrans + 1 */
	int32_t *items;
	size_t nitems;
	size_t capitems;
	int nitems_universe;	/* item ids are in [0, nitems_universe) */
};

struct quest_params {
	int64_t ntrans;		/* D: transactions */
	double tlen;		/* T: average transaction size */
	double plen;		/* I: average size of the maximal potentially large itemsets */
	int nitems;		/* N: items */
	int npats;		/* L: potentially large itemsets */
	uint64_t seed;
};

/* Make the database (quest.c); 0, or -1 on bad parameters or out of memory. */
int quest_generate(const struct quest_params *q, struct tdb *db);
void tdb_free(struct tdb *db);

#endif
