// Az.js ships no types: the little of it the search uses (services/word-forms.ts).
declare module 'az' {
  interface Parse {
    /** The form as parsed, lower-cased. */
    word: string;
    /** How many forms the word's paradigm has (dictionary parses only). */
    formCnt?: number;
    /** The part of speech (POST) and, by name, each grammeme the form has (Supr: a superlative). */
    tag: { POST: string; Supr?: boolean };
    /** The paradigm's form number `index`. */
    inflect(index: number): Parse;
  }
  interface Morph {
    (word: string, config?: { parsers?: string[] }): Parse[];
    init(dictionariesPath: string, callback: (error: unknown) => void): void;
  }
  const Az: { Morph: Morph };
  export default Az;
}
