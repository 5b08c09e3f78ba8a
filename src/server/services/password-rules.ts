import { dictionary } from '@zxcvbn-ts/language-common';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { LIMITS } from '../../shared/limits';

/** Why a new password is refused beyond its length; the server's alone (the storefront shows its `detail`). */
export const PASSWORD_RULE_MESSAGES = {
  common: 'Этот пароль слишком распространён: его легко подобрать. Придумайте другой.',
  email: 'Пароль не должен совпадать с адресом почты: его легко угадать. Придумайте другой.',
} as const;

/**
 * The most common passwords of the breaches zxcvbn-ts collected (49 000, most common first, all
 * lower-case), of them those long enough to pass the length rule (about 18 000): read once, on
 * the server only, when the auth routes load.
 */
const COMMON_PASSWORDS = new Set(
  dictionary['passwords-common'].filter((password) => [...password].length >= LIMITS.passwordMin),
);

/** The Russian keyboard's letters and the Latin keys they share, row by row (ЙЦУКЕН over QWERTY). */
const RUSSIAN_KEYS = 'йцукенгшщзхъфывапролджэячсмитьбюё';
const LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";
const LATIN_KEY_OF = new Map([...RUSSIAN_KEYS].map((letter, index) => [letter, LATIN_KEYS[index]!]));

/**
 * The keys pressed to type `password` on a Russian layout, as a Latin one reads them: «пароль» is
 * `gfhjkm`, which the lists carry (guessers try both layouts), and «йцукенгш» is `qwertyui`.
 */
const latinKeys = (password: string) => [...password].map((char) => LATIN_KEY_OF.get(char) ?? char).join('');

/**
 * Why `password` may not be an account's new one, or `null` when it may: its length
 * (`ACCOUNT_MESSAGES.passwordLength`), one of the most common passwords in any case or typed on
 * the Russian layout, or one character over and over (`00000000`, which the lists happen to lack),
 * or the account's e-mail or the part of it before «@» in any case.
 */
export function newPasswordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < LIMITS.passwordMin || length > LIMITS.passwordMax) return ACCOUNT_MESSAGES.passwordLength;
  // Normalised as the hash normalises it, so what is compared is what would be stored.
  const typed = password.normalize('NFKC').toLowerCase();
  const address = email.toLowerCase();
  if (typed === address || typed === address.split('@')[0]) return PASSWORD_RULE_MESSAGES.email;
  if (COMMON_PASSWORDS.has(typed) || COMMON_PASSWORDS.has(latinKeys(typed)) || new Set(typed).size === 1) {
    return PASSWORD_RULE_MESSAGES.common;
  }
  return null;
}
