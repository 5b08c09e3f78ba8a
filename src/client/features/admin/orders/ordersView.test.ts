import { ordersRequest, ordersViewParams, readOrdersView } from './ordersView';

const read = (query: string) => readOrdersView(new URLSearchParams(query));

describe('the orders queue in the address', () => {
  test('an empty address is the new orders, newest first, 20 a page', () => {
    expect(read('')).toEqual({
      status: 'Создан',
      q: '',
      from: '',
      to: '',
      sort: 'created_at_desc',
      mine: false,
      page: 1,
      size: 20,
    });
    expect(ordersRequest(read(''))).toEqual({
      status: 'Создан',
      q: undefined,
      from: undefined,
      to: undefined,
      sort: 'created_at_desc',
      mine: undefined,
      skip: 0,
      limit: 20,
    });
  });

  test.each([
    'status=Потерян',
    'sort=price',
    'page=0',
    'page=-2',
    'page=1e3',
    'page=abc',
    'page=999999',
    'size=7',
    'size=1000',
    'from=24.11.2026',
    'to=2026-11',
    'mine=1',
  ])('%s is read as the default', (query) => {
    expect(read(query)).toEqual(read(''));
  });

  test('a view goes into the address and back unchanged, naming only what is not the default', () => {
    const view = read(
      'status=all&q=%D0%9E%D0%9E%D0%9E&from=2026-11-01&to=2026-11-30&sort=total_asc&mine=true&page=4&size=50',
    );
    const params = ordersViewParams(view);
    expect(params.toString()).toBe(
      'status=all&q=%D0%9E%D0%9E%D0%9E&from=2026-11-01&to=2026-11-30&sort=total_asc&mine=true&page=4&size=50',
    );
    expect(readOrdersView(params)).toEqual(view);
    expect(ordersRequest(view)).toMatchObject({ status: undefined, q: 'ООО', mine: true, skip: 150, limit: 50 });
    expect(ordersViewParams(read('status=Создан&page=1&size=20')).toString()).toBe('');
  });
});
