// Resident memory of the server on the embedded database under the read load of api-load.ts,
// sampled through a soak (issue 7: under 300 MB, and not growing):
//   BENCH_SOAK_SECONDS=600 npm run bench -- memory     (default 60 s)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, residentMb, startProcess } from './lib';

export interface MemoryResult {
  seconds: number;
  samples: number[];
  afterWarmUp: number;
  peak: number;
  last: number;
}

export async function benchMemory(seconds: number): Promise<MemoryResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-soak-'));
  const shop = await startProcess('src/server/server.ts', { DATA_DIR: dir, LOG_LEVEL: 'warn' }, '/api/health/ready');
  const samples: number[] = [];
  try {
    const urls = ['/api/v1/products/popular?limit=8', `/api/v1/products/categories/${encodeURIComponent('Мишки')}?limit=9`, '/api/v1/products/MO-1001'];
    const sampler = setInterval(() => void residentMb(shop.pid).then((mb) => samples.push(mb)), 5000);
    const slice = 10;
    for (let elapsed = 0; elapsed < seconds; elapsed += slice) {
      await load(`${shop.url}${urls[(elapsed / slice) % urls.length]}`, { seconds: Math.min(slice, seconds - elapsed) });
    }
    clearInterval(sampler);
    samples.push(await residentMb(shop.pid));
  } finally {
    await shop.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const afterWarmUp = samples[Math.min(2, samples.length - 1)]!;
  return { seconds, samples, afterWarmUp, peak: Math.max(...samples), last: samples.at(-1)! };
}

export function memoryTable(result: MemoryResult): string {
  const growth = result.last - result.afterWarmUp;
  return [
    '| figure | value | target |',
    '|---|---|---|',
    `| resident memory, peak over a ${result.seconds} s soak (embedded database) | ${result.peak} MB | < 300 MB ${result.peak < 300 ? '✓' : '✗'} |`,
    `| after warm-up → at the end | ${result.afterWarmUp} MB → ${result.last} MB (${growth >= 0 ? '+' : ''}${growth} MB) | no growth ${growth <= 15 ? '✓' : '✗'} |`,
    `| samples every 5 s (MB) | ${result.samples.join(', ')} | |`,
  ].join('\n');
}

if (require.main === module) {
  benchMemory(Number(process.env.BENCH_SOAK_SECONDS ?? 60)).then((result) => console.log(memoryTable(result)));
}
