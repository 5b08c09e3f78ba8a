import { StyleProvider } from '@ant-design/cssinjs';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation, useNavigate, type Location, type RouteObject } from 'react-router';
import { AppRoutes, routes as appRoutes } from '@/app/router';
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

/** Where the in-memory router is, and a way to move it, for assertions and test steps. */
export interface TestRouter {
  state: { location: Location };
  navigate(to: string): void;
}

export interface ShopRender extends RenderResult {
  store: AppStore;
  router: TestRouter;
}

/**
 * antd's CSS-in-JS rules go to a node outside the document. jsdom matches every rule of every
 * stylesheet again for each element whose computed style is asked for, and Testing Library asks for
 * it up the whole tree on each role query: with antd's ~1,300 rules in the page that cost ~20 ms per
 * element. Hiding by inline style, the hidden attribute and aria-hidden is still seen; antd's
 * class-based hiding (a closed dropdown's ant-dropdown-hidden) is not.
 */
const styleContainer = document.createElement('div');

/** Hands the router's location and navigate function to the test harness on every render. */
function RouterProbe({ report }: { report(location: Location, navigate: (to: string) => void): void }) {
  report(useLocation(), useNavigate());
  return null;
}

/** Renders with a fresh store per test, the theme and an in-memory router. */
export function renderShop({
  preloadedState,
  route = '/',
  routes = appRoutes,
  store = setupStore(preloadedState),
}: Options = {}): ShopRender {
  const probe: { state: { location: Location }; go?: (to: string) => void } = {
    state: { location: undefined as unknown as Location },
  };
  const result = render(
    <StyleProvider container={styleContainer}>
      <Provider store={store}>
        <ThemeProvider>
          <MemoryRouter initialEntries={[route]}>
            <RouterProbe
              report={(location, navigate) => {
                probe.state.location = location;
                probe.go = navigate;
              }}
            />
            <AppRoutes tree={routes} />
          </MemoryRouter>
        </ThemeProvider>
      </Provider>
    </StyleProvider>,
  );
  const router: TestRouter = { state: probe.state, navigate: (to) => probe.go!(to) };
  return { ...result, store, router };
}

/** For a single component: wraps it in a route at '/' of a memory router. */
export function renderComponent(ui: ReactNode, options: Omit<Options, 'routes'> = {}): ShopRender {
  return renderShop({ ...options, routes: [{ path: '*', element: ui }] });
}
