import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ACCOUNT_MESSAGES } from '@shared/account';
import {
  cart,
  cartHandler,
  json,
  makeToken,
  recorder,
  installVisitorNetwork,
  USER,
  visitor,
  wait,
} from '@/test/fixtures';
import { setViewportWidth } from '@/test/media';
import { renderShop } from '@/test/render';
import { API, CURRENT_USER, server } from '@/test/server';

const TOKEN = makeToken();

async function openDialog(tab: 'login' | 'register' = 'login') {
  const user = userEvent.setup();
  const rendered = renderShop({ route: '/', preloadedState: visitor() });
  await user.click(await screen.findByRole('button', { name: /Войти/ }));
  const dialog = await screen.findByRole('dialog');
  if (tab === 'register') await user.click(within(dialog).getByRole('tab', { name: 'Регистрация' }));
  return { user, dialog, ...rendered };
}

const emailInput = () => screen.getByLabelText('Email');
const passwordInput = () => screen.getByLabelText('Пароль');
const confirmInput = () => screen.getByLabelText('Подтвердите пароль');
const submitButton = (name: 'Войти' | 'Зарегистрироваться') =>
  within(screen.getByRole('dialog')).getByRole('button', { name });
const consentBox = () => screen.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ });

/** The registration form filled in as a shopper fills it, the consent ticked. */
async function fillRegistration(
  user: ReturnType<typeof userEvent.setup>,
  email = 'ivan@example.ru',
  password = 'secret-password',
) {
  await user.type(emailInput(), email);
  await user.type(passwordInput(), password);
  await user.type(confirmInput(), password);
  await user.click(consentBox());
}

/** Answers a login with TOKEN and the user, as the server does. */
const loginHandlers = (tokenCalls = recorder(), currentUser = CURRENT_USER) => [
  http.post(`${API}/auth/token`, ({ request }) => {
    tokenCalls.record(request);
    return json({ access_token: TOKEN, token_type: 'bearer' });
  }),
  http.get(`${API}/auth/user`, ({ request }) =>
    request.headers.get('Authorization') === `Bearer ${TOKEN}`
      ? json(currentUser)
      : json({ detail: 'Не авторизован' }, 401),
  ),
  cartHandler(cart([])),
];

