import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { routes as appRoutes } from '@/app/router';
import { setupStore, type AppStore, type RootState } from '@/app/store';
import { ThemeProvider } from '@/app/theme';

interface Options {
  preloadedState?: Partial<RootState>;
  /** The URL to start at. */
  route?: string;
  /** Defaults to the shop's own routes. */
  routes?: RouteObject[];
  store?: AppStore;
}

export interface ShopRender extends RenderResult {
  store: AppStore;
  router: ReturnType<typeof createMemoryRouter>;
}

/** Renders with a fresh store per test, the theme and an in-memory router. */
export function renderShop({ preloadedState, route = '/', routes = appRoutes, store = setupStore(preloadedState) }: Options = {}): ShopRender {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  const result = render(
    <Provider store={store}>
      <ThemeProvider>
        <RouterProvider router={router} />
      </ThemeProvider>
    </Provider>,
  );
  return { ...result, store, router };
}

/** For a single component: wraps it in a route at '/' of a memory router. */
export function renderComponent(ui: ReactNode, options: Omit<Options, 'routes'> = {}): ShopRender {
  return renderShop({ ...options, routes: [{ path: '*', element: ui }] });
}
