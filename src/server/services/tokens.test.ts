import { createAccessTokens } from './tokens';

const SECRET = 'a-secret-of-the-tests-only-and-long-enough-for-hs256';
const SESSION = '00000000-0000-4000-8000-00000000000a';

describe('access tokens', () => {
  afterEach(() => jest.restoreAllMocks());

  it('a token verified before is refused once it expires, though remembered', () => {
    const start = Math.floor(Date.now() / 1000) * 1000;
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    const tokens = createAccessTokens(SECRET, 60);
    const token = tokens.sign(7, SESSION);
    expect(tokens.verify(token)).toEqual({ userId: 7, sessionId: SESSION });
    clock.mockReturnValue(start + 60_000);
    expect(tokens.verify(token)).toEqual({ userId: 7, sessionId: SESSION });
    clock.mockReturnValue(start + 61_000);
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.verify(token)).toBeNull();
  });

  it('a token changed after its original was accepted is refused: its payload, or its signature', () => {
    const tokens = createAccessTokens(SECRET, 60);
    const token = tokens.sign(7, SESSION);
    expect(tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, sub: '8' })).toString('base64url');
    expect(tokens.verify(`${header}.${otherPayload}.${signature}`)).toBeNull();
    const otherSignature = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(tokens.verify(`${header}.${payload}.${otherSignature}`)).toBeNull();
    expect(tokens.verify(token)).toEqual({ userId: 7, sessionId: SESSION });
  });

  it('another secret’s token is refused', () => {
    const token = createAccessTokens(`${SECRET}-other`, 60).sign(7, SESSION);
    expect(createAccessTokens(SECRET, 60).verify(token)).toBeNull();
  });
});
