import { LIMITS } from './api';

/**
 * The buyer's own account (issue 20): the password's reset and change, the consent to the
 * processing of personal data, the export and the deletion. Kept out of shared/api.ts, which the
 * storefront's first load carries whole: only the dialog, the profile, their pages and the server
 * need these.
 */
export const ACCOUNT_MESSAGES = {
  passwordLength: `Пароль должен содержать от ${LIMITS.passwordMin} до ${LIMITS.passwordMax} символов`,
  consentRequired: 'Для регистрации нужно согласие на обработку персональных данных.',
  currentPasswordWrong: 'Текущий пароль указан неверно.',
  passwordWrong: 'Пароль указан неверно.',
  resetLinkInvalid: 'Ссылка для сброса пароля недействительна или устарела.',
  /** Said after every reset request, whether or not the address has an account. */
  resetRequested:
    'Если такой адрес зарегистрирован, мы отправили на него письмо со ссылкой для сброса пароля. Ссылка действует 1 час.',
} as const;

/** What a deleted buyer's personal fields read in the orders kept for accounting, and the buyer's e-mail in the back office. */
export const DELETED_PERSONAL_DATA = 'удалено';

/** The reset link's query parameter: `/reset-password?token=…`. */
export const RESET_TOKEN_PARAM = 'token';

/** The file the export is saved as. */
export const ACCOUNT_EXPORT_FILE_NAME = 'moi-dannye.json';
