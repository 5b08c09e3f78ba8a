import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import yauzl from 'yauzl';
import type { ProductCard } from '../domain/marketplace-card';
import type { ProductCardsRepository } from '../repositories/product-cards';
import { MarketplaceKitsBusyError } from '../domain/domain-errors';
import { NEW_PRODUCT_IMAGE } from './catalogue-images';
import { marketplaceKit, STALE_KIT_FOLDER_MS, sweepStaleKitFolders, type KitSources } from './marketplace-kit';
import { PHOTO_WORK_AT_ONCE } from './photo-work';
import { waitUntil } from '../../../test/server/helpers/server-process';

const PRODUCTS = 5;
const uploadName = (i: number) => `u-${String(i).repeat(32)}.webp`;

const card = (i: number): ProductCard => ({
  id: i,
  art: `MO-${1000 + i}`,
  name: `Игрушка ${i}`,
  description: null,
  category: 'Мишки',
  brand: null,
  material: null,
  filler: null,
  ageFrom: null,
  countryOfOrigin: null,
  tnved: null,
  cover: uploadName(i),
  document: null,
  variants: [
    {
      id: i,
      color: 'Белый',
      size: 25,
      barcode: null,
      marked: false,
      packageLengthMm: null,
      packageWidthMm: null,
      packageHeightMm: null,
      weightG: null,
      rrp: null,
    },
  ],
  ownPhotos: [],
  colourPhotos: new Map(),
});

type UploadedPhotos = KitSources['photos'];

/** Uploaded pictures' photos that are noise (a JPEG of noise stays large), counting the photos read. */
function photosOfNoise() {
  const read: string[] = [];
  const photos: UploadedPhotos = {
    async forKit(name: string) {
      read.push(name);
      const noise = sharp({
        create: {
          width: 900,
          height: 1200,
          channels: 3,
          background: '#888',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      });
      return { data: await noise.jpeg({ quality: 95 }).toBuffer(), linked: true };
    },
  };
  return { photos, read };
}

/** Uploaded pictures' photos: small grey JPEGs. */
const greyPhotos: UploadedPhotos = {
  forKit: async () => ({
    data: await sharp({ create: { width: 30, height: 40, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer(),
    linked: true,
  }),
};

/** The kit of these products from these cards, the uploaded pictures' photos grey unless given. */
const kitOf = (
  cards: ProductCardsRepository,
  productIds: number[],
  { photos = greyPhotos, imageDir = '/nonexistent' }: { photos?: UploadedPhotos; imageDir?: string } = {},
) => marketplaceKit({ cards, photos, origin: 'https://shop.example', imageDir, rrpTypeId: null }, productIds);

const entriesOf = (zip: Buffer) =>
  new Promise<string[]>((resolve, reject) =>
    yauzl.fromBuffer(zip, (error, archive) => {
      if (error) return reject(error);
      const names: string[] = [];
      archive.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      archive.on('end', () => resolve(names));
    }),
  );

/** The README's text of a kit's ZIP. */
const readmeOf = (zip: Buffer) =>
  new Promise<string>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error);
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'README.txt') return archive.readEntry();
        archive.openReadStream(entry, (failed, stream) => {
          if (failed) return reject(failed);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => resolve(Buffer.concat(chunks).toString()));
        });
      });
      archive.readEntry();
    }),
  );

async function downloaded(kit: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of kit) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The kit's temporary folders now in the temporary directory. */
const kitFolders = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('marketplace-kit-'));

