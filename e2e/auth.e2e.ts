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
} from './fixtures';

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
