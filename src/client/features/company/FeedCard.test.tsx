import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import type { CompanyFeed } from '@shared/api';
import type { CompanyRole } from '@shared/company';
import { cart, cartHandler, companyNetwork, json, loggedIn, recorder, requisites, USER } from '@/test/fixtures';
import { renderShop } from '@/test/render';
import { API, server } from '@/test/server';

const SECRET_URL = 'https://shop.test/api/v1/feed/c2VjcmV0LXRva2VuLW9mLWZvcnR5LXRocmVlLWNoYXJzMTI.yml';

/** The profile of the buyer in `role` of their company, at «Компания». */
async function openCompany(role: CompanyRole, ...handlers: Parameters<typeof server.use>) {
  companyNetwork(role);
  server.use(
    ...handlers,
    cartHandler(cart([])),
    http.get(`${API}/requisites/${USER.id}`, () => json(requisites())),
    http.get(`${API}/address/${USER.id}`, () => json([])),
    http.get(`${API}/order/${USER.id}`, () => json([])),
  );
  const user = userEvent.setup({ delay: null });
  renderShop({ route: '/profile', preloadedState: loggedIn() });
  const section = within(await screen.findByRole('region', { name: 'Компания' }));
  await section.findByText(USER.email);
  return { user, section };
}

describe('Profile: «Фид товаров (YML)»', () => {
  test('the owner gets the secret address, shown once with a copy button, then replaces and turns it off', async () => {
    let feed: CompanyFeed = { active: false, created_at: null };
    const issues = recorder();
    const revokes = recorder();
    const { user, section } = await openCompany(
      'owner',
      http.get(`${API}/company/feed`, () => json(feed)),
      http.post(`${API}/company/feed`, ({ request }) => {
        issues.record(request);
        feed = { active: true, created_at: '2026-11-28T10:00:00Z' };
        return json({ url: SECRET_URL, created_at: feed.created_at }, 201);
      }),
      http.delete(`${API}/company/feed`, ({ request }) => {
        revokes.record(request);
        feed = { active: false, created_at: null };
        return new Response(null, { status: 204 });
      }),
    );
    const card = within((await section.findByText('Фид товаров (YML)')).closest('.ant-card') as HTMLElement);
    expect(card.getByText('Адреса фида пока нет.')).toBeInTheDocument();
    expect(card.getByText('http://shop.test/api/v1/feed.yml')).toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Получить адрес фида' }));
    await waitFor(() => expect(issues.calls).toHaveLength(1));
    expect(await card.findByText(SECRET_URL)).toBeInTheDocument();
    expect(card.getByText('Скопируйте адрес сейчас: больше он показан не будет')).toBeInTheDocument();
    expect(card.getAllByRole('button', { name: 'Копировать' }).length).toBeGreaterThanOrEqual(2);
    expect(await card.findByText(/Адрес выдан/)).toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Заменить адрес' }));
    await user.click(await screen.findByRole('button', { name: 'Заменить' }));
    await waitFor(() => expect(issues.calls).toHaveLength(2));

    await user.click(card.getByRole('button', { name: 'Отключить' }));
    const confirm = await screen.findAllByRole('button', { name: 'Отключить' });
    await user.click(confirm.at(-1)!);
    await waitFor(() => expect(revokes.calls).toHaveLength(1));
    expect(await screen.findByText('Адрес фида отключён')).toBeInTheDocument();
    expect(await card.findByRole('button', { name: 'Получить адрес фида' })).toBeInTheDocument();
    expect(card.queryByText(SECRET_URL)).not.toBeInTheDocument();
  });

  test('an employee who is not the owner has no feed card', async () => {
    const { section } = await openCompany('purchaser');
    expect(section.queryByText('Фид товаров (YML)')).not.toBeInTheDocument();
    expect(section.queryByRole('button', { name: 'Получить адрес фида' })).not.toBeInTheDocument();
  });
});
