import { Type } from 'typebox';
import { USER_ROLES } from '../api';

// Generous caps that only stop abuse; the real rules (SPEC §5, password length) are checked by
// the handler so that it can answer with the storefront's own Russian messages.
const EmailInput = Type.String({ maxLength: 1000 });
const PasswordInput = Type.String({ maxLength: 1000 });

export const TokenSchema = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') });

export const UserSchema = Type.Object({ id: Type.Integer(), email: Type.String(), role: Type.Enum(USER_ROLES) });

/** Sent form-urlencoded by the storefront (SPEC §7), JSON accepted too. */
export const LoginBody = Type.Object({ username: EmailInput, password: PasswordInput });

/** SPEC §7 sends them in the query; a JSON body is accepted too. */
export const RegisterFields = Type.Object({ email: Type.Optional(EmailInput), password: Type.Optional(PasswordInput) });
