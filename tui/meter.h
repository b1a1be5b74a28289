/*
 * meter.h — the console's small graphics as plain strings, shared by the screen and the
 * --once snapshot: the stacked time bar and the sparkline. Each reads without colour.
 */
#ifndef TUI_METER_H
#define TUI_METER_H

#include <stddef.h>

#define METER_CALC	'#'
#define METER_COMM	'~'
#define METER_IDLE	'.'

/*
 * A bar of width characters: '#' for t_calc, '~' for t_comm, '.' for idle, blank for the
 * rest, where full seconds is the whole width (the job's elapsed time, so that rows
 * compare). seg, if not NULL, gets the three segment lengths. dst holds width + 1 bytes.
 */
void meter_bar(char *dst, int width, double calc, double comm, double idle, double full,
    int seg[3]);

/*
 * A sparkline of the last width values of v[0..n) times scale, on 0..max: Unicode
 * blocks when utf8, else the ASCII ramp " .:-=+*#@". Older values are cut; fewer values
 * than width are padded on the right. dst needs 3 * width + 1 bytes.
 */
void meter_spark(char *dst, size_t dstsz, const float *v, int n, double scale, double max,
    int width, int utf8);

/* htop's progress meter "[|||||     ]": pct 0..100 over width characters (brackets included). */
void meter_progress(char *dst, size_t dstsz, double pct, int width);

#endif
