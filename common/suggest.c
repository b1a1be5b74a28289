/* suggest.c — the nearest known word to a mistyped one (Damerau-Levenshtein, OSA). */
#include <string.h>

#include "common/suggest.h"

#define SUGGEST_MAXLEN 64

static int
min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

int
suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int d[SUGGEST_MAXLEN + 1][SUGGEST_MAXLEN + 1];

	if (la > SUGGEST_MAXLEN || lb > SUGGEST_MAXLEN)
		return 255;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb] > 255 ? 255 : d[la][lb];
}

const char *
suggest_closest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	int bestd = 256, limit;
	size_t len = strlen(word);

	limit = len <= 4 ? 1 : (int)(len + 2) / 3;
	for (; *candidates != NULL; candidates++) {
		int d = suggest_distance(word, *candidates);

		if (d < bestd) {
			bestd = d;
			best = *candidates;
		}
	}
	return bestd <= limit ? best : NULL;
}
