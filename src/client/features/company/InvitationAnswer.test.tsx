import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { ACCOUNT_MESSAGES } from '@shared/account';
import type { InvitationPreview } from '@shared/api';
import { COMPANY_MESSAGES } from '@shared/company';
import { PAGE_PATHS } from '@shared/paths';
import {
  cart,
  cartHandler,
  json,
  loggedIn,
  makeToken,
  recorder,
  refreshFails,
  requisites,
  USER,
  visitor,
} from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, CURRENT_USER, server } from '@/test/server';

const TOKEN = 'inv-3f9a1c';

const PREVIEW: InvitationPreview = {
  email: USER.email,
  role: 'purchaser',
  company_name: 'ООО «Игрушки»',
  expires_at: '2026-12-05T10:00:00.000Z',
  account_exists: false,
};

/** The invitation's page opened from the letter's link, its preview answered with `preview` (or a refusal). */
function openInvitation(
  preview: InvitationPreview | { status: number; detail: string },
  { signedIn = false, hash = `#${TOKEN}` } = {},
  ...handlers: Parameters<typeof server.use>
) {
  const previews = recorder();
  const accepts = recorder();
  server.use(
    ...handlers,
    http.post(`${API}/company/invitations/preview`, ({ request }) => {
      previews.record(request);
      return 'status' in preview ? json({ detail: preview.detail }, preview.status) : json(preview);
    }),
    http.post(`${API}/company/invitations/accept`, ({ request }) => {
      accepts.record(request);
      return json({ user_id: USER.id, email: USER.email, company_id: 3, role: 'purchaser' });
    }),
    // Where the accepted invitation leads: the profile.
    cartHandler(cart([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(requisites())),
    http.get(`${API}/address/${USER.id}`, () => json([])),
    http.get(`${API}/order/${USER.id}`, () => json([])),
    refreshFails(),
  );
  const user = userEvent.setup({ delay: null });
  const rendered = renderShop({
    route: `${PAGE_PATHS.invitation}${hash}`,
    preloadedState: signedIn ? loggedIn() : visitor(),
  });
  return { user, previews, accepts, ...rendered };
}

const acceptButton = () => screen.getByRole('button', { name: 'Принять приглашение' });
const consent = () => screen.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ });

