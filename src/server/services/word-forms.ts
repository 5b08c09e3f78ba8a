import path from 'node:path';
import Az from 'az';
import { queryWords, usesSearchSyntax } from '../domain/search-query';

/**
 * Russian morphology from the OpenCorpora dictionary (Az.js, a port of pymorphy2): every form of a
 * query's words, so that «мишек» finds «Мишка» and «зайцы» «Заяц», which the snowball stemmer of
 * the names' words cannot relate (a fleeting vowel: зайц-/заяц, мишек/мишк-). The dictionaries
 * (11 MB on disk) are read once a process, by the first search (the server's start warms it).
 */
let loading: Promise<void> | null = null;

export function loadMorphology(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    Az.Morph.init(path.join(path.dirname(require.resolve('az/package.json')), 'dicts'), (error) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
    );
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The dictionary's parsers only: a word it does not know gets no guessed paradigm (guesses took «шмуглик» for «лик»). */
const DICTIONARY_ONLY = { parsers: ['Dictionary'] };

/** Forms of one word that to_tsquery may take as they are: letters only, never its operators. */
const PLAIN_WORD = /^[а-яё]+$/;

/** Every form of every paradigm the dictionary gives `word` (none for a word it does not know), itself first. */
function formsOf(word: string): string[] {
  const forms = new Set([word]);
  for (const parse of Az.Morph(word, DICTIONARY_ONLY)) {
    for (let index = 0; index < (parse.formCnt ?? 0); index++) {
      const form = parse.inflect(index).word;
      if (PLAIN_WORD.test(form)) forms.add(form);
    }
  }
  return [...forms];
}

/**
 * The query as a to_tsquery('russian', …) text: each word as any of its forms, all words required
 * («мишек белых» is `(мишек | мишка | … ) & (белых | белый | …)`); the database stems each form, so
 * a name matches when one of its words is a form of each. `null` for a query with
 * websearch_to_tsquery's syntax (a phrase, an exclusion), which is read as written, or without words.
 */
export async function queryForms(query: string): Promise<string | null> {
  if (usesSearchSyntax(query)) return null;
  const words = queryWords(query);
  if (words.length === 0) return null;
  await loadMorphology();
  // Words of letters and digits only (queryWords), so nothing here is an operator of to_tsquery.
  return words.map((word) => `(${formsOf(word).join(' | ')})`).join(' & ');
}
