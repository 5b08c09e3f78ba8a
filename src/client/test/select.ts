import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/** Opens the antd Select `combobox` and taps its option `name`, as a shopper would. */
export async function choose(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, name: string) {
  await user.click(combobox);
  // The open list's option (each carries its label as its title; the selection shows it too). A
  // list opened before stays in the page, closed: the one just opened is the last.
  const options = await screen.findAllByTitle(name);
  await user.click(options.filter((option) => option.classList.contains('ant-select-item-option')).at(-1)!);
}
