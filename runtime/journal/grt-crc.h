/* grt-crc.h — CRC-32C (Castagnoli), the journal's record checksum; private to libgrt. */
#ifndef GRT_CRC_H
#define GRT_CRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CRC-32C of n bytes at p, continuing from crc (0 to start): the SSE4.2 instruction
 * when the CPU has it, a table otherwise; both give the same value
 * (grt_crc32c(0, "123456789", 9) == 0xe3069283).
 */
uint32_t grt_crc32c(uint32_t crc, const void *p, size_t n);

/* The same, always by table (for tests on a CPU with SSE4.2). */
uint32_t grt_crc32c_table(uint32_t crc, const void *p, size_t n);

#endif
