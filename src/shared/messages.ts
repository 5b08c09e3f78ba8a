/**
 * Texts of SPEC §5 and §8 that the server may send and the storefront shows as they are. Kept out
 * of shared/api.ts, which the storefront's first load carries whole: each text goes only into the
 * chunks that show it (the sign-in dialog, the checkout form).
 */
export const MESSAGES = {
  emailRequired: 'Email обязателен',
  emailInvalid: 'Некорректный формат email',
  passwordsDiffer: 'Пароли не совпадают',
  loginFailed: 'Неверный email или пароль',
  registrationFailed: 'Ошибка при регистрации',
  emailTaken: 'Пользователь с таким email уже существует',
  checkoutRequired: 'Пожалуйста, заполните имя, телефон и адрес доставки.',
  // ИНН and КПП as the law has them, not SPEC §5's 12-only rule (docs/decisions.md).
  innLength: 'ИНН должен содержать 10 цифр (организация) или 12 цифр (ИП).',
  innChecksum: 'Некорректный ИНН: не сходится контрольное число.',
  kppWithPersonalInn: 'КПП указывается только для организаций (ИНН из 10 цифр).',
  kppLength: 'КПП должен содержать ровно 9 символов.',
  orderFailed: 'Что-то пошло не так...',
} as const;
