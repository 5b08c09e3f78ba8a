import { kitCanvas } from './kit-photo';
import { KIT_SHEETS, marketplaceAge } from './mapping-v1';

describe('the kit photo’s canvas', () => {
  it('is 900×1200 for anything that fits it, and a 3:4 large enough to hold a bigger picture', () => {
    expect(kitCanvas({ width: 300, height: 400 })).toEqual({ width: 900, height: 1200 });
    expect(kitCanvas({ width: 2400, height: 1000 })).toEqual({ width: 2400, height: 3200 });
    expect(kitCanvas({ width: 1000, height: 2000 })).toEqual({ width: 1500, height: 2000 });
    expect(kitCanvas({ width: 10_000, height: 10_000 })).toEqual({ width: 2400, height: 3200 });
  });
});

describe('the mapping v1', () => {
  it('writes ages as the marketplaces’ dictionaries do', () => {
    expect([0, 1, 3, 11, 21].map(marketplaceAge)).toEqual([
      'С рождения',
      'от 1 года',
      'от 3 лет',
      'от 11 лет',
      'от 21 года',
    ]);
  });

  it('asks millimetres on Ozon and centimetres on Wildberries, grams on both', () => {
    expect(Object.fromEntries(KIT_SHEETS.map((sheet) => [sheet.name, sheet.units]))).toEqual({
      Ozon: { length: 'mm', weight: 'g' },
      Wildberries: { length: 'cm', weight: 'g' },
    });
  });
});
