import { throttledClient } from './sign-in-throttle';

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
