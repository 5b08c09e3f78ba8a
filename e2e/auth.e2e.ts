import {
  expect,
  logInThroughDialog,
  newEmail,
  openLoginDialog,
  PASSWORD,
  registerBuyer,
  screenshots,
  test,
  userButton,
  waitUntilAppeared,
} from './fixtures';
import { latestLetter } from './mailbox';

test('registration through the dialog, with every validation message, then logout', async ({ page }) => {
  await page.goto('/');
  await openLoginDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Регистрация' }).click();
  const submit = dialog.getByRole('button', { name: 'Зарегистрироваться' });
  await expect(submit).toBeDisabled();

  const email = dialog.getByLabel('Email');
  await email.focus();
  await email.blur();
  await expect(dialog.getByText('Email обязателен')).toBeVisible();
  await email.fill('not-an-email');
  await email.blur();
  await expect(dialog.getByText('Некорректный формат email')).toBeVisible();

  const address = newEmail('new');
  await email.fill(address);
  await email.blur();
  await expect(dialog.getByText('Некорректный формат email')).toBeHidden();
  await dialog.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Подтвердите пароль').fill(`${PASSWORD}!`);
  await expect(dialog.getByText('Пароли не совпадают')).toBeVisible();
  await screenshots(page, 'auth-dialog');
  await dialog.getByLabel('Подтвердите пароль').fill(PASSWORD);
  await expect(dialog.getByText('Пароли не совпадают')).toBeHidden();
  await expect(submit).toBeDisabled();
  await dialog.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ }).check();
  await submit.click();

  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(userButton(page, address)).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Выйти' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Войти' })).toBeVisible();
});

test('registering a taken e-mail shows the server’s reason', async ({ page, request, console }) => {
  console.allowHttpStatus(409);
  const email = await registerBuyer(request);
  await page.goto('/');
  await openLoginDialog(page);
  const dialog = page.getByRole('dialog');
  const registration = dialog.getByRole('tab', { name: 'Регистрация' });
  await registration.click();
  await expect(registration).toHaveAttribute('aria-selected', 'true');
  await dialog.getByLabel('Email').fill(email.toUpperCase());
  await dialog.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Подтвердите пароль').fill(PASSWORD);
  await dialog.getByRole('checkbox', { name: /Я согласен на обработку персональных данных/ }).check();
  await dialog.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(dialog.getByText('Пользователь с таким email уже существует')).toBeVisible();
});

test('login with a wrong password, then the right one; the session survives a reload', async ({
  page,
  request,
  console,
}) => {
  console.allowHttpStatus(401);
  const email = await registerBuyer(request);
  await page.goto('/');
  await openLoginDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Пароль', { exact: true }).fill('совсем-не-тот-пароль');
  await dialog.getByRole('button', { name: 'Войти' }).click();
  await expect(dialog.getByText('Неверный email или пароль')).toBeVisible();
  await page.keyboard.press('Escape');

  await logInThroughDialog(page, email);
  await page.reload();
  await expect(userButton(page, email)).toBeVisible();
});

test('a forgotten password: «Забыли пароль?», the link in the letter, a new password, and in with it', async ({
  page,
  request,
  console,
}) => {
  console.allowHttpStatus(401);
  const email = await registerBuyer(request);
  await page.goto('/');
  await openLoginDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Забыли пароль?' }).click();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Отправить ссылку' }).click();
  await expect(dialog.getByText(/^Если такой адрес зарегистрирован, мы отправили на него письмо/)).toBeVisible();
  await page.keyboard.press('Escape');

  const letter = await latestLetter(email, 'Восстановление пароля');
  const link = /http:\/\/\S+\/reset-password\?token=[\w-]+/.exec(letter.text ?? '')?.[0];
  expect(link, 'the reset link in the letter').toBeDefined();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  const newPassword = 'новый пароль 2026';
  await page.getByLabel('Новый пароль').fill(newPassword);
  await page.getByLabel('Подтвердите пароль').fill(newPassword);
  await page.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(page.getByText('Пароль изменён')).toBeVisible();

  // The page opens the sign-in dialog: the old password is refused, the new one lets the buyer in.
  const signIn = page.getByRole('dialog');
  await waitUntilAppeared(signIn);
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Войти' }).click();
  await expect(signIn.getByText('Неверный email или пароль')).toBeVisible();
  await signIn.getByLabel('Пароль', { exact: true }).fill(newPassword);
  await signIn.getByRole('button', { name: 'Войти' }).click();
  await expect(userButton(page, email)).toBeVisible();

  // The link works once.
  const again = await request.post('/api/v1/auth/password-reset/confirm', {
    data: { token: new URL(link!).searchParams.get('token'), password: 'ещё один пароль' },
  });
  expect(again.status()).toBe(400);
});
