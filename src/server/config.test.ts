import { loadConfig } from './config';

describe('PUBLIC_URL', () => {
  it('is the origin it names, or unset', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://Myagkiy-Opt.example/' }).publicUrl).toBe('https://myagkiy-opt.example');
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    'myagkiy-opt.example',
    'ftp://myagkiy-opt.example',
    'https://myagkiy-opt.example/shop',
    'https://x.example/?a=1',
  ])('refuses %s, which is not an http(s) origin', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
  });
});
