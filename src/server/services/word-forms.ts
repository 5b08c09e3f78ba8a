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

/**
 * Every form of every paradigm the dictionary gives `word` (none for a word it does not know), itself
 * first; of the parse's own part of speech only, and no superlatives: an adjective's paradigm also
 * has its short and comparative forms («мягче», «помягче», «наимягчайший»), each a stem more for
 * the index to look up and none of them in a toy's name.
 */
function formsOf(word: string): string[] {
  const forms = new Set([word]);
  for (const parse of Az.Morph(word, DICTIONARY_ONLY)) {
    for (let index = 0; index < (parse.formCnt ?? 0); index++) {
      const form = parse.inflect(index);
      if (form.tag.POST === parse.tag.POST && !form.tag.Supr && PLAIN_WORD.test(form.word)) forms.add(form.word);
    }
  }
  return [...forms];
}

/**
 * The forms of each word of the query, a text of them a word («мишек белых» is
 * ['мишек мишка мишки …', 'белых белый белого …']), for the repository to stem and join
 * (repositories/products.ts search). `null` for a query with websearch_to_tsquery's syntax (a
 * phrase, an exclusion), which is read as written, or without words.
 */
export async function queryForms(query: string): Promise<string[] | null> {
  if (usesSearchSyntax(query)) return null;
  const words = queryWords(query);
  if (words.length === 0) return null;
  await loadMorphology();
  return words.map((word) => formsOf(word).join(' '));
}
