import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import yauzl from 'yauzl';
import type { ProductCard } from '../domain/marketplace-card';
import type { ProductCardsRepository } from '../repositories/product-cards';
import { marketplaceKit } from './marketplace-kit';

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

/** Cards whose photos are noise (a JPEG of noise stays large), counting the photos read. */
function cardsOfNoise() {
  const read: string[] = [];
  const cards = {
    async *cardBatches() {
      yield Array.from({ length: PRODUCTS }, (_, i) => card(i + 1));
    },
    uploadedNames: async (names: readonly string[]) => new Set(names),
    async uploadedPhoto(name: string) {
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
      return { data: await noise.jpeg({ quality: 95 }).toBuffer(), master: true };
    },
    documentPdf: async () => null,
  } as unknown as ProductCardsRepository;
  return { cards, read };
}

const entriesOf = (zip: Buffer) =>
  new Promise<string[]>((resolve, reject) =>
    yauzl.fromBuffer(zip, (error, archive) => {
      if (error) return reject(error);
      const names: string[] = [];
      archive.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      archive.on('end', () => resolve(names));
    }),
  );

test('photos are made one at a time, as the download is read: a client that stops reading stops the work', async () => {
  const { cards, read } = cardsOfNoise();
  const kit = marketplaceKit({ cards, imageDir: '/nonexistent', rrpTypeId: null }, [1, 2, 3, 4, 5]);
  kit.pause();
  await sleep(1500);
  // The first photo waits in the stream's buffer; nothing more is read while nobody takes it.
  expect(read).toHaveLength(1);

  const chunks: Buffer[] = [];
  for await (const chunk of kit) chunks.push(chunk as Buffer);
  expect(read).toHaveLength(PRODUCTS);
  expect(await entriesOf(Buffer.concat(chunks))).toEqual([
    'README.txt',
    ...Array.from({ length: PRODUCTS }, (_, i) => `фото/MO-${1001 + i}_1.jpg`),
    'карточки.xlsx',
  ]);
});
