// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../../theme/antd-search.generated.css';
import { SearchOutlined } from '@ant-design/icons';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { AutoComplete, Button } from 'antd';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@shared/limits';
import { LIST_PARAMS, PAGE_PATHS, productPath } from '@shared/paths';
import { useSearchProductsQuery } from './searchApi';
import { SEARCH_LABEL, useSearchPlaceholder, type SearchSuggestProps } from './searchField';

/** Typing pauses this long before suggestions are asked for: one request per word, not per letter. */
const SUGGEST_DELAY_MS = 250;
const SUGGESTIONS = 8;

/** The header's search field with suggestions: arrows move through them, Enter opens the product. */
export default function SearchSuggest({ text: typed, autoFocus }: SearchSuggestProps) {
  const navigate = useNavigate();
  const placeholder = useSearchPlaceholder();
  const [text, setText] = useState(typed);
  // The list's state is kept here: the field's own one, asked to close while the list waits for its
  // suggestions (the pause below), stays open, and the list then opened over the results of a search
  // just submitted, or under a field the buyer had left.
  const [listOpen, setListOpen] = useState(false);
  /** Enter or «Найти»: the results page for what is typed. */
  const submit = () => {
    const query = text.trim();
    if (!query) return;
    setListOpen(false);
    void navigate(`${PAGE_PATHS.search}?${new URLSearchParams({ [LIST_PARAMS.query]: query })}`);
  };
  const [asked, setAsked] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trim()), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { currentData } = useSearchProductsQuery(asked ? { q: asked, skip: 0, limit: SUGGESTIONS } : skipToken);
  const found = currentData?.products ?? [];
  // Enter on a highlighted suggestion selects it, and the list then marks the key as handled
  // (preventDefault); only an Enter that selected nothing searches.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.isDefaultPrevented()) submit();
  };

  return (
    <div role="search" className="search-box">
      <AutoComplete
        className="search-suggest"
        value={text}
        onChange={setText}
        // Suggestions for what is typed now, not for the text of a moment ago.
        options={
          asked === text.trim()
            ? found.map((product) => ({
                value: product.art,
                label: (
                  <span className="search-option">
                    <span>{product.name}</span>
                    <span className="secondary-text">{product.art}</span>
                  </span>
                ),
              }))
            : []
        }
        // Enter searches unless the buyer has chosen a suggestion with the arrows.
        defaultActiveFirstOption={false}
        onSelect={(art: string) => {
          setText('');
          void navigate(productPath(art));
        }}
        onKeyDown={onKeyDown}
        open={listOpen}
        onOpenChange={setListOpen}
        onBlur={() => setListOpen(false)}
        autoFocus={autoFocus}
        maxLength={LIMITS.searchQueryMax}
        placeholder={placeholder}
        aria-label={SEARCH_LABEL}
        popupMatchSelectWidth={false}
        // Never wider than the screen: on a phone the names are cut, not the articles.
        styles={{ popup: { root: { maxWidth: 'calc(100vw - 16px)' } } }}
      />
      <Button aria-label="Найти" icon={<SearchOutlined aria-hidden />} onClick={submit} />
    </div>
  );
}
