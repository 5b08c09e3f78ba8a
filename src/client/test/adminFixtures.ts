/** Test data for the back office's suites (features/admin): a manager and the admin API's answers. */
import type {
  ConformityDocument,
  AdminCompany,
  AdminCompanyList,
  AdminOrder,
  AdminOrderList,
  AdminProduct,
  AdminVariant,
  PriceType,
  StaffProfile,
  User,
} from '@shared/api';
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
    one_c: null,
    lines: [
      {
        art: 'BEAR-01',
        name: 'Мишка Тедди',
        color: 'Коричневый',
        size: 30,
        price: 1500,
        quantity: 3,
        item_total: 4500,
        list_price: null,
        price_type: null,
        tier_from: null,
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
    company: { id: 3, name: 'ООО «Игрушки»' },
    placed_by: 'Иван Петров',
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

export function adminCompanyRow(overrides: Partial<AdminCompanyList['items'][number]> = {}) {
  return {
    id: 21,
    name: 'Игрушки Плюс',
    inns: ['7707083893'],
    owner_email: 'owner@igrushki.ru',
    members_count: 3,
    orders_count: 12,
    blocked: false,
    trusted: false,
    manager: null,
    price_type: null,
    created_at: '2026-10-01T09:00:00.000Z',
    ...overrides,
  };
}

/** A company with an owner, a purchaser, one legal entity (an organisation), one order and one journal entry. */
export function adminCompany(overrides: Partial<AdminCompany> = {}): AdminCompany {
  return {
    id: 21,
    name: 'Игрушки Плюс',
    created_at: '2026-10-01T09:00:00.000Z',
    blocked: false,
    trusted: false,
    has_paid_order: false,
    manager: null,
    price_type: null,
    members: [
      { user_id: 7, email: 'owner@igrushki.ru', role: 'owner', name: 'Иван Петров' },
      { user_id: 8, email: 'buyer@igrushki.ru', role: 'purchaser', name: null },
    ],
    legal_entities: [
      {
        id: '6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f',
        kind: 'org',
        name: 'ООО «Игрушки Плюс»',
        inn: '7707083893',
        kpp: '770101001',
        ogrn: '1027700132195',
        address: '117997, г. Москва, ул. Вавилова, д. 19',
        bank_name: null,
        bik: null,
        account: null,
        corr_account: null,
        is_default: true,
        last_used_at: null,
        same_inn_kpp: [],
      },
    ],
    invitations: [
      {
        id: 4,
        email: 'accountant@igrushki.ru',
        role: 'accountant',
        created_at: '2026-11-20T09:00:00.000Z',
        expires_at: '2026-11-27T09:00:00.000Z',
      },
    ],
    orders: [
      {
        id: 15,
        created_at: '2026-11-24T09:30:00.000Z',
        status: 'Создан',
        total_price: 4500,
        placed_by: 'buyer@igrushki.ru',
        legal_entity: 'ООО «Игрушки Плюс»',
      },
    ],
    audit: [{ at: '2026-11-20T09:00:00.000Z', action: 'company.invite', by: 'owner@igrushki.ru', details: null }],
    ...overrides,
  };
}

export function staffProfile(overrides: Partial<StaffProfile> = {}): StaffProfile {
  return {
    id: 3,
    email: MANAGER.email,
    name: 'Анна Смирнова',
    contact_email: 'anna@myagkiy-opt.ru',
    phone: '+7 495 000-00-00',
    messenger_url: 'https://t.me/anna_opt',
    companies_count: 5,
    ...overrides,
  };
}

/** A product as the back office reads it: one variant, sold by the piece, no prices beyond the default type's. */
export function adminVariant(overrides: Partial<AdminVariant> = {}): AdminVariant {
  return {
    id: 51,
    color: 'Бежевый',
    size: 30,
    price: 990,
    stock: 12,
    prices: [],
    barcode: null,
    barcode_kind: null,
    marked: false,
    package: null,
    weight_g: null,
    ...overrides,
  };
}

export function adminProduct(overrides: Partial<AdminProduct> = {}): AdminProduct {
  return {
    id: 5,
    art: 'BEAR-05',
    name: 'Мишка Тедди',
    description: 'Плюшевый мишка',
    big_description: null,
    category: 'Мишки',
    popular: false,
    image: 'bear.webp',
    hidden: false,
    multiple: 1,
    min_quantity: 1,
    tiers: [],
    brand: null,
    material: null,
    filler: null,
    age_from: null,
    country_of_origin: null,
    tnved: null,
    conformity_document_id: null,
    photos: [],
    variants: [adminVariant()],
    ...overrides,
  };
}

/** The supplier's price types: «Опт» by default, «Крупный опт» with a minimum order, and the РРЦ. */
export const PRICE_TYPES: PriceType[] = [
  { id: 1, code: 'opt', name: 'Опт', is_default: true, is_rrp: false, min_order_sum: 0, companies_count: 0 },
  {
    id: 2,
    code: 'large',
    name: 'Крупный опт',
    is_default: false,
    is_rrp: false,
    min_order_sum: 50000,
    companies_count: 3,
  },
  { id: 3, code: 'rrp', name: 'РРЦ', is_default: false, is_rrp: true, min_order_sum: 0, companies_count: 0 },
];

/** A conformity document as the back office's list has it. */
export function conformityDocument(overrides: Partial<ConformityDocument> = {}): ConformityDocument {
  return {
    id: 1,
    kind: 'declaration',
    regulation: 'ТР ТС 008/2011',
    number: 'ЕАЭС N RU Д-CN.РА01.В.00001/26',
    valid_from: '2026-01-15',
    valid_to: '2031-01-14',
    pdf_bytes: 204_800,
    products: 2,
    expired: false,
    ...overrides,
  };
}
