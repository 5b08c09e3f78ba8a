import { Button, type ButtonProps } from 'antd';
import { useLinkClickHandler } from 'react-router';

type ButtonLinkProps = Omit<ButtonProps, 'href' | 'onClick'> & { to: string };

/**
 * A link drawn as an antd button: one `<a>` the router follows (and a new tab opens with a middle
 * or Ctrl click). A `<Link>` wrapped round a `<Button>` is a button inside a link: two tab stops
 * for one target, and a screen reader announces both.
 */
export function ButtonLink({ to, ...buttonProps }: ButtonLinkProps) {
  const follow = useLinkClickHandler<HTMLElement>(to);
  return <Button {...buttonProps} href={to} onClick={follow} />;
}
