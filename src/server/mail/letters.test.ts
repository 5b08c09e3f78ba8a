import { passwordResetMail } from './password-reset';
import { statusChanged } from './order-letters';
import type { ShopMail } from './letter';

const shop: ShopMail = {
  shopUrl: 'https://myagkiy-opt.example',
  contactEmail: 'opt@myagkiy-opt.example',
  managerEmails: [],
};

describe('the password-reset message', () => {
  it('goes to the account, with the link on the shop, HTML-escaped, and the plain text', () => {
    const mail = passwordResetMail(shop, { email: 'anna@example.com', link: '/reset-password?token=a&b=<c>' });
    expect(mail.to).toBe('anna@example.com');
    expect(mail.subject).toBe('Восстановление пароля — Мягкий Опт');
    expect(mail.html).toContain(
      '<a href="https://myagkiy-opt.example/reset-password?token=a&amp;b=%3Cc%3E">Задать новый пароль</a>',
    );
    expect(mail.text).toContain('Задать новый пароль: https://myagkiy-opt.example/reset-password?token=a&b=%3Cc%3E');
    expect(mail.text).toContain('Для учётной записи anna@example.com запрошена смена пароля.');
    expect(mail.text).toContain('Вопросы: opt@myagkiy-opt.example');
  });
});

describe('the status message', () => {
  it.each([
    ['Отправлен', 'Заказ передан в доставку.'],
    ['Доставлен', 'Заказ доставлен. Спасибо, что выбрали нас!'],
  ] as const)('«%s» says what it means', (status, news) => {
    const mail = statusChanged(shop, 7, status);
    expect(mail.subject).toBe(`Заказ № 7: ${status} — Мягкий Опт`);
    expect(mail.text).toContain(`Статус вашего заказа № 7 — «${status}». ${news}`);
    expect(mail.html).toContain(
      '<a href="https://myagkiy-opt.example/profile/orders/7">Заказ № 7 в личном кабинете</a>',
    );
  });
});
