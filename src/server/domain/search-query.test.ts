import { articleKey } from '../../shared/article-key';
import { articleNumber, otherLayout, usesSearchSyntax } from './search-query';

describe('reading a query', () => {
  it.each(['MO-1001', 'МО-1001', 'mo 1001', 'mo1001', ' Mo-10 01 '])('«%s» is the article mo1001', (typed) => {
    expect(articleKey(typed)).toBe('mo1001');
  });

  it('a number alone, spaces and hyphens aside, is an article’s number', () => {
    expect(articleNumber('1001')).toBe('1001');
    expect(articleNumber('10-01')).toBe('1001');
    expect(articleNumber('mo1001')).toBeNull();
  });

  it.each([
    ['vbirf', 'мишка'],
    ['pfzw', 'заяц'],
    ['ЬЩ-1001', 'mo-1001'],
    ['мишка', 'vbirf'],
  ])('«%s» in the other layout is «%s»', (typed, meant) => {
    expect(otherLayout(typed)).toBe(meant);
  });

  it('digits alone have no other layout', () => {
    expect(otherLayout('1001')).toBeNull();
  });

  it('phrases, exclusions and «or» are websearch syntax', () => {
    expect(usesSearchSyntax('"мишка тедди"')).toBe(true);
    expect(usesSearchSyntax('мишка -белый')).toBe(true);
    expect(usesSearchSyntax('мишка or заяц')).toBe(true);
    expect(usesSearchSyntax('мишка-обнимашка')).toBe(false);
  });
});
