// npm run bench [-- api orders memory lighthouse bundle cart growth find scale exchange]: runs the benchmarks
// (all but growth, find, scale and exchange by default) and writes their figures, beside their targets, to
// docs/performance.md. growth (bench/growth.ts) and find (bench/find-fast.ts) grow a shop to 100 000
// products first, scale (bench/scale.ts) starts three clusters behind nginx, and exchange
// (bench/exchange-import.ts) sends 1С's files of 100 000 products, so they run only when asked for.
// PostgreSQL figures need BENCH_DATABASE_URL (an admin connection; a fresh database is made per run).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiTable, benchApi } from './api-load';
import { benchCartPaint, cartPaintSection } from './cart-paint';
import { benchExchange, exchangeSection } from './exchange-import';
import { benchFind, findSection } from './find-fast';
import { benchGrowth, growthOptions, growthSection } from './growth';
import { root, machine } from './lib';
import { benchLighthouse, lighthouseTable } from './lighthouse';
import { benchMemory, memoryTable } from './memory-soak';
import { benchOrders, ordersTable } from './orders-load';
import { benchScale, scaleSection } from './scale';

const lighthouseVersion = (
  JSON.parse(readFileSync(require.resolve('lighthouse/package.json'), 'utf8')) as { version: string }
).version;

const ALL = ['bundle', 'api', 'orders', 'memory', 'lighthouse', 'cart'] as const;
const ON_REQUEST = ['growth', 'find', 'scale', 'exchange'] as const;
type Bench = (typeof ALL)[number] | (typeof ON_REQUEST)[number];

async function main(): Promise<void> {
  const known: readonly string[] = [...ALL, ...ON_REQUEST];
  const chosen = process.argv.slice(2).filter((name): name is Bench => known.includes(name));
  const benches: Bench[] = chosen.length > 0 ? chosen : [...ALL];
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const sections: string[] = [];

  for (const bench of benches) {
    console.log(`== ${bench}`);
    if (bench === 'bundle') {
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
      const output = execFileSync('node', ['scripts/check-bundle-size.js'], { cwd: root, encoding: 'utf8' });
      sections.push(
        `## Storefront first load\n\nHome page JS + CSS after gzip (\`npm run check:bundle\`, also run in CI), target ≤ 200 KB:\n\n\`\`\`\n${output.trim()}\n\`\`\``,
      );
    } else if (bench === 'api') {
      sections.push(
        `## Catalogue reads at 50 connections\n\n\`npm run bench -- api\` (autocannon, ${seconds} s per read after a 2 s warm-up).\n\n${apiTable(await benchApi(seconds))}`,
      );
    } else if (bench === 'orders') {
      if (!adminUrl) {
        sections.push('## Orders on PostgreSQL\n\nNot run: set BENCH_DATABASE_URL to a PostgreSQL server.');
        continue;
      }
      sections.push(
        `## Orders on PostgreSQL\n\n\`BENCH_DATABASE_URL=… npm run bench -- orders\` (50 buyers, each with its own token, ordering one unit at a time for ${seconds} s).\n\n${ordersTable(await benchOrders(adminUrl, seconds))}`,
      );
    } else if (bench === 'growth') {
      // Shorter reads than the others: the run makes and grows two shops per database.
      const growthSeconds = Number(process.env.BENCH_SECONDS ?? 5);
      const options = growthOptions();
      sections.push(growthSection(await benchGrowth(growthSeconds, options), growthSeconds, options));
    } else if (bench === 'find') {
      sections.push(findSection(await benchFind(Number(process.env.BENCH_SECONDS ?? 5))));
    } else if (bench === 'scale') {
      sections.push(
        adminUrl
          ? scaleSection(await benchScale(adminUrl, seconds), seconds)
          : '## Scale: 1, 2 and 3 processes behind nginx\n\nNot run: set BENCH_DATABASE_URL to a PostgreSQL server.',
      );
    } else if (bench === 'exchange') {
      sections.push(exchangeSection(await benchExchange(adminUrl)));
    } else if (bench === 'cart') {
      sections.push(cartPaintSection(await benchCartPaint(adminUrl)));
    } else if (bench === 'memory') {
      const soak = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
      sections.push(
        `## Memory\n\n\`BENCH_SOAK_SECONDS=${soak} npm run bench -- memory\` (catalogue reads at 50 connections and 10 buyers ordering, throughout).\n\n${memoryTable(await benchMemory(soak))}`,
      );
    } else {
      sections.push(
        `## Lighthouse\n\n\`npm run bench -- lighthouse\` (Lighthouse ${lighthouseVersion}, Debian Chromium, simulated throttling; ${machine()}).\n\n${lighthouseTable(await benchLighthouse())}`,
      );
    }
  }

  const header = [
    '# Performance',
    '',
    `Measured on ${machine()}. The machine is shared and noisy: the API figures are compared with a reference measured in the same run, not with numbers from another day. Repeat with \`npm run bench\` (and \`BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test\` for the PostgreSQL figures).`,
    '',
    REPRODUCE,
  ].join('\n');
  console.log([header, ...sections].join('\n\n'));
  updateReport(
    header,
    sections,
    ALL.every((bench) => benches.includes(bench)),
  );
  console.log('\nWritten to docs/performance.md');
}

