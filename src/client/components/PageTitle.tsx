import { SHOP_NAME } from '@/layout/shop';

/** The home page's title, the same as the one in public/index.html that the first paint shows. */
const HOME_TITLE = `${SHOP_NAME} — мягкие игрушки оптом`;

interface PageTitleProps {
  /** What the page shows; without it, the home page's title. */
  name?: string;
  /** A paged list's page (zero-based), named from the second on. */
  listPage?: number;
}

/**
 * The document's title for the page that renders it: «{name} — Мягкий Опт». React puts a `<title>`
 * rendered anywhere into the head and takes it out with the page, so each route names itself in
 * the tab, the history and bookmarks.
 */
export function PageTitle({ name, listPage = 0 }: PageTitleProps) {
  if (!name) return <title>{HOME_TITLE}</title>;
  const numbered = listPage > 0 ? `${name}, страница ${listPage + 1}` : name;
  return <title>{`${numbered} — ${SHOP_NAME}`}</title>;
}
