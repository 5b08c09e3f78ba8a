#!/bin/sh
# Runs the shop's compiled server (scripts/build-server.js writes build/) as `npm start` does; the
# benchmarks, the browser tests and the reliability suite start it the same way.
#
# Memory (docs/performance.md): V8 and glibc size themselves for throughput, not for a
# small server with an embedded PostgreSQL inside. Without these the process sits at 350-400 MB
# under reads and orders; with them near 240 MB, at the same reads and orders per second.
#   --liftoff-only           PGlite is PostgreSQL compiled to WebAssembly; V8 recompiles its hot
#                            functions with its optimising compiler, about 80 MB of code and
#                            compiler memory that stays. The baseline code is slower per query,
#                            but the shop's queries are short and the catalogue is cached: orders
#                            per second on the embedded database did not change (107 → 110/s).
#   --max-semi-space-size=4  the young generation grows to 3 × 16 MB under load; 4 MB keeps
#                            short-lived request garbage cheap to collect without the growth.
#   --no-allocation-site-pretenuring
#                            V8 may decide, from how a warm-up happened to go, that objects made
#                            at some place in the code live long, and make them in the old
#                            generation. Dead ones there most likely keep the young objects they
#                            point to alive through every scavenge: in about half the starts the
#                            old generation filled with request garbage at ~1 MB per scavenge, and
#                            the process held 312-366 MB instead of 201-240 MB under the same reads.
#   --heap-growing-percent=20
#                            after a full collection V8 lets the heap grow to 1.1-4 times what
#                            survived before the next one, by how fast it collected. With buyers
#                            ordering (each order writes two letters, sent at once) the process
#                            grew 271 -> 399 MB in a minute of 10 buyers ordering under reads;
#                            1.2 times held 274 MB at the same orders and reads per second
#                            (2026-11-27, docs/performance.md).
#   MALLOC_ARENA_MAX=2       each thread that ever compiled WebAssembly or hashed a password kept
#                            its own malloc arena (up to 8 per core), holding freed memory.
set -e
cd "$(dirname "$0")/.."
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node_modules/.bin/node --liftoff-only --max-semi-space-size=4 --heap-growing-percent=20 --no-allocation-site-pretenuring build/server/server.js
