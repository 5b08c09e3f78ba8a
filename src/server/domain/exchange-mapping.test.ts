import { categoryNames, mergeRunStats, piecePrice, plainTextOfHtml, sizeOfValue } from './exchange-mapping';

it('a size is the first whole number of the value', () => {
  expect(sizeOfValue('25 см')).toBe(25);
  expect(sizeOfValue('Рост 30')).toBe(30);
  expect(sizeOfValue('большой')).toBeNull();
});

it('a price of a carton of N is divided for one piece, in kopecks', () => {
  expect(piecePrice(3075, 6)).toBe(512.5);
  expect(piecePrice(100, 3)).toBe(33.33);
});

it('an HTML description becomes plain text', () => {
  expect(plainTextOfHtml('<p>Мягкий &laquo;мишка&raquo;</p><script>x()</script><p>50&nbsp;см &amp; больше</p>')).toBe(
    'Мягкий «мишка»\n50 см & больше',
  );
});

it('a category takes the group name, «Родитель / Имя» when it is taken, and keeps its own', () => {
  const groups = [
    { externalId: 'a', name: 'Игрушки', parentId: null, path: ['Игрушки'] },
    { externalId: 'b', name: 'Мишки', parentId: 'a', path: ['Игрушки', 'Мишки'] },
    { externalId: 'c', name: 'Зайцы', parentId: 'a', path: ['Игрушки', 'Зайцы'] },
  ];
  const taken = new Map<string, string | null>([
    ['мишки', null],
    ['зайцы', 'c'],
  ]);
  expect(categoryNames(groups, taken)).toEqual([
    { externalId: 'a', name: 'Игрушки' },
    { externalId: 'b', name: 'Игрушки / Мишки' },
    { externalId: 'c', name: 'Зайцы' },
  ]);
});

it('stats of a second file are added to the run’s', () => {
  expect(
    mergeRunStats({ productsCreated: 2, errors: ['a'] }, { productsCreated: 1, variantsCreated: 3, errors: ['b'] }),
  ).toEqual({ productsCreated: 3, variantsCreated: 3, errors: ['a', 'b'] });
});
