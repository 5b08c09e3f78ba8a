/** What the header's two search fields (the plain stand-in and the one with suggestions) share. */
export const SEARCH_PLACEHOLDER = 'Поиск по названию или артикулу';
export const SEARCH_LABEL = 'Поиск товаров';

export interface SearchSuggestProps {
  /** Typed into the plain field before this one replaced it. */
  text: string;
  /** The plain field had the focus when this one replaced it. */
  autoFocus: boolean;
}
