import type { FormRule } from 'antd';
import { ACCOUNT_MESSAGES } from '@shared/account';
import { LIMITS } from '@shared/limits';
import { MESSAGES } from '@shared/messages';

/**
 * The rules of a new password, one set for every form that makes one (registration, the reset page,
 * the profile's change of password): the server's length, counted in characters as it counts them.
 */
export const newPasswordRules: FormRule[] = [
  {
    validator: (_rule, value: string | undefined) => {
      const length = [...(value ?? '')].length;
      return length >= LIMITS.passwordMin && length <= LIMITS.passwordMax
        ? Promise.resolve()
        : Promise.reject(new Error(ACCOUNT_MESSAGES.passwordLength));
    },
  },
];

/** The confirmation's rule: it must repeat the field `passwordField` (put it in the item's `dependencies`). */
export const confirmationRule =
  (passwordField: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value) =>
      !value || value === getFieldValue(passwordField)
        ? Promise.resolve()
        : Promise.reject(new Error(MESSAGES.passwordsDiffer)),
  });
