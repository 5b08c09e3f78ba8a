import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { Company, CurrentUser } from '@shared/api';

export const API = 'http://shop.test/api/v1';

/**
 * The signed-in buyer as GET /auth/user answers by default: the address confirmed and a paid order
 * (no limit shown where quantities are typed). Tests of the confirmation and the limits answer
 * otherwise with server.use. The same id and e-mail as fixtures' USER.
 */
export const CURRENT_USER: CurrentUser = {
  id: 7,
  email: 'ivan.petrov@example.ru',
  role: 'buyer',
  email_confirmed: true,
  must_confirm_email: false,
  proven: true,
  order_limits: { line_share_percent: null, unproven_pool_percent: null, max_unpaid_orders: 20 },
  company: { id: 3, name: 'ООО «Игрушки»', role: 'owner', blocked: false },
};

/**
 * The signed-in buyer's company as GET /company answers by default: they are its only employee and
 * owner, with no legal entities (the checkout's company fields are typed), no manager, no invitations.
 */
export const OWN_COMPANY: Company = {
  id: 3,
  name: 'ООО «Игрушки»',
  role: 'owner',
  blocked: false,
  members: [{ user_id: 7, email: 'ivan.petrov@example.ru', role: 'owner', name: 'Иван Петров' }],
  legal_entities: [],
  manager: null,
  invitations: [],
};

/**
 * The network, mocked at the HTTP layer: each test installs the handlers it needs with server.use;
 * the buyer's standing and company (and the back office's list of conformity documents, which the
 * product form offers) are answered unless a test says otherwise (resetHandlers keeps them).
 */
export const server = setupServer(
  http.get(`${API}/auth/user`, () => HttpResponse.json(CURRENT_USER)),
  http.get(`${API}/company`, () => HttpResponse.json(OWN_COMPANY)),
  http.get(`${API}/company/feed`, () => HttpResponse.json({ active: false, created_at: null })),
  http.get(`${API}/admin/conformity-documents`, () => HttpResponse.json([])),
);
