/* meter.c — bar, sparkline and progress meter as strings. */
#include <math.h>
#include <string.h>

#include "tui/meter.h"

static int
meter_cells(double part, double full, int width)
{
	double x;

	if (!(full > 0) || !isfinite(part) || part <= 0)
		return 0;
	x = width * part / full;
	return x >= width ? width : (int)lround(x);
}

void
meter_bar(char *dst, int width, double calc, double comm, double idle, double full,
    int seg[3])
{
	int a, b, c;

	if (width < 0)
		width = 0;
	if (!isfinite(idle) || idle < 0)
		idle = 0;
	/* Cumulative edges, so rounding never makes the bar longer than its time. */
	a = meter_cells(calc, full, width);
	b = meter_cells(calc + comm, full, width);
	c = meter_cells(calc + comm + idle, full, width);
	if (b < a)
		b = a;
	if (c < b)
		c = b;
	memset(dst, METER_CALC, a);
	memset(dst + a, METER_COMM, b - a);
	memset(dst + b, METER_IDLE, c - b);
	memset(dst + c, ' ', width - c);
	dst[width] = '\0';
	if (seg != NULL) {
		seg[0] = a;
		seg[1] = b - a;
		seg[2] = c - b;
	}
}

void
meter_spark(char *dst, size_t dstsz, const float *v, int n, double scale, double max,
    int width, int utf8)
{
	static const char *const blocks[] = {
		" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"
	};
	static const char ramp[] = " .:-=+*#@";
	size_t o = 0, k;
	int i, first, lvl;
	double x;

	first = n > width ? n - width : 0;
	for (i = 0; i < width; i++) {
		lvl = 0;
		if (first + i < n && max > 0) {
			x = v[first + i] * scale;
			if (x > 0) {
				lvl = (int)ceil(8 * x / max);
				lvl = lvl < 1 ? 1 : lvl > 8 ? 8 : lvl;
			}
		}
		if (utf8) {
			k = strlen(blocks[lvl]);
			if (o + k + 1 > dstsz)
				break;
			memcpy(dst + o, blocks[lvl], k);
			o += k;
		} else {
			if (o + 2 > dstsz)
				break;
			dst[o++] = ramp[lvl];
		}
	}
	if (dstsz > 0)
		dst[o] = '\0';
}

void
meter_progress(char *dst, size_t dstsz, double pct, int width)
{
	int inner = width - 2, fill, i;

	if (dstsz < (size_t)width + 1 || inner < 1) {
		if (dstsz > 0)
			dst[0] = '\0';
		return;
	}
	fill = isfinite(pct) ? (int)(inner * pct / 100.0 + 0.5) : 0;
	if (fill > inner)
		fill = inner;
	if (fill < 0)
		fill = 0;
	dst[0] = '[';
	for (i = 0; i < inner; i++)
		dst[1 + i] = i < fill ? '|' : ' ';
	dst[width - 1] = ']';
	dst[width] = '\0';
}
