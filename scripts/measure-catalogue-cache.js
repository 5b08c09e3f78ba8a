// What the catalogue cache holds per kept answer besides the key and the bytes it counts for them:
// checks the constants ENTRY_OVERHEAD_BYTES and ENCODING_OVERHEAD_BYTES of
// src/server/services/catalogue-cache.ts (exit code 1 when either is below what it measures).
//
//   node scripts/build-server.js && node --expose-gc scripts/measure-catalogue-cache.js
//
// 1. V8's share: keeps 100 000 empty pages under Cyrillic keys (two bytes a character, as the cache
//    counts them), then has each compressed once; the growth of the heap and of the ArrayBuffers,
//    less the key and body bytes the cache counts, divided by their number.
// 2. The native share, which V8's figures leave out: each body and encoding has an ArrayBuffer of
//    its own, whose backing store is a malloc'd object beside its bytes. Measured as the growth of
//    the resident set over 100 000 such 2-byte buffers, the heap grown beforehand so that its own
//    growth does not count.
const {
  CatalogueCache,
  ENCODING_OVERHEAD_BYTES,
  ENTRY_OVERHEAD_BYTES,
} = require('../build/server/services/catalogue-cache.js');

const { gc } = globalThis;
if (typeof gc !== 'function') throw new Error('run with node --expose-gc');

const COUNT = 100_000;
const BODY = '[]';
const keyOf = (index) => `search:0:10:мишка ${index}`;

function collected() {
  gc();
  gc();
  return process.memoryUsage();
}
const heldByV8 = () => {
  const { heapUsed, arrayBuffers } = collected();
  return heapUsed + arrayBuffers;
};

async function v8Share() {
  const cache = new CatalogueCache({ maxEntries: Infinity, maxBytes: Infinity });
  const load = async () => ({ body: BODY, keep: 'yes' });
  // The code paths compiled before counting.
  for (let index = 0; index < 1000; index += 1) await (await cache.get(`warm-up ${index}`, load)).compressed('gzip');
  cache.invalidate();

  const empty = heldByV8();
  let counted = 0;
  for (let index = 0; index < COUNT; index += 1) {
    await cache.get(keyOf(index), load);
    counted += 2 * keyOf(index).length + Buffer.byteLength(BODY);
  }
  const kept = heldByV8();
  let encodedBytes = 0;
  for (let index = 0; index < COUNT; index += 1) {
    const answer = await cache.get(keyOf(index), load);
    encodedBytes += (await answer.compressed('gzip')).length;
  }
  const encoded = heldByV8();
  if (cache.usage().entries !== COUNT) throw new Error(`kept ${cache.usage().entries} of ${COUNT}`);
  return {
    entry: Math.ceil((kept - empty - counted) / COUNT),
    encoding: Math.ceil((encoded - kept - encodedBytes) / COUNT),
  };
}

function nativeShare() {
  // Objects made and dropped: the heap's pages stay, so that the buffers' objects fit in them.
  Array.from({ length: 3 * COUNT }, (_, index) => ({ index, a: index, b: index, c: index })).fill(null);
  const before = collected().rss;
  const buffers = Array.from({ length: COUNT }, () => Buffer.allocUnsafeSlow(2));
  const after = collected().rss;
  return Math.ceil((after - before) / buffers.length);
}

async function main() {
  // First: the memory the other frees would be taken again without growing the resident set.
  const native = nativeShare();
  const v8 = await v8Share();
  const measured = { entry: v8.entry + native, encoding: v8.encoding + native };
  console.log(
    JSON.stringify({
      answers: COUNT,
      v8PerEntry: v8.entry,
      v8PerEncoding: v8.encoding,
      nativePerBuffer: native,
      entryOverhead: { measured: measured.entry, counted: ENTRY_OVERHEAD_BYTES },
      encodingOverhead: { measured: measured.encoding, counted: ENCODING_OVERHEAD_BYTES },
    }),
  );
  if (measured.entry > ENTRY_OVERHEAD_BYTES || measured.encoding > ENCODING_OVERHEAD_BYTES) process.exitCode = 1;
}

void main();
