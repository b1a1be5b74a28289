/*
 * sites-default.c — the embedded default site file: sites/localhost.yaml, turned into a C
 * array by make ($(B)/gen/embedded-sites.c), so that gridsubmit runs with no --sites.
 */
#include <stddef.h>

#include "broker/site.h"

extern const char embedded_localhost_yaml[];
extern const size_t embedded_localhost_yaml_len;

#define SITES_DEFAULT_NAME	"<embedded>/sites/localhost.yaml"

int
sites_load_default_errs(struct gs_sites *out, struct gs_errlist *errs)
{
	return sites_load_buffer_errs(SITES_DEFAULT_NAME, embedded_localhost_yaml,
	    embedded_localhost_yaml_len, out, errs);
}
