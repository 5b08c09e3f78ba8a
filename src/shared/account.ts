import { LIMITS } from './limits';

/**
 * The buyer's own account: the password's reset and change, the consent to the
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

/** The confirmation link's query parameter: `/confirm-email?token=…`. */
export const EMAIL_CONFIRMATION_TOKEN_PARAM = 'token';

/** How long a confirmation link works, as the letter and EMAIL_CONFIRMATION_MESSAGES.sent say. */
export const EMAIL_CONFIRMATION_LINK_HOURS = 24;

/**
 * The confirmation of the buyer's e-mail address before the first order
 * (REQUIRE_EMAIL_CONFIRMATION): what the server answers and the storefront says.
 */
export const EMAIL_CONFIRMATION_MESSAGES = {
  /** The order refused (403) to a buyer who has not confirmed the address; the checkout says it too. */
  required:
    'Подтвердите адрес почты по ссылке из письма, и можно будет оформить заказ. ' +
    'Если письма нет, проверьте папку «Спам» или отправьте его ещё раз.',
  /** After «Отправить письмо ещё раз». */
  sent: `Письмо отправлено. Ссылка в нём действует ${EMAIL_CONFIRMATION_LINK_HOURS} часа.`,
  alreadyConfirmed: 'Адрес почты уже подтверждён.',
  linkInvalid: 'Ссылка для подтверждения адреса недействительна или устарела. Войдите и отправьте письмо ещё раз.',
  /** The page of the link, once the address is confirmed. */
  confirmed: 'Адрес почты подтверждён. Теперь можно оформлять заказы.',
} as const;