// The kits' temporary folders in a folder of this suite's own (os.tmpdir() reads TMPDIR when
// called): the other database's run of this suite, in parallel, makes and sweeps kit folders too.
const systemTmpdir = process.env.TMPDIR;
let ownTmpdir: string;
beforeAll(async () => {
  ownTmpdir = await mkdtemp(path.join(tmpdir(), 'kit-suite-'));
  process.env.TMPDIR = ownTmpdir;
});
afterAll(async () => {
  if (systemTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmpdir;
  await rm(ownTmpdir, { recursive: true, force: true });
});

/** A repository of these cards, whose uploads all exist. */
function cardsOf(cards: ProductCard[], overrides: Partial<Record<keyof ProductCardsRepository, unknown>> = {}) {
  return {
    async *cardBatches() {
      yield cards;
    },
    uploadedNames: async (names: readonly string[]) => new Set(names),
    documentPdf: async () => Buffer.from('%PDF-1.4'),
    ...overrides,
  } as unknown as ProductCardsRepository;
}

test('photos are made one at a time, as the download is read: a client that stops reading stops the work', async () => {
  const { photos, read } = photosOfNoise();
  const cards = cardsOf(Array.from({ length: PRODUCTS }, (_, i) => card(i + 1)));
  const kit = kitOf(cards, [1, 2, 3, 4, 5], { photos });
  kit.pause();
  await sleep(1500);
  // The first photo waits in the stream's buffer; nothing more is read while nobody takes it.
  expect(read).toHaveLength(1);

  const chunks: Buffer[] = [];
  for await (const chunk of kit) chunks.push(chunk as Buffer);
  expect(read).toHaveLength(PRODUCTS);
  expect(await entriesOf(Buffer.concat(chunks))).toEqual([
    ...Array.from({ length: PRODUCTS }, (_, i) => `фото/MO-${1001 + i}_1.jpg`),
    'карточки.xlsx',
    'README.txt',
  ]);
});

test('the placeholder «no photo» is no photo of the kit: the card names none', async () => {
  // The shop's folder holds the placeholder, as a real shop's does.
  const imageDir = await mkdtemp(path.join(tmpdir(), 'shop-images-'));
  await writeFile(
    path.join(imageDir, NEW_PRODUCT_IMAGE),
    '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="40"><rect width="30" height="40" fill="#ccc"/></svg>',
  );
  const placeholder = { ...card(1), cover: NEW_PRODUCT_IMAGE };
  const kit = kitOf(cardsOf([placeholder]), [1], { imageDir });
  expect(await entriesOf(await downloaded(kit))).toEqual(['карточки.xlsx', 'README.txt']);
  await rm(imageDir, { recursive: true });
});

test('two articles of the same file name keep their photos apart', async () => {
  const twins = [
    { ...card(1), art: 'MO/1' },
    { ...card(2), art: 'MO-1' },
  ];
  const kit = kitOf(cardsOf(twins), [1, 2]);
  expect(await entriesOf(await downloaded(kit))).toEqual([
    'фото/MO-1_1.jpg',
    'фото/MO-1-2_1.jpg',
    'карточки.xlsx',
    'README.txt',
  ]);
});

test('a photo or a document deleted while the kit is made is left out, and the README says so', async () => {
  const document = {
    id: 7,
    kind: 'declaration' as const,
    regulation: 'ТР ТС 008/2011',
    number: 'ЕАЭС N RU Д/1',
    validFrom: '2026-01-01',
    validTo: '2030-12-31',
  };
  // Both known to exist when the batch was read, gone when the kit comes to them.
  const cards = cardsOf([{ ...card(1), document }, card(2)], { documentPdf: async () => null });
  const photos: UploadedPhotos = {
    forKit: async (name: string) => (name === uploadName(2) ? null : greyPhotos.forKit(name)),
  };
  const zip = await downloaded(kitOf(cards, [1, 2], { photos }));
  expect(await entriesOf(zip)).toEqual(['фото/MO-1001_1.jpg', 'карточки.xlsx', 'README.txt']);
  const readme = await readmeOf(zip);
  expect(readme).toContain('фото/MO-1002_1.jpg');
  expect(readme).toContain('документы/ЕАЭС_N_RU_Д_1.pdf');
});

test(`at most ${PHOTO_WORK_AT_ONCE} kits are made at once; one ended makes room`, async () => {
  const cards = cardsOf([card(1)]);
  const building = Array.from({ length: PHOTO_WORK_AT_ONCE }, () => kitOf(cards, [1]));
  expect(() => kitOf(cards, [1])).toThrow(MarketplaceKitsBusyError);
  building[0]!.destroy();
  await once(building[0]!, 'close');
  const next = kitOf(cards, [1]);
  for (const kit of [next, ...building.slice(1)])
    expect(await entriesOf(await downloaded(kit))).toContain('README.txt');
});

test('a client gone before the temporary folder is made leaves no folder, and no batch is read after', async () => {
  const before = new Set(await kitFolders());
  let batchesRead = 0;
  const cards = cardsOf([], {
    async *cardBatches() {
      for (let i = 1; i <= 3; i += 1) {
        batchesRead += 1;
        yield [card(i)];
      }
    },
  });
  const kit = kitOf(cards, [1, 2, 3]);
  kit.destroy();
  // Polled: a folder made before the abort was seen is removed when its creation returns.
  const left = async () => (await kitFolders()).filter((name) => !before.has(name));
  await waitUntil('no kit folder left', async () => (await left()).length === 0, 10_000, 50);
  expect(batchesRead).toBe(0);
});

test('a client gone mid-way stops the kit and removes its folder', async () => {
  const before = new Set(await kitFolders());
  let batchesRead = 0;
  const cards = cardsOf([], {
    async *cardBatches() {
      for (let i = 1; i <= PRODUCTS; i += 1) {
        batchesRead += 1;
        yield [card(i)];
      }
    },
  });
  const kit = kitOf(cards, [1, 2, 3, 4, 5], { photos: photosOfNoise().photos });
  kit.pause();
  const made = async () => (await kitFolders()).filter((name) => !before.has(name));
  // Polled, not slept: under a loaded machine the folder comes and goes when it will.
  await waitUntil('the kit’s folder made', async () => (await made()).length === 1, 10_000, 50);
  kit.destroy();
  await waitUntil('the kit’s folder removed', async () => (await made()).length === 0, 10_000, 50);
  expect(batchesRead).toBeLessThan(PRODUCTS);
});

test('a kit folder a stopped process left is swept once stale; a fresh one stays', async () => {
  const stale = await mkdtemp(path.join(tmpdir(), 'marketplace-kit-'));
  const fresh = await mkdtemp(path.join(tmpdir(), 'marketplace-kit-'));
  const past = new Date(Date.now() - STALE_KIT_FOLDER_MS - 60_000);
  await utimes(stale, past, past);
  await sweepStaleKitFolders();
  await expect(stat(stale)).rejects.toThrow();
  expect((await stat(fresh)).isDirectory()).toBe(true);
  await rm(fresh, { recursive: true });
});
