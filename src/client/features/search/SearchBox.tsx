import './search.css';
import { useRef, useState, type ComponentType } from 'react';
import { LIST_PARAMS, PAGE_PATHS } from '@shared/paths';
import { SEARCH_LABEL, useSearchPlaceholder, type SearchSuggestProps } from './searchField';

// The suggestions need antd's AutoComplete and its CSS, too heavy for the first load of every page:
// they arrive when the buyer first reaches for the box, and the plain field stands in till then.
const loadSuggest = () => import(/* webpackChunkName: "search-suggest" */ './SearchSuggest');

interface Loaded {
  Suggest: ComponentType<SearchSuggestProps>;
  props: SearchSuggestProps;
}

/**
 * The header's search: a plain field (an ordinary form: Enter opens the results even before the
 * suggestions' script has arrived), replaced by the one with suggestions once its code is there,
 * with what was typed meanwhile and the focus.
 */
export default function SearchBox() {
  const field = useRef<HTMLInputElement>(null);
  const loading = useRef(false);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const placeholder = useSearchPlaceholder();

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void loadSuggest().then(
      ({ default: Suggest }) => {
        const input = field.current;
        setLoaded({ Suggest, props: { text: input?.value ?? '', autoFocus: document.activeElement === input } });
      },
      // Offline, say: the plain field still searches, and the next focus tries again.
      () => {
        loading.current = false;
      },
    );
  };

  if (loaded) return <loaded.Suggest {...loaded.props} />;
  return (
    <form role="search" action={PAGE_PATHS.search} className="search-box">
      <input
        ref={field}
        type="search"
        name={LIST_PARAMS.query}
        className="search-field"
        placeholder={placeholder}
        aria-label={SEARCH_LABEL}
        onPointerEnter={load}
        onFocus={load}
      />
    </form>
  );
}
