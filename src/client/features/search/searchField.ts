import { useMinWidth } from '@/components/useMinWidth';

/** What the header's two search fields (the plain stand-in and the one with suggestions) share. */
const SEARCH_PLACEHOLDER = 'Поиск по названию или артикулу';

export const SEARCH_LABEL = 'Поиск товаров';

/**
 * On a phone the field sits between the logo and the cart and menu buttons, its inside some 70 px
 * wide: the long text was cut, and so were «Название, артикул» and «Поиск товаров».
 */
export const useSearchPlaceholder = () => (useMinWidth(600) ? SEARCH_PLACEHOLDER : 'Поиск');

export interface SearchSuggestProps {
  /** Typed into the plain field before this one replaced it. */
  text: string;
  /** The plain field had the focus when this one replaced it. */
  autoFocus: boolean;
}
