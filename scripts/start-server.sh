#!/bin/sh
# Runs the shop's server as `npm start` does; the benchmarks start it the same way.
#
# Memory (issue 7, docs/performance.md): V8 and glibc size themselves for throughput, not for a
# small server with an embedded PostgreSQL inside. Without these the process sits at 350-400 MB
# under reads and orders; with them near 240 MB, at the same reads and orders per second.
#   --liftoff-only           PGlite is PostgreSQL compiled to WebAssembly; V8 recompiles its hot
#                            functions with its optimising compiler, about 80 MB of code and
#                            compiler memory that stays. The baseline code is slower per query,
#                            but the shop's queries are short and the catalogue is cached: orders
#                            per second on the embedded database did not change (107 → 110/s).
#   --max-semi-space-size=4  the young generation grows to 3 × 16 MB under load; 4 MB keeps
#                            short-lived request garbage cheap to collect without the growth.
#   MALLOC_ARENA_MAX=2       each thread that ever compiled WebAssembly or hashed a password kept
#                            its own malloc arena (up to 8 per core), holding freed memory.
set -e
cd "$(dirname "$0")/.."
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node_modules/.bin/node --liftoff-only --max-semi-space-size=4 --import tsx src/server/server.ts
