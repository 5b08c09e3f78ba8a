import { DEFAULT_CONTACT_EMAIL } from '@shared/shop-contacts';

/** The API base address {host} of SPEC §7, fixed at build time (API_URL), always ending with '/'. */
export const API_HOST: string = process.env.API_URL ?? '/';

/** The shop's contact address for the contact strip (CONTACT_EMAIL at build time). */
export const CONTACT_EMAIL: string = process.env.CONTACT_EMAIL ?? DEFAULT_CONTACT_EMAIL;