describe('The invitation page', () => {
  test('shows who invites whom, in which role, until when, and wipes the token from the address', async () => {
    const { previews, router } = openInvitation(PREVIEW);
    expect(await screen.findByRole('heading', { name: 'Приглашение в компанию' })).toBeInTheDocument();
    const details = await screen.findByText('Действует до');
    const card = within(details.closest('.ant-card') as HTMLElement);
    expect(card.getAllByText('ООО «Игрушки»').length).toBeGreaterThan(0);
    expect(card.getByText('Закупщик — корзина, заказы для компании, история заказов компании')).toBeInTheDocument();
    expect(card.getByText(USER.email)).toBeInTheDocument();
    expect(card.getByText(/5 декабря 2026 г\./)).toBeInTheDocument();
    expect(await previews.last!.json()).toEqual({ token: TOKEN });
    // The token was read from the fragment and is kept in no address.
    expect(router.state.location.hash).toBe('');
    expect(router.state.location.pathname).toBe(PAGE_PATHS.invitation);
    expect(new URL(previews.last!.url).search).toBe('');
  });

  test('a new address makes its account with a password, accepts, is signed in and lands at the company', async () => {
    const logins = recorder();
    const token = makeToken();
    const { user, accepts, router, store } = openInvitation(
      PREVIEW,
      {},
      http.post(`${API}/auth/token`, ({ request }) => {
        logins.record(request);
        return json({ access_token: token, token_type: 'bearer' });
      }),
      http.get(`${API}/auth/user`, ({ request }) =>
        request.headers.get('Authorization') === `Bearer ${token}`
          ? json({ ...CURRENT_USER, company: { id: 3, name: 'ООО «Игрушки»', role: 'purchaser', blocked: false } })
          : json({ detail: 'Не авторизован' }, 401),
      ),
    );
    expect(await screen.findByText(COMPANY_MESSAGES.passwordNeeded)).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue(USER.email);
    await user.type(screen.getByLabelText('Пароль'), 'short');
    await user.click(acceptButton());
    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordLength)).toBeInTheDocument();
    expect(accepts.calls).toHaveLength(0);

    await user.clear(screen.getByLabelText('Пароль'));
    await user.type(screen.getByLabelText('Пароль'), 'new password 1');
    await user.type(screen.getByLabelText('Подтвердите пароль'), 'new password 1');
    await user.click(consent());
    await user.click(acceptButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.hash).toBe('#company');
    expect(await accepts.last!.json()).toEqual({ token: TOKEN, password: 'new password 1', consent: true });
    expect(Object.fromEntries(new URLSearchParams(await logins.last!.text()))).toEqual({
      username: USER.email,
      password: 'new password 1',
    });
    expect(store.getState().session.user).toMatchObject({ id: USER.id, email: USER.email });
    expect(await screen.findByRole('region', { name: 'Компания' })).toBeInTheDocument();
  });

  test('nothing is accepted without the consent', async () => {
    const { user, accepts } = openInvitation(PREVIEW);
    await user.type(await screen.findByLabelText('Пароль'), 'new password 1');
    await user.type(screen.getByLabelText('Подтвердите пароль'), 'new password 1');
    await user.click(acceptButton());
    expect(await screen.findByText(ACCOUNT_MESSAGES.consentRequired)).toBeInTheDocument();
    expect(accepts.calls).toHaveLength(0);
  });

  test('a used or expired invitation shows the server’s detail, and no form', async () => {
    openInvitation({ status: 410, detail: COMPANY_MESSAGES.invitationGone });
    expect(await screen.findByText(COMPANY_MESSAGES.invitationGone)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Принять приглашение' })).not.toBeInTheDocument();
  });

  test('a link without its token says so and asks the server nothing', async () => {
    const { previews } = openInvitation(PREVIEW, { hash: '' });
    expect(await screen.findByText(COMPANY_MESSAGES.invitationNotFound)).toBeInTheDocument();
    expect(previews.calls).toHaveLength(0);
  });

  test('an address that has an account is asked to sign in first', async () => {
    const { user, accepts } = openInvitation({ ...PREVIEW, account_exists: true });
    const notice = (await screen.findByText(COMPANY_MESSAGES.accountExists)).closest('.ant-alert') as HTMLElement;
    expect(screen.queryByLabelText('Пароль')).not.toBeInTheDocument();
    await user.click(within(notice).getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('dialog', { name: 'Вход в личный кабинет' })).toBeInTheDocument();
    expect(accepts.calls).toHaveLength(0);
  });

  test('signed in under the invited address, the employee consents and accepts without a password', async () => {
    const { user, accepts, router } = openInvitation({ ...PREVIEW, account_exists: true }, { signedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: /Я согласен/ }));
    expect(screen.queryByLabelText('Пароль')).not.toBeInTheDocument();
    await user.click(acceptButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await accepts.last!.json()).toEqual({ token: TOKEN, consent: true });
    expect(accepts.last!.headers.get('authorization')).toBe(`Bearer ${sessionStorage.getItem('access_token')}`);
  });

  test('a refusal of the acceptance (409) is shown with its detail', async () => {
    const { user } = openInvitation(
      { ...PREVIEW, account_exists: true },
      { signedIn: true },
      http.post(`${API}/company/invitations/accept`, () => json({ detail: COMPANY_MESSAGES.ownOrdersNeedMerge }, 409)),
    );
    await user.click(await screen.findByRole('checkbox', { name: /Я согласен/ }));
    await user.click(acceptButton());
    expect(await screen.findByText(COMPANY_MESSAGES.ownOrdersNeedMerge)).toBeInTheDocument();
  });

  test('signed in under another address: the invitation is not for this account', async () => {
    openInvitation({ ...PREVIEW, email: 'someone.else@example.ru' }, { signedIn: true });
    expect(await screen.findByText(COMPANY_MESSAGES.wrongAccount)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Принять приглашение' })).not.toBeInTheDocument();
  });

  test('a token written as #token=… is read too', async () => {
    const { previews } = openInvitation(PREVIEW, { hash: `#token=${TOKEN}` });
    await screen.findByText('Действует до');
    expect(await previews.last!.json()).toEqual({ token: TOKEN });
  });
});
