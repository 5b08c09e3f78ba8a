import { COMPANY_ROLE_LABELS, COMPANY_ROLES } from '@shared/company';

/** The roles as a Select offers them: the employees' table and the invitation form. */
export const ROLE_OPTIONS = COMPANY_ROLES.map((role) => ({ value: role, label: COMPANY_ROLE_LABELS[role] }));
