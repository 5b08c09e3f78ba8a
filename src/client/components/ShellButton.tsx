import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface ShellButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'text';
  small?: boolean;
  icon?: ReactNode;
}

/**
 * A plain button styled like antd's, for the shell and the home page, which must render before
 * (and without) antd: see docs/performance.md.
 */
export function ShellButton({ variant = 'default', small = false, icon, children, className, type = 'button', ...rest }: ShellButtonProps) {
  const classes = ['shell-button', `shell-button--${variant}`, small && 'shell-button--small', !children && 'shell-button--icon-only', className];
  return (
    <button type={type} className={classes.filter(Boolean).join(' ')} {...rest}>
      {icon}
      {children}
    </button>
  );
}
