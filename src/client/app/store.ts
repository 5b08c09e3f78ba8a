import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { baseApi } from '@/api/baseApi';
import { addCartEditsListeners, cartEditsSlice } from '@/features/cart/cartEditsSlice';
import {
  addSelectedCategoryListeners,
  loadSelectedCategory,
  selectedCategorySlice,
} from '@/features/catalogue/selectedCategorySlice';
import { addCheckoutFieldsListeners } from '@/features/checkout/checkoutFields';
import { addColourModeListeners, colourModeSlice, loadColourMode } from '@/features/colourMode/colourModeSlice';
import { authDialogSlice } from '@/features/session/authDialogSlice';
import { addSessionListeners, loadSession, sessionSlice } from '@/features/session/sessionSlice';
import { listenerMiddleware, startAppListening } from './listeners';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  [sessionSlice.reducerPath]: sessionSlice.reducer,
  [authDialogSlice.reducerPath]: authDialogSlice.reducer,
  [colourModeSlice.reducerPath]: colourModeSlice.reducer,
  [selectedCategorySlice.reducerPath]: selectedCategorySlice.reducer,
  [cartEditsSlice.reducerPath]: cartEditsSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

addSessionListeners(startAppListening);
addColourModeListeners(startAppListening);
addSelectedCategoryListeners(startAppListening);
addCartEditsListeners(startAppListening);
addCheckoutFieldsListeners(startAppListening);

const MASK = '*** скрыт ***';
/** The server's name for the token (the login's answer in the API cache) and the session's. */
const TOKEN_KEYS = new Set(['access_token', 'accessToken']);

/** Copies a value with every access token replaced, so Redux DevTools never shows a live token. */
export function maskTokens<T>(value: T): T {
  if (Array.isArray(value)) return value.map(maskTokens) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      TOKEN_KEYS.has(key) && inner !== null ? MASK : maskTokens(inner),
    ]),
  ) as T;
}

/** What the browser remembers between visits and, for the session, reloads of the tab (SPEC §1, §9). */
export function loadPersistedState(): Partial<RootState> {
  return { session: loadSession(), colourMode: loadColourMode(), selectedCategory: loadSelectedCategory() };
}

export function setupStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(listenerMiddleware.middleware).concat(baseApi.middleware),
    // On in every build: QA inspects the shop's state in production too.
    devTools: { name: 'Мягкий Опт', actionSanitizer: maskTokens, stateSanitizer: maskTokens },
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
