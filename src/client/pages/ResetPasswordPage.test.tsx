import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { ACCOUNT_MESSAGES } from '@shared/account';
import { MESSAGES } from '@shared/messages';
import { installVisitorNetwork, json, recorder, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

function openResetPage(route = '/reset-password?token=secret-token') {
  const user = userEvent.setup();
  return { user, ...renderShop({ route, preloadedState: visitor() }) };
}

const newPassword = () => screen.getByLabelText('Новый пароль');
const confirmation = () => screen.getByLabelText('Подтвердите пароль');
const save = () => screen.getByRole('button', { name: 'Сохранить пароль' });

describe('Reset password page', () => {
  beforeEach(() => installVisitorNetwork());

  test('sends the token and the new password; then says to log in and opens the login dialog', async () => {
    const confirmCalls = recorder();
    server.use(
      http.post(
        `${API}/auth/password-reset/confirm`,
        ({ request }) => (confirmCalls.record(request), new Response(null, { status: 204 })),
      ),
    );
    const { user, store } = openResetPage();
    expect(await screen.findByRole('heading', { name: 'Новый пароль' })).toBeInTheDocument();
    await user.type(newPassword(), 'новый пароль 1');
    await user.type(confirmation(), 'новый пароль 1');
    await user.click(save());
    expect(await screen.findByText('Пароль изменён')).toBeInTheDocument();
    expect(screen.getByText(/Войдите с новым паролем/)).toBeInTheDocument();
    expect(await confirmCalls.last!.json()).toEqual({ token: 'secret-token', password: 'новый пароль 1' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'Вход', selected: true })).toBeInTheDocument();
    expect(store.getState().authDialog).toEqual({ open: true, tab: 'login' });
  });

  test('a used, expired or unknown token: the 400 detail is shown and the form stays', async () => {
    server.use(
      http.post(`${API}/auth/password-reset/confirm`, () => json({ detail: ACCOUNT_MESSAGES.resetLinkInvalid }, 400)),
    );
    const { user } = openResetPage();
    await user.type(await screen.findByLabelText('Новый пароль'), 'новый пароль 1');
    await user.type(confirmation(), 'новый пароль 1');
    await user.click(save());
    expect(await screen.findByText(ACCOUNT_MESSAGES.resetLinkInvalid)).toBeInTheDocument();
    expect(save()).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('the dialog’s rules: the length, and the confirmation must match; nothing is sent until they hold', async () => {
    const confirmCalls = recorder();
    server.use(
      http.post(
        `${API}/auth/password-reset/confirm`,
        ({ request }) => (confirmCalls.record(request), new Response(null, { status: 204 })),
      ),
    );
    const { user } = openResetPage();
    await user.type(await screen.findByLabelText('Новый пароль'), 'short');
    await user.type(confirmation(), 'other');
    await user.click(save());
    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordLength)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
    expect(confirmCalls.calls).toHaveLength(0);
  });

  test('without a token the link is said to be invalid and there is no form', async () => {
    openResetPage('/reset-password');
    expect(await screen.findByText(ACCOUNT_MESSAGES.resetLinkInvalid)).toBeInTheDocument();
    expect(screen.queryByLabelText('Новый пароль')).not.toBeInTheDocument();
  });
});
