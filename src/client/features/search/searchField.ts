/** What the header's two search fields (the plain stand-in and the one with suggestions) share. */
export const SEARCH_PLACEHOLDER = 'Поиск по названию или артикулу';
export const SEARCH_LABEL = 'Поиск товаров';

export interface SearchSuggestProps {
  text: string;
  onTextChange(text: string): void;
  /** Enter or «Найти»: the results page for `query`. */
  onSubmit(query: string): void;
  /** The plain field had the focus when this one replaced it. */
  autoFocus: boolean;
}
