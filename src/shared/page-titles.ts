/**
 * The storefront's document titles, one wording for the SPA (components/PageTitle.tsx sets them as
 * pages render) and for the server, which writes them into the HTML it sends (plugins/storefront.ts)
 * for crawlers and link previews that do not run the scripts.
 */

export const SHOP_NAME = 'Мягкий Опт';

/** The home page's title, the same as the one in public/index.html that the first paint shows. */
export const HOME_TITLE = `${SHOP_NAME} — мягкие игрушки оптом`;

/** The home page's list: its heading, and its title from the second page. */
export const POPULAR_TOYS = 'Популярные игрушки';

/**
 * «{name} — Мягкий Опт», with «, страница N» from a paged list's second page (`listPage` is
 * zero-based); without a name, the home page's title.
 */
export function documentTitle(name?: string, listPage = 0): string {
  if (!name) return HOME_TITLE;
  const numbered = listPage > 0 ? `${name}, страница ${listPage + 1}` : name;
  return `${numbered} — ${SHOP_NAME}`;
}