/** The report's first lines: which command makes each section's figures (each section dates its own run). */
const REPRODUCE = [
  '| section | command |',
  '|---|---|',
  '| Storefront first load | `npm run build && npm run check:bundle` (or `npm run bench -- bundle`) |',
  '| Catalogue reads at 50 connections | `npm run bench -- api` |',
  '| Orders on PostgreSQL | `BENCH_DATABASE_URL=… npm run bench -- orders` |',
  '| Memory | `npm run bench -- memory` |',
  '| Lighthouse | `npm run bench -- lighthouse` |',
  '| A cart of 500 lines | `npm run bench -- cart` |',
  '| Growth | `npm run bench -- growth` (not in the default run) |',
  '| Finding fast | `npm run bench -- find` (not in the default run; PostgreSQL too with `BENCH_DATABASE_URL`) |',
  "| Scale | `BENCH_DATABASE_URL=… npm run bench -- scale` (not in the default run; Debian's nginx) |",
  '| The 1С exchange | `BENCH_DATABASE_URL=… npm run bench -- exchange` (not in the default run; about 1 GB of XML) |',
  '',
  'Below them, «History»: the earlier passes, dated, with what was tried and kept.',
].join('\n');

const REPORT = path.join(root, 'docs', 'performance.md');
/** A section's heading without what follows a colon ("## Growth: 100 000 products…" → "## Growth"). */
const titleOf = (section: string) => section.split('\n', 1)[0]!.replace(/:.*/, '');

/**
 * A full run replaces the report, so that the figures under its heading all come from one run; the
 * sections it does not make (the growth bench, notes written by hand) stay below, each with its own
 * date. Any other run replaces only its own sections.
 */
function updateReport(header: string, sections: string[], full: boolean): void {
  const previous = existsSync(REPORT)
    ? readFileSync(REPORT, 'utf8')
        .split(/\n(?=## )/)
        .map((part) => part.trim())
    : [header];
  const [previousHeader, ...previousSections] = previous;
  const made = new Map(sections.map((section) => [titleOf(section), section]));
  const report = full
    ? [header, ...sections, ...previousSections.filter((section) => !made.has(titleOf(section)))]
    : [
        previousHeader,
        ...previousSections.map((section) => made.get(titleOf(section)) ?? section),
        ...sections.filter((section) => !previousSections.some((old) => titleOf(old) === titleOf(section))),
      ];
  writeFileSync(REPORT, `${report.join('\n\n')}\n`);
}

void main();
