import { makeToken } from '@/test/fixtures';
import { isExpired } from './accessToken';

describe('isExpired', () => {
  test('reads the expiry from the exp claim in seconds', () => {
    expect(isExpired(makeToken(3600))).toBe(false);
    expect(isExpired(makeToken(-1))).toBe(true);
  });

  test('treats a token without exp, or one that cannot be decoded, as expired', () => {
    const noExp = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.sig`;
    expect(isExpired(noExp)).toBe(true);
    expect(isExpired('not-a-token')).toBe(true);
  });
});
