/**
 * What the lazily loaded pages that the server names too are called in their titles. Apart from
 * page-titles.ts, which the shell carries in every first load: these reach only their pages' chunks.
 */

export const ABOUT_PAGE_NAME = 'О компании';
export const NOT_FOUND_PAGE_NAME = 'Страница не найдена';

/** The catalogue's page name: the category it shows. */
export function catalogueName(category: string | undefined): string {
  return category ? `Каталог: ${category}` : 'Каталог';
}
