import { App } from 'antd';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { cartFailureShown, selectCartFailure, selectCartOffline } from './cartEditsSlice';

/** Says once, in a toast, that saving an edit failed (the line has already gone back). */
export function SaveFailureNotice() {
  const failure = useAppSelector(selectCartFailure);
  const dispatch = useAppDispatch();
  const { message } = App.useApp();
  useEffect(() => {
    if (!failure) return;
    message.error(failure);
    dispatch(cartFailureShown());
  }, [failure, message, dispatch]);
  return null;
}

/** Says, in a toast, that the connection is lost, once each time it is (the lines say which are unsaved). */
export function ConnectionLostNotice() {
  const offline = useAppSelector(selectCartOffline);
  const { message } = App.useApp();
  useEffect(() => {
    if (offline) message.warning('Нет связи с сервером. Изменения корзины сохранятся, когда связь вернётся.');
  }, [offline, message]);
  return null;
}
