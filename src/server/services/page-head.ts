import { imageUrl, type ProductPage } from '../../shared/api';
import { formatRubles } from '../../shared/money';
import { ABOUT_PAGE_NAME, catalogueName, NOT_FOUND_PAGE_NAME } from '../../shared/page-names';
import { documentTitle, POPULAR_TOYS, SHOP_NAME } from '../../shared/page-titles';
import { LIST_PARAMS, PAGE_PATHS, productPath } from '../../shared/paths';
import { escapeHtml, HTML_ESCAPES } from '../html';

/**
 * What the server says about a page in its head, for crawlers and link previews, which do not
 * run the storefront's scripts: the title, the description and, for a page with an address of
 * its own, the canonical link and Open Graph tags; a product also gets its JSON-LD.
 */
export interface PageHead {
  title: string;
  /** Absent: the shell's own (public/index.html). */
  description?: string;
  /** The page's absolute address: canonical link and og:url. Absent: no Open Graph tags. */
  url?: string;
  type?: 'website' | 'product';
  /** Absolute address of the picture a link preview shows. */
  image?: string;
  /** A page that must not be indexed (an article nobody sells). */
  noindex?: boolean;
  /** schema.org data, written as JSON-LD. */
  structuredData?: object;
}

/** A description as search results show it: about 160 characters, cut at a word. */
const DESCRIPTION_MAX = 160;

/**
 * JSON written inside a <script> element: with '<' escaped (still the same JSON), no text in it
 * can end the element or open a comment early.
 */
export function jsonInScript(json: string): string {
  return json.replaceAll('<', '\\u003c');
}

