import { accountDelayMs, throttledClient } from './sign-in-throttle';

describe('accountDelayMs', () => {
  const limit = { max: 10, windowMs: 15 * 60 * 1000 };

  it('is 30 s at the limit and doubles with each further failure, up to the window', () => {
    expect([10, 11, 12, 13, 14, 15].map((failures) => accountDelayMs(failures, limit) / 1000)).toEqual([
      30, 60, 120, 240, 480, 900,
    ]);
    expect(accountDelayMs(10_000, limit)).toBe(limit.windowMs);
  });
});

describe('throttledClient', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['a::b:c:d:e:1.2.3.4', 'a:0:b:c::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s is counted as %s', (ip, client) => {
    expect(throttledClient(ip)).toBe(client);
  });

  it('tells apart two /64 networks however near', () => {
    expect(throttledClient('2001:db8:1:2::1')).not.toBe(throttledClient('2001:db8:1:3::1'));
  });
});
