/*
 * lease-proto.h — the lines of the lease (doc/restarts.md, "The lease"), shared by the
 * supervisor (lease.c) and the rank wrapper (rank/gridsubmit-rank.c), so the two never
 * disagree. Every message is one line ending in '\n':
 * - wrapper -> supervisor, first: "lease SECRET", the launch's secret, which the wrapper
 *   finds in its environment (LEASE_SECRET_ENV) and nowhere else; anything else first, or
 *   nothing within LEASE_AUTH_WAIT seconds, and the supervisor closes the connection;
 * - both ways, every LEASE_BEAT_EVERY seconds: "beat" from the wrapper, "beat T" from the
 *   supervisor, T its silence timeout in seconds, which the wrapper then applies to it;
 * - wrapper -> supervisor: "proxy-lost" when hydra's proxy, its parent, died, and its
 *   rank's end (common/rank-end.h) before it closes.
 */
#ifndef GS_LEASE_PROTO_H
#define GS_LEASE_PROTO_H

#define LEASE_SECRET_ENV	"GRIDSUBMIT_LEASE_SECRET"
#define LEASE_HELLO		"lease "
#define LEASE_BEAT		"beat"
#define LEASE_PROXY_LOST	"proxy-lost"
#define LEASE_BEAT_EVERY	1.0	/* seconds between beats, both ways */
/*
 * Seconds a new connection has to send the secret: the wrappers of a launch connect all
 * at once while their ranks spin in MPI_Init; on a loaded host (64 nodes, load 78) one took
 * more than 2 s, was closed, stopped its rank and left the launch hanging in MPI_Init.
 */
#define LEASE_AUTH_WAIT		10.0
#define LEASE_TIMEOUT_DEFAULT	10	/* seconds of silence that lose a node (lease_timeout) */

#endif
