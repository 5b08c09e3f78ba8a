import { Button } from 'antd';
import { PRICE_AFTER_SIGN_IN } from '@/components/priceAfterSignIn';
import { useAppDispatch } from '@/hooks/reduxHooks';
import { authDialogOpened } from '@/features/session/authDialogSlice';

/** A price the shop shows to signed-in buyers only: said so, with the way in beside it. */
export function PriceAfterSignIn({ className }: { className?: string }) {
  const dispatch = useAppDispatch();
  return (
    <span className={className}>
      {PRICE_AFTER_SIGN_IN}{' '}
      <Button type="link" className="price-sign-in" onClick={() => dispatch(authDialogOpened('login'))}>
        Войти, чтобы увидеть цены
      </Button>
    </span>
  );
}
