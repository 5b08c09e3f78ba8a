/** Test data for the back office's suites (features/admin): a manager and the admin API's answers. */
import type { AdminOrder, AdminOrderList, User } from '@shared/api';
import type { SupplierRequisites } from '@shared/schemas/settings';

export const MANAGER: User = { id: 3, email: 'anna.manager@example.ru', role: 'manager' };

export function adminOrderRow(overrides: Partial<AdminOrderList['items'][number]> = {}) {
  return {
    id: 15,
    created_at: '2026-11-24T09:30:00.000Z',
    status: 'Создан' as const,
    total_price: 4500,
    items_count: 3,
    user_email: 'ivan.petrov@example.ru',
    company_name: 'ООО «Игрушки»',
    company_inn: '7707083893',
    ...overrides,
  };
}

export function adminOrder(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: 15,
    created_at: '2026-11-24T09:30:00.000Z',
    status: 'Создан',
    total_price: 4500,
    lines: [
      {
        art: 'BEAR-01',
        name: 'Мишка Тедди',
        color: 'Коричневый',
        size: 30,
        price: 1500,
        quantity: 3,
        item_total: 4500,
      },
    ],
    contact_name: 'Иван Петров',
    contact_phone: '+7 900 000-00-00',
    address: 'Россия, Москва, ул. Ленина, д. 1',
    company_name: 'ООО «Игрушки»',
    company_inn: '7707083893',
    company_kpp: '770101001',
    user: { id: 7, email: 'ivan.petrov@example.ru', trusted: false, has_paid_order: false },
    history: [],
    next_statuses: ['Отменён'],
    invoice: null,
    ...overrides,
  };
}

/** Published numbers (ПАО Сбербанк), the same as src/shared/requisites.test.ts uses: every check passes. */
export const SUPPLIER: SupplierRequisites = {
  name: 'ООО «Мягкий Опт»',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  address: '117997, г. Москва, ул. Вавилова, д. 19',
  bank_name: 'ПАО Сбербанк',
  bik: '044525225',
  account: '40702810638000000000',
  corr_account: '30101810400000000225',
  vat_rate: 22,
  payment_days: 5,
};
