import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { expect, findProduct, logInThroughDialog, registerBuyer, test } from './fixtures';

/** The names of a ZIP file's entries. */
async function entryNames(zip: Buffer): Promise<string[]> {
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    archive.on('error', reject);
    archive.on('end', resolve);
    archive.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      archive.readEntry();
    });
    archive.readEntry();
  });
  return names;
}

test('a buyer downloads the marketplace kit of an order from its page', async ({ page, request }) => {
  const email = await registerBuyer(request);
  const product = await findProduct(request, (candidate) => candidate.variants.some((variant) => variant.stock > 10));
  const variant = product.variants.find((candidate) => candidate.stock > 10)!;
  await page.goto('/');
  await logInThroughDialog(page, email);
  await page.goto(`/checkout?items=${product.art}:${variant.id}:2`);
  await page.getByLabel('Имя').fill('Иван');
  await page.getByLabel('Телефон').fill('+7 900 000-00-00');
  await page.getByLabel('Адрес доставки').fill('Казань, ул. Баумана, д. 1');
  await page.getByRole('button', { name: 'Оформить заказ' }).click();
  await expect(page.getByRole('heading', { name: 'Заказ принят!' })).toBeVisible();
  const orderId = /Номер заказа: (\d+)/.exec((await page.getByText(/Номер заказа: \d+/).textContent())!)![1]!;

  await page.goto(`/profile/orders/${orderId}`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /Карточки для маркетплейсов/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`marketplace-kit-order-${orderId}.zip`);
  const names = await entryNames(await readFile((await download.path())!));
  expect(names).toContain('карточки.xlsx');
  expect(names).toContain('README.txt');
  expect(names).toContain(`фото/${product.art}_1.jpg`);
});