function shortened(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:—-]+$/, '')}…`;
}

const IN_STOCK = 'https://schema.org/InStock';
const OUT_OF_STOCK = 'https://schema.org/OutOfStock';

/** A product page's head; `origin` is the shop's public address (publicOrigin). */
export function productHead(product: ProductPage, origin: string): PageHead {
  const url = `${origin}${productPath(product.art)}`;
  const image = imageUrl(`${origin}/`, product.image);
  // The product's own photos (the cover first), for the search engines' image results.
  const images = (product.photos[0]?.images ?? [product.image]).map((name) => imageUrl(`${origin}/`, name));
  // None while the shop shows prices only after sign-in: then no offer names one either.
  const priced = product.variants.flatMap(({ price, ...variant }) => (price === null ? [] : [{ ...variant, price }]));
  const prices = priced.map((variant) => variant.price);
  const lowPrice = prices.length > 0 ? Math.min(...prices) : null;
  const facts = [`Артикул ${product.art}.`, ...(lowPrice === null ? [] : [`Оптом от ${formatRubles(lowPrice)}.`])];
  const factsText = facts.join(' ');
  const summary = shortened(
    product.description ?? product.big_description ?? '',
    DESCRIPTION_MAX - factsText.length - 1,
  );
  const description = `${summary || `${product.name}.`} ${factsText}`;
  const seller = { '@type': 'Organization', name: SHOP_NAME, url: origin };
  const availability = (stock: number) => (stock > 0 ? IN_STOCK : OUT_OF_STOCK);
  return {
    title: documentTitle(product.name),
    description,
    url,
    type: 'product',
    image,
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      sku: product.art,
      description: product.big_description ?? product.description ?? product.name,
      image: images,
      url,
      brand: { '@type': 'Brand', name: product.brand ?? SHOP_NAME },
      // One offer per colour and size, gathered in an AggregateOffer with the range of prices.
      ...(lowPrice !== null && {
        offers: {
          '@type': 'AggregateOffer',
          priceCurrency: 'RUB',
          lowPrice,
          highPrice: Math.max(...prices),
          offerCount: priced.length,
          availability: availability(Math.max(...priced.map((variant) => variant.stock))),
          offers: priced.map((variant) => ({
            '@type': 'Offer',
            name: `${variant.color}, ${variant.size} см`,
            ...(variant.barcode !== null && { gtin: variant.barcode }),
            price: variant.price,
            priceCurrency: 'RUB',
            availability: availability(variant.stock),
            itemCondition: 'https://schema.org/NewCondition',
            url,
            seller,
          })),
        },
      }),
    },
  };
}

/** A paged list's absolute address as the storefront writes it: no `page` on the first page. */
function listAddress(origin: string, path: string, params: Record<string, string>, listPage: number): string {
  const query = new URLSearchParams(params);
  if (listPage > 0) query.set(LIST_PARAMS.page, String(listPage + 1));
  const search = query.toString();
  return `${origin}${path}${search ? `?${search}` : ''}`;
}

/** The home page (popular toys, `listPage` zero-based) with the shop's own description. */
export function homeHead(origin: string, listPage: number, description: string): PageHead {
  return {
    title: documentTitle(listPage > 0 ? POPULAR_TOYS : undefined, listPage),
    description,
    url: listAddress(origin, PAGE_PATHS.home, {}, listPage),
  };
}

/** The catalogue showing `category` (none: the shop has no categories yet). */
export function catalogueHead(origin: string, category: string | undefined, listPage: number): PageHead {
  const goods = category ? `${category} оптом` : 'Мягкие игрушки оптом';
  return {
    title: documentTitle(catalogueName(category), listPage),
    description: `${goods}: каталог «${SHOP_NAME}» с ценами, размерами и остатками на складе. Доставка по всей России.`,
    url: listAddress(origin, PAGE_PATHS.catalogue, category ? { [LIST_PARAMS.category]: category } : {}, listPage),
  };
}

export function aboutHead(origin: string): PageHead {
  return {
    title: documentTitle(ABOUT_PAGE_NAME),
    description: `«${SHOP_NAME}» — поставщик мягких игрушек и товаров для детей: оптом для маркетплейсов и магазинов, склад в Москве, доставка по всей России.`,
    url: `${origin}${PAGE_PATHS.about}`,
  };
}

/** An article no product on sale has: the storefront shows its not-found page, which is not to be indexed. */
export const MISSING_PRODUCT_HEAD: PageHead = { title: documentTitle(NOT_FOUND_PAGE_NAME), noindex: true };

function meta(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
}

/** The tags for `head`, apart from the title and description, which replace the shell's (withHead). */
function extraTags(head: PageHead, description: string): string[] {
  const tags: string[] = [];
  if (head.noindex) tags.push(meta('name', 'robots', 'noindex'));
  if (head.url) {
    tags.push(
      `<link rel="canonical" href="${escapeHtml(head.url)}">`,
      meta('property', 'og:type', head.type ?? 'website'),
      meta('property', 'og:site_name', SHOP_NAME),
      meta('property', 'og:locale', 'ru_RU'),
      meta('property', 'og:title', head.title),
      meta('property', 'og:description', description),
      meta('property', 'og:url', head.url),
    );
    if (head.image) tags.push(meta('property', 'og:image', head.image));
  }
  if (head.structuredData) {
    tags.push(`<script type="application/ld+json">${jsonInScript(JSON.stringify(head.structuredData))}</script>`);
  }
  return tags;
}

const SHELL_TITLE = /<title>[^<]*<\/title>/;
/**
 * The shell's description tag as any HTML writer may put it: attributes in either order, their
 * values in double, single or no quotes (html-minifier-terser, which builds dist/index.html,
 * drops the quotes of a value without spaces when `removeAttributeQuotes` is on: `name=description`).
 */
const SHELL_META = /<meta\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i');
const NAME = attribute('name');
const CONTENT = attribute('content');
const attributeValue = (tag: string, pattern: RegExp): string | null => {
  const [, double, single, bare] = pattern.exec(tag) ?? [];
  return double ?? single ?? bare ?? null;
};
const isDescription = (tag: string) => attributeValue(tag, NAME)?.toLowerCase() === 'description';

const HTML_UNESCAPES = Object.fromEntries(
  Object.entries(HTML_ESCAPES).map(([character, entity]) => [entity, character]),
);

/** The description in the shell page (public/index.html): the shop's own, the home page's. */
export function shellDescription(shell: string): string {
  const tag = shell.match(SHELL_META)?.find(isDescription);
  const escaped = (tag && attributeValue(tag, CONTENT)) ?? '';
  return escaped.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => HTML_UNESCAPES[entity]!);
}

/**
 * The shell page with `head` in it: its title and description in place of the shell's, the other
 * tags and `more` (preload hints, data) at the end of the head.
 */
export function withHead(shell: string, head: PageHead | null, more: string): string {
  // Replacer functions, not strings: a product's text with "$&" or "$'" in it must stay as it is.
  let page = shell;
  let tags: string[] = [];
  if (head) {
    page = page.replace(SHELL_TITLE, () => `<title>${escapeHtml(head.title)}</title>`);
    const description = head.description ?? shellDescription(shell);
    if (head.description !== undefined) {
      page = page.replace(SHELL_META, (tag) => (isDescription(tag) ? meta('name', 'description', description) : tag));
    }
    tags = extraTags(head, description);
  }
  return page.replace('</head>', () => `${tags.join('')}${more}</head>`);
}
