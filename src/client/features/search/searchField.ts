import { useMinWidth } from '@/components/useMinWidth';

/** What the header's two search fields (the plain stand-in and the one with suggestions) share. */
const SEARCH_PLACEHOLDER = 'Поиск по названию или артикулу';

/** On a phone the field is about 120 px wide between the logo and the menu: the long text was cut. */
export const useSearchPlaceholder = () => (useMinWidth(600) ? SEARCH_PLACEHOLDER : 'Название, артикул');
export const SEARCH_LABEL = 'Поиск товаров';

export interface SearchSuggestProps {
  /** Typed into the plain field before this one replaced it. */
  text: string;
  /** The plain field had the focus when this one replaced it. */
  autoFocus: boolean;
}
