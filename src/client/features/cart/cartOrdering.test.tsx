import { screen } from '@testing-library/react';
import { COMPANY_MESSAGES, type CompanyRole } from '@shared/company';
import { cart, cartHandler, cartItem, companyNetwork, homeHandlers, loggedIn } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { server } from '@/test/server';

/** The cart with one line, for the buyer in `role` of a company the shop has (or has not) blocked. */
async function openCart(role: CompanyRole, blocked = false) {
  companyNetwork(role, { blocked });
  server.use(cartHandler(cart([cartItem()])), ...homeHandlers());
  renderShop({ route: '/cart', preloadedState: loggedIn() });
  await screen.findByRole('heading', { name: /Итого/ });
}

describe('Cart: who may order', () => {
  test("an accountant's cart says why it places no order and has no «Оформить заказ»", async () => {
    await openCart('accountant');
    expect(await screen.findByText(COMPANY_MESSAGES.accountantCannotOrder)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Оформить заказ' })).not.toBeInTheDocument();
  });

  test("a blocked company's cart says so and has no «Оформить заказ»", async () => {
    await openCart('purchaser', true);
    expect(await screen.findByText(COMPANY_MESSAGES.companyBlocked)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Оформить заказ' })).not.toBeInTheDocument();
  });

  test('a purchaser orders: «Оформить заказ» and no notice', async () => {
    await openCart('purchaser');
    expect(await screen.findByRole('button', { name: 'Оформить заказ' })).toBeEnabled();
    expect(screen.queryByText(COMPANY_MESSAGES.accountantCannotOrder)).not.toBeInTheDocument();
    expect(screen.queryByText(COMPANY_MESSAGES.companyBlocked)).not.toBeInTheDocument();
  });
});
