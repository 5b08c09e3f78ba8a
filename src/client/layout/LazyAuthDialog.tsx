import { lazy, Suspense, useState } from 'react';
import { selectAuthDialog } from '@/features/session/authDialogSlice';
import { useAppSelector } from '@/hooks/reduxHooks';

// The dialog brings antd's Form, Tabs and Modal: most visitors never open it, so it loads on demand.
const AuthDialog = lazy(async () => ({ default: (await import('@/features/session/AuthDialog')).AuthDialog }));

/** Mounts the auth dialog once it is first opened, and keeps it mounted so it can animate closed. */
export function LazyAuthDialog() {
  const { open } = useAppSelector(selectAuthDialog);
  const [needed, setNeeded] = useState(open);
  if (open && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialog />
    </Suspense>
  );
}
