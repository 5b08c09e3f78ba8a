// Resident memory of the server on the embedded database under load, sampled through a soak
// (under 300 MB, and not growing):
//   npm run bench -- memory     (a 10-minute soak; BENCH_SOAK_SECONDS=60 for a quick look)
// The load is that of the other benchmarks at once: catalogue reads at 50 connections, and
// 10 buyers ordering throughout, so the catalogue cache is invalidated and refilled all the time
// and the embedded database keeps working.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Product } from '../src/shared/api';
import { load, residentMb, startProcess } from './lib';
import { ORDER_BENCH_ENV, register, storm, type OrderItem } from './orders-load';

const BUYERS = 10;

export interface MemoryResult {
  seconds: number;
  samples: number[];
  afterWarmUp: number;
  peak: number;
  last: number;
  orders: number;
  reads: number;
}

export async function benchMemory(seconds: number): Promise<MemoryResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-soak-'));
  const shop = await startProcess(
    'src/server/server.ts',
    // The buyers order again and again without paying: without the orders bench's limits they
    // stopped at 3 unpaid orders each (MAX_UNPAID_ORDERS), 30 in all, and the soak read a cache
    // that orders never emptied.
    { DATA_DIR: dir, LOG_LEVEL: 'warn', ...ORDER_BENCH_ENV },
    '/api/health/ready',
  );
  const samples: number[] = [];
  let reads = 0;
  try {
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, index) => register(shop.url, index)));
    const catalogue = (await (await fetch(`${shop.url}/api/v1/products/?limit=100`)).json()) as Product[];
    const items: OrderItem[] = catalogue.flatMap((product) =>
      product.variants.map((variant) => ({ product_id: product.id, variant_id: variant.id })),
    );
    const pick = () => items[Math.floor(Math.random() * items.length)]!;

    const sampler = setInterval(() => void residentMb(shop.pid).then((mb) => samples.push(mb)), 5000);
    const ordering = storm(shop.url, buyers, pick, seconds);
    const urls = [
      '/api/v1/products/popular?limit=8',
      `/api/v1/products/categories/${encodeURIComponent('Мишки')}?limit=9`,
      '/api/v1/products/MO-1001',
    ];
    const slice = 10;
    for (let elapsed = 0; elapsed < seconds; elapsed += slice) {
      const result = await load(`${shop.url}${urls[(elapsed / slice) % urls.length]}`, {
        seconds: Math.min(slice, seconds - elapsed),
      });
      reads += result.requestsPerSecond * Math.min(slice, seconds - elapsed);
    }
    const { statuses } = await ordering;
    clearInterval(sampler);
    samples.push(await residentMb(shop.pid));
    // Warm-up: the catalogue cache fills, PGlite's memory contexts and V8's heap find their
    // sizes. 15 s is enough for a quick look; a 10-minute soak is judged from its third minute.
    const afterWarmUp = samples[Math.min(seconds > 120 ? 24 : 2, samples.length - 1)]!;
    return {
      seconds,
      samples,
      afterWarmUp,
      peak: Math.max(...samples),
      last: samples.at(-1)!,
      orders: statuses.get(201) ?? 0,
      reads,
    };
  } finally {
    await shop.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Samples are every 5 s; a long soak is summarised by the mean of each minute. */
function perMinute(samples: number[]): number[] {
  const minutes: number[] = [];
  for (let start = 0; start < samples.length; start += 12) {
    const minute = samples.slice(start, start + 12);
    minutes.push(Math.round(minute.reduce((sum, mb) => sum + mb, 0) / minute.length));
  }
  return minutes;
}

export function memoryTable(result: MemoryResult): string {
  const growth = result.last - result.afterWarmUp;
  const long = result.seconds > 120;
  return [
    '| figure | value | target |',
    '|---|---|---|',
    `| load served | ${result.reads} catalogue reads, ${result.orders} orders placed | |`,
    `| resident memory, peak over a ${result.seconds} s soak (embedded database) | ${result.peak} MB | < 300 MB ${result.peak < 300 ? '✓' : '✗'} |`,
    `| after warm-up (${result.seconds > 120 ? '2 min' : '15 s'}) → at the end | ${result.afterWarmUp} MB → ${result.last} MB (${growth >= 0 ? '+' : ''}${growth} MB) | no growth ${growth <= 15 ? '✓' : '✗'} |`,
    long
      ? `| mean of each minute (MB) | ${perMinute(result.samples).join(', ')} | |`
      : `| samples every 5 s (MB) | ${result.samples.join(', ')} | |`,
  ].join('\n');
}

if (require.main === module) {
  benchMemory(Number(process.env.BENCH_SOAK_SECONDS ?? 600)).then((result) => console.log(memoryTable(result)));
}
