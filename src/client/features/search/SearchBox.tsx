import { useRef, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@shared/api';
import { searchPath } from '@shared/paths';
import { SEARCH_LABEL, SEARCH_PLACEHOLDER, type SearchSuggestProps } from './searchField';

// The suggestions need antd's AutoComplete and its CSS, too heavy for the first load of every page:
// they arrive when the buyer first reaches for the box, and the plain field stands in till then.
const loadSuggest = () => import(/* webpackChunkName: "search-suggest" */ './SearchSuggest');

/**
 * The header's search: a plain field on the first load, replaced by the one with suggestions
 * (SearchSuggest) once its code has arrived; what was typed meanwhile is kept, and so is the focus.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [Suggest, setSuggest] = useState<ComponentType<SearchSuggestProps> | null>(null);
  const loading = useRef(false);
  const [focused, setFocused] = useState(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void loadSuggest().then(
      (module) => setSuggest(() => module.default),
      // Offline, say: the plain field still searches, and the next focus tries again.
      () => {
        loading.current = false;
      },
    );
  };
  const submit = (query: string) => {
    if (query.trim()) void navigate(searchPath(query));
  };

  if (Suggest) return <Suggest text={text} onTextChange={setText} onSubmit={submit} autoFocus={focused} />;
  return (
    <form
      role="search"
      className="search-box"
      onSubmit={(event) => {
        event.preventDefault();
        submit(text);
      }}
    >
      <input
        type="search"
        className="search-field"
        value={text}
        placeholder={SEARCH_PLACEHOLDER}
        aria-label={SEARCH_LABEL}
        maxLength={LIMITS.searchQueryMax}
        onChange={(event) => setText(event.target.value)}
        onPointerEnter={load}
        onFocus={() => {
          setFocused(true);
          load();
        }}
        onBlur={() => setFocused(false)}
      />
    </form>
  );
}