describe('AuthDialog: e-mail validation (SPEC §5)', () => {
  beforeEach(() => installVisitorNetwork());

  test("leaving the e-mail empty shows 'Email обязателен' on blur", async () => {
    const { user } = await openDialog();
    await user.click(emailInput());
    await user.tab();
    expect(await screen.findByText('Email обязателен')).toBeInTheDocument();
  });

  test("an empty e-mail cannot be submitted: Enter sends nothing and leaving the field says 'Email обязателен'", async () => {
    const tokenCalls = recorder();
    server.use(
      http.post(`${API}/auth/token`, ({ request }) => (tokenCalls.record(request), json({ access_token: TOKEN }))),
    );
    const { user } = await openDialog();
    await user.type(passwordInput(), 'secret-password');
    await user.type(emailInput(), 'ivan@example.ru');
    await user.clear(emailInput());
    // SPEC §5 disables the submit button while the e-mail is empty, so Enter submits nothing either.
    await user.keyboard('{Enter}');
    await user.tab();
    expect(await screen.findByText('Email обязателен')).toBeInTheDocument();
    expect(submitButton('Войти')).toBeDisabled();
    expect(tokenCalls.calls).toHaveLength(0);
  });

  test("a malformed e-mail shows 'Некорректный формат email' on blur", async () => {
    const { user } = await openDialog();
    await user.type(emailInput(), 'ivan.example.ru');
    await user.tab();
    expect(await screen.findByText('Некорректный формат email')).toBeInTheDocument();
  });

  test("a malformed e-mail shows 'Некорректный формат email' on submit, and no request is made", async () => {
    const tokenCalls = recorder();
    server.use(
      http.post(`${API}/auth/token`, ({ request }) => (tokenCalls.record(request), json({ access_token: TOKEN }))),
    );
    const { user } = await openDialog();
    await user.type(passwordInput(), 'secret-password');
    await user.type(emailInput(), 'ivan@example');
    expect(screen.queryByText('Некорректный формат email')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Некорректный формат email')).toBeInTheDocument();
    expect(tokenCalls.calls).toHaveLength(0);
  });

  test('fixing the e-mail clears the error', async () => {
    const { user } = await openDialog();
    await user.type(emailInput(), 'ivan');
    await user.tab();
    expect(await screen.findByText('Некорректный формат email')).toBeInTheDocument();
    await user.type(emailInput(), '@example.ru');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Некорректный формат email')).not.toBeInTheDocument());
  });
});

describe('AuthDialog: submit button (SPEC §5)', () => {
  beforeEach(() => installVisitorNetwork());

  test('login: disabled until both e-mail and password are filled', async () => {
    const { user } = await openDialog();
    expect(submitButton('Войти')).toBeDisabled();
    await user.type(emailInput(), 'ivan@example.ru');
    expect(submitButton('Войти')).toBeDisabled();
    await user.type(passwordInput(), 'secret-password');
    expect(submitButton('Войти')).toBeEnabled();
    await user.clear(emailInput());
    expect(submitButton('Войти')).toBeDisabled();
  });

  test('disabled while the e-mail has an error, enabled again once it is fixed', async () => {
    const { user } = await openDialog();
    await user.type(passwordInput(), 'secret-password');
    await user.type(emailInput(), 'ivan');
    await user.tab();
    await screen.findByText('Некорректный формат email');
    expect(submitButton('Войти')).toBeDisabled();
    await user.type(emailInput(), '@example.ru');
    await user.tab();
    await waitFor(() => expect(submitButton('Войти')).toBeEnabled());
  });

  test('registration: disabled while the confirmation is empty', async () => {
    const { user } = await openDialog('register');
    await user.type(emailInput(), 'ivan@example.ru');
    await user.type(passwordInput(), 'secret-password');
    expect(submitButton('Зарегистрироваться')).toBeDisabled();
    await user.type(confirmInput(), 'secret-password');
    expect(submitButton('Зарегистрироваться')).toBeDisabled();
    await user.click(consentBox());
    expect(submitButton('Зарегистрироваться')).toBeEnabled();
  });

  test('disabled while the request runs, with a loading overlay', async () => {
    server.use(
      http.post(`${API}/auth/token`, async () => {
        await wait(300);
        return json({ detail: 'Неверный email или пароль' }, 401);
      }),
    );
    const { user, dialog } = await openDialog();
    await user.type(emailInput(), 'ivan@example.ru');
    await user.type(passwordInput(), 'secret-password');
    await user.click(submitButton('Войти'));
    expect(await within(dialog).findByText('Подождите...')).toBeInTheDocument();
    expect(submitButton('Войти')).toBeDisabled();
    expect(await within(dialog).findByText('Неверный email или пароль')).toBeInTheDocument();
    expect(within(dialog).queryByText('Подождите...')).not.toBeInTheDocument();
    expect(submitButton('Войти')).toBeEnabled();
  });
});

describe('AuthDialog: registration passwords (SPEC §5)', () => {
  beforeEach(() => installVisitorNetwork());

  test("different passwords show 'Пароли не совпадают' and register nothing", async () => {
    const registerCalls = recorder();
    server.use(http.post(`${API}/auth/register`, ({ request }) => (registerCalls.record(request), json(USER, 201))));
    const { user } = await openDialog('register');
    await user.type(emailInput(), 'ivan@example.ru');
    await user.type(passwordInput(), 'secret-password');
    await user.type(confirmInput(), 'other-password');
    await user.click(submitButton('Зарегистрироваться'));
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument();
    expect(registerCalls.calls).toHaveLength(0);
  });

  test('the mismatch is shown when leaving the confirmation too, and goes once the passwords agree', async () => {
    const { user } = await openDialog('register');
    await user.type(passwordInput(), 'secret-password');
    await user.type(confirmInput(), 'secret');
    await user.tab();
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument();
    await user.type(confirmInput(), '-password');
    await waitFor(() => expect(screen.queryByText('Пароли не совпадают')).not.toBeInTheDocument());
  });
});

describe('AuthDialog: server answers (SPEC §8)', () => {
  beforeEach(() => installVisitorNetwork());

  test("a failed login shows 'Неверный email или пароль' and keeps the dialog open", async () => {
    server.use(http.post(`${API}/auth/token`, () => json({ detail: 'Invalid credentials' }, 401)));
    const { user, store } = await openDialog();
    await user.type(emailInput(), 'ivan@example.ru');
    await user.type(passwordInput(), 'wrong-password');
    await user.click(submitButton('Войти'));
    expect(await screen.findByText('Неверный email или пароль')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(store.getState().session.user).toBeNull();
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  test('a successful login sends the form-encoded credentials, stores the token and shows the user', async () => {
    const tokenCalls = recorder();
    server.use(...loginHandlers(tokenCalls));
    const { user, store } = await openDialog();
    await user.type(emailInput(), 'ivan.petrov@example.ru');
    await user.type(passwordInput(), 'secret-password');
    await user.click(submitButton('Войти'));
    expect(await screen.findByRole('button', { name: /ivan\.petrov/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sessionStorage.getItem('access_token')).toBe(TOKEN);
    expect(store.getState().session).toEqual({ user: CURRENT_USER, accessToken: TOKEN, initialised: true });
    const body = new URLSearchParams(await tokenCalls.last!.text());
    expect(body.get('username')).toBe('ivan.petrov@example.ru');
    expect(body.get('password')).toBe('secret-password');
  });

  test("a failed registration shows the server's detail", async () => {
    server.use(
      http.post(`${API}/auth/register`, () => json({ detail: 'Пользователь с таким email уже существует' }, 409)),
    );
    const { user } = await openDialog('register');
    await fillRegistration(user);
    await user.click(submitButton('Зарегистрироваться'));
    expect(await screen.findByText('Пользователь с таким email уже существует')).toBeInTheDocument();
  });

  test('a password the form lets through but the server refuses as too common: the server says why', async () => {
    const tooCommon = 'Этот пароль слишком распространён: его легко подобрать. Придумайте другой.';
    const registerCalls = recorder();
    server.use(
      http.post(
        `${API}/auth/register`,
        ({ request }) => (registerCalls.record(request), json({ detail: tooCommon }, 422)),
      ),
    );
    const { user } = await openDialog('register');
    await fillRegistration(user, 'ivan@example.ru', '12345678');
    await user.click(submitButton('Зарегистрироваться'));
    expect(await screen.findByText(tooCommon)).toBeInTheDocument();
    expect(await registerCalls.last!.json()).toMatchObject({ password: '12345678' });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  test("a failed registration without a detail shows 'Ошибка при регистрации'", async () => {
    server.use(http.post(`${API}/auth/register`, () => new HttpResponse('Internal error', { status: 500 })));
    const { user } = await openDialog('register');
    await fillRegistration(user);
    await user.click(submitButton('Зарегистрироваться'));
    expect(await screen.findByText('Ошибка при регистрации')).toBeInTheDocument();
    expect(sessionStorage.getItem('access_token')).toBeNull();
  });

  test('registration logs in right after: the token is stored and the user is shown in the header', async () => {
    const registerCalls = recorder();
    const tokenCalls = recorder();
    server.use(
      http.post(`${API}/auth/register`, ({ request }) => (registerCalls.record(request), json(USER, 201))),
      ...loginHandlers(tokenCalls),
    );
    const { user, store } = await openDialog('register');
    await fillRegistration(user, 'ivan.petrov@example.ru');
    await user.click(submitButton('Зарегистрироваться'));
    const header = screen.getByRole('navigation', { name: 'Основное меню' });
    expect(await within(header).findByRole('button', { name: /ivan\.petrov/ })).toBeInTheDocument();
    expect(registerCalls.calls).toHaveLength(1);
    expect(tokenCalls.calls).toHaveLength(1);
    expect(sessionStorage.getItem('access_token')).toBe(TOKEN);
    expect(store.getState().session.user).toEqual(CURRENT_USER);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The consent travels with the registration (152-ФЗ), in the body like the rest.
    expect(await registerCalls.last!.json()).toEqual({
      email: 'ivan.petrov@example.ru',
      password: 'secret-password',
      consent: true,
    });
  });
});

describe('AuthDialog: the address to confirm after sign-up', () => {
  beforeEach(() => installVisitorNetwork());

  test('the dialog stays to say what to do with the letter, offers it again, and closes on «Понятно»', async () => {
    const resent = recorder();
    server.use(
      http.post(`${API}/auth/register`, () => json(USER, 201)),
      ...loginHandlers(recorder(), {
        ...CURRENT_USER,
        email_confirmed: false,
        must_confirm_email: true,
        proven: false,
      }),
      http.post(`${API}/auth/email-confirmation`, ({ request }) => {
        resent.record(request);
        return json({ detail: 'Письмо отправлено. Ссылка в нём действует 24 часа.' }, 202);
      }),
    );
    const { user } = await openDialog('register');
    await fillRegistration(user, 'ivan.petrov@example.ru');
    await user.click(submitButton('Зарегистрироваться'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Подтвердите адрес почты')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Отправить письмо ещё раз' }));
    expect(await within(dialog).findByText('Письмо отправлено. Ссылка в нём действует 24 часа.')).toBeInTheDocument();
    expect(resent.calls).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Понятно' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('AuthDialog: consent to the processing of personal data', () => {
  beforeEach(() => installVisitorNetwork());

  test('registration needs the box ticked; it links to the policy in a new tab', async () => {
    const { user } = await openDialog('register');
    await fillRegistration(user);
    expect(submitButton('Зарегистрироваться')).toBeEnabled();
    await user.click(consentBox());
    expect(consentBox()).not.toBeChecked();
    expect(submitButton('Зарегистрироваться')).toBeDisabled();
    const policy = screen.getByRole('link', { name: 'политикой конфиденциальности' });
    expect(policy).toHaveAttribute('href', '/privacy');
    expect(policy).toHaveAttribute('target', '_blank');
  });

  test('the login tab asks for no consent', async () => {
    await openDialog();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  test('a registration password shorter than 8 characters is refused before it is sent', async () => {
    const registerCalls = recorder();
    server.use(http.post(`${API}/auth/register`, ({ request }) => (registerCalls.record(request), json(USER, 201))));
    const { user } = await openDialog('register');
    await user.type(emailInput(), 'ivan@example.ru');
    await user.type(passwordInput(), 'short');
    await user.type(confirmInput(), 'short');
    await user.click(consentBox());
    await user.click(submitButton('Зарегистрироваться'));
    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordLength)).toBeInTheDocument();
    expect(registerCalls.calls).toHaveLength(0);
  });
});

describe('AuthDialog: «Забыли пароль?»', () => {
  beforeEach(() => installVisitorNetwork());

  test('asks for the e-mail, sends it, and answers with the one sentence every address gets', async () => {
    const resetCalls = recorder();
    server.use(
      http.post(
        `${API}/auth/password-reset`,
        ({ request }) => (resetCalls.record(request), json({ detail: 'Принято' }, 202)),
      ),
    );
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Забыли пароль?' }));
    const email = await within(dialog).findByLabelText('Email');
    await user.type(email, ' ivan@example.ru ');
    await user.click(within(dialog).getByRole('button', { name: 'Отправить ссылку' }));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.resetRequested)).toBeInTheDocument();
    expect(await resetCalls.last!.json()).toEqual({ email: 'ivan@example.ru' });
    await user.click(within(dialog).getByRole('button', { name: 'Вернуться ко входу' }));
    expect(submitButton('Войти')).toBeInTheDocument();
  });

  test('a malformed e-mail is not sent', async () => {
    const resetCalls = recorder();
    server.use(http.post(`${API}/auth/password-reset`, ({ request }) => (resetCalls.record(request), json({}, 202))));
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Забыли пароль?' }));
    await user.type(await within(dialog).findByLabelText('Email'), 'ivan.example.ru');
    await user.click(within(dialog).getByRole('button', { name: 'Отправить ссылку' }));
    expect(await within(dialog).findByText('Некорректный формат email')).toBeInTheDocument();
    expect(resetCalls.calls).toHaveLength(0);
  });

  test('too many requests: the server’s reason is shown', async () => {
    server.use(
      http.post(`${API}/auth/password-reset`, () => json({ detail: 'Слишком много попыток. Попробуйте позже.' }, 429)),
    );
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Забыли пароль?' }));
    await user.type(await within(dialog).findByLabelText('Email'), 'ivan@example.ru');
    await user.click(within(dialog).getByRole('button', { name: 'Отправить ссылку' }));
    expect(await within(dialog).findByText('Слишком много попыток. Попробуйте позже.')).toBeInTheDocument();
    expect(within(dialog).queryByText(ACCOUNT_MESSAGES.resetRequested)).not.toBeInTheDocument();
  });
});

describe('AuthDialog: layout (SPEC §2)', () => {
  beforeEach(() => installVisitorNetwork());

  test('has the Вход and Регистрация tabs; only registration asks to confirm the password', async () => {
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByRole('tab', { name: 'Вход', selected: true })).toBeInTheDocument();
    expect(screen.queryByLabelText('Подтвердите пароль')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Регистрация' }));
    expect(confirmInput()).toBeInTheDocument();
    expect(submitButton('Зарегистрироваться')).toBeInTheDocument();
  });

  test('is full-screen below 600px and not at 1440px', async () => {
    const wide = await openDialog();
    expect(wide.dialog.closest('.auth-dialog--full-screen')).toBeNull();
    wide.unmount();
    setViewportWidth(375);
    const user = userEvent.setup();
    renderShop({ route: '/', preloadedState: visitor() });
    await user.click(screen.getByRole('button', { name: 'Меню' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Войти' }));
    expect((await screen.findByRole('dialog')).closest('.auth-dialog--full-screen')).not.toBeNull();
  });
});
