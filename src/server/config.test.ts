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

describe('mail', () => {
  it('without SMTP_URL writes to DATA_DIR/mail, from no-reply at the shop’s domain', () => {
    const { mail } = loadConfig({ DATA_DIR: '/srv/shop', PUBLIC_URL: 'https://myagkiy-opt.ru' });
    expect(mail).toMatchObject({
      smtpUrl: null,
      dir: '/srv/shop/mail',
      from: '"Мягкий Опт" <noreply@myagkiy-opt.ru>',
      managerEmails: [],
      contactEmail: 'opt@myagkiy-opt.example',
    });
  });

  it('reads SMTP_URL, MAIL_FROM, MANAGER_EMAILS and CONTACT_EMAIL', () => {
    const { mail } = loadConfig({
      SMTP_URL: 'smtps://shop:secret@smtp.example:465',
      MAIL_FROM: 'Магазин <shop@example.com>',
      MANAGER_EMAILS: ' Boss@Example.com, ,sales@example.com ',
      CONTACT_EMAIL: 'help@example.com',
    });
    expect(mail).toMatchObject({
      smtpUrl: 'smtps://shop:secret@smtp.example:465',
      from: 'Магазин <shop@example.com>',
      managerEmails: ['boss@example.com', 'sales@example.com'],
      contactEmail: 'help@example.com',
    });
  });

  it.each([
    ['SMTP_URL', 'https://smtp.example'],
    ['SMTP_URL', 'smtp.example:587'],
    ['MANAGER_EMAILS', 'boss@example.com, not-an-address'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
