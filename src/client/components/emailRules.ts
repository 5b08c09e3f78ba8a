import type { FormRule } from 'antd';
import { EMAIL_PATTERN } from '@shared/api';
import { MESSAGES } from '@shared/messages';

/** An e-mail field's antd rules, with the SPEC's messages: every form that asks for an address. */
export const EMAIL_RULES: FormRule[] = [
  { required: true, whitespace: true, message: MESSAGES.emailRequired },
  { pattern: EMAIL_PATTERN, message: MESSAGES.emailInvalid },
];
