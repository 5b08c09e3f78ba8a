import type { Address } from '@shared/api';

/** An address as one line, as the checkout's delivery address and the address book show it. */
export function formatAddress({ country, city, street, home_number, apartment_number }: Address): string {
  return [country, city, street, `д. ${home_number}`, apartment_number && `кв. ${apartment_number}`]
    .filter(Boolean)
    .join(', ');
}
