import { dictionary } from '@zxcvbn-ts/language-common';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { newPasswordProblem, PASSWORD_RULE_MESSAGES } from './password-rules';

const EMAIL = 'Olga.Petrova@Example.ru';

describe('newPasswordProblem', () => {
  it('refuses every one of the breached passwords of a valid length — over 10 000 of them — in any case', () => {
    const longEnough = dictionary['passwords-common'].filter((password) => [...password].length >= 8);
    expect(longEnough.length).toBeGreaterThan(10_000);
    const accepted = longEnough.filter(
      (password) =>
        newPasswordProblem(password, EMAIL) !== PASSWORD_RULE_MESSAGES.common ||
        newPasswordProblem(password.toUpperCase(), EMAIL) !== PASSWORD_RULE_MESSAGES.common,
    );
    expect(accepted).toEqual([]);
  });

  it.each([
    '12345678',
    'password',
    'qwertyui',
    '11111111',
    'Password',
    'P@ssw0rd',
    'ЙЦУКЕНГШ',
    'пароль123',
    'ааааааааа',
  ])('refuses %j as too common', (password) => {
    expect(newPasswordProblem(password, EMAIL)).toBe(PASSWORD_RULE_MESSAGES.common);
  });

  it.each([EMAIL, EMAIL.toLowerCase(), 'olga.petrova', 'OLGA.PETROVA'])('refuses %j as the e-mail', (password) => {
    expect(newPasswordProblem(password, EMAIL)).toBe(PASSWORD_RULE_MESSAGES.email);
  });

  it('checks the length first, with its own message', () => {
    expect(newPasswordProblem('1234567', EMAIL)).toBe(ACCOUNT_MESSAGES.passwordLength);
    expect(newPasswordProblem('x'.repeat(129), EMAIL)).toBe(ACCOUNT_MESSAGES.passwordLength);
  });

  it.each(['correct horse battery', 'мишка-42', 'olga.petrova 2026', 'Плюшевый-мишка-2026', 'teddy-bear-42'])(
    'accepts %j',
    (password) => {
      expect(newPasswordProblem(password, EMAIL)).toBeNull();
    },
  );

  it('says why in Russian', () => {
    expect(PASSWORD_RULE_MESSAGES.common).toMatch(/^Этот пароль слишком распространён: его легко подобрать\./);
    expect(PASSWORD_RULE_MESSAGES.email).toMatch(/^Пароль не должен совпадать с адресом почты/);
  });
});
