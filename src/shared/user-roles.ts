/** A buyer shops; a manager also runs the back office (/api/v1/admin). */
export const USER_ROLES = ['buyer', 'manager'] as const;
export type UserRole = (typeof USER_ROLES)[number];
