import { documentTitle } from '@shared/page-titles';

interface PageTitleProps {
  /** What the page shows; without it, the home page's title. */
  name?: string;
  /** A paged list's page (zero-based), named from the second on. */
  listPage?: number;
}

/**
 * The document's title for the page that renders it: «{name} — Мягкий Опт». React puts a `<title>`
 * rendered anywhere into the head and takes it out with the page, so each route names itself in
 * the tab, the history and bookmarks. The server writes the same title into the pages it sends.
 */
export function PageTitle({ name, listPage = 0 }: PageTitleProps) {
  return <title>{documentTitle(name, listPage)}</title>;
}
