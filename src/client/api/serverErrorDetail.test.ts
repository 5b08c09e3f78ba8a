import { serverErrorDetail } from './serverErrorDetail';

describe('serverErrorDetail', () => {
  it("reads the server's detail from an RTK Query error", () => {
    expect(
      serverErrorDetail({
        status: 409,
        data: { detail: 'Такой email уже зарегистрирован' },
      }),
    ).toBe('Такой email уже зарегистрирован');
  });

  it.each([
    ['a network failure', { status: 'FETCH_ERROR', error: 'Failed to fetch' }],
    ['an empty detail', { status: 400, data: { detail: '' } }],
    ['a detail that is not text', { status: 400, data: { detail: [{ message: 'x' }] } }],
    ['no error object', undefined],
  ])('gives nothing for %s, so the caller uses its own words', (_case, error) => {
    expect(serverErrorDetail(error)).toBeUndefined();
  });
});
