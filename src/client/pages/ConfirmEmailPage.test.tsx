import { screen } from '@testing-library/react';
import { http } from 'msw';
import { EMAIL_CONFIRMATION_MESSAGES } from '@shared/account';
import { installVisitorNetwork, json, recorder, visitor } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const openConfirmPage = (route = '/confirm-email?token=secret-token') =>
  renderShop({ route, preloadedState: visitor() });

describe('Confirm e-mail page', () => {
  beforeEach(() => installVisitorNetwork());

  test('sends the link’s token once, signed in or not, and says the address is confirmed', async () => {
    const calls = recorder();
    server.use(
      http.post(
        `${API}/auth/email-confirmation/confirm`,
        ({ request }) => (calls.record(request), new Response(null, { status: 204 })),
      ),
    );
    openConfirmPage();
    expect(await screen.findByText(EMAIL_CONFIRMATION_MESSAGES.confirmed)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Перейти в каталог' })).toHaveAttribute('href', '/catalog');
    expect(calls.calls).toHaveLength(1);
    expect(await calls.last!.json()).toEqual({ token: 'secret-token' });
  });

  test('a used, expired or unknown link: the server’s detail', async () => {
    server.use(
      http.post(`${API}/auth/email-confirmation/confirm`, () =>
        json({ detail: EMAIL_CONFIRMATION_MESSAGES.linkInvalid }, 400),
      ),
    );
    openConfirmPage();
    expect(await screen.findByText(EMAIL_CONFIRMATION_MESSAGES.linkInvalid)).toBeInTheDocument();
  });

  test('no token in the address: says the link is not valid, sends nothing', async () => {
    const calls = recorder();
    server.use(http.post(`${API}/auth/email-confirmation/confirm`, ({ request }) => (calls.record(request), json({}))));
    openConfirmPage('/confirm-email');
    expect(await screen.findByText(EMAIL_CONFIRMATION_MESSAGES.linkInvalid)).toBeInTheDocument();
    expect(calls.calls).toHaveLength(0);
  });
});
