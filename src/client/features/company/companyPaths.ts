import { PAGE_PATHS } from '@shared/paths';

/** Where the profile's «Компания» starts (its section's id). */
export const COMPANY_SECTION_ID = 'company';

/** The profile opened at «Компания»: where a new employee lands after accepting an invitation. */
export const COMPANY_SECTION_PATH = `${PAGE_PATHS.profile}#${COMPANY_SECTION_ID}`;
