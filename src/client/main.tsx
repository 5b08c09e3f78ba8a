// antd's CSS for the shell's components in both themes, made at build time (scripts/build-antd-styles.tsx): no CSS-in-JS runs here.
import './theme/antd-shell.generated.css';
import './app/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { loadPersistedState, setupStore } from './app/store';
import { applyTheme, ThemeProvider } from './app/theme';
import { isDarkMode } from './features/colourMode/useIsDark';
import { initialiseSession } from './features/session/sessionThunks';

const preloaded = loadPersistedState();
// Before the first paint, so a dark-mode shopper never sees a flash of white.
applyTheme(isDarkMode(preloaded.colourMode ?? 'system'));
const store = setupStore(preloaded);
store.dispatch(initialiseSession());

const root = createRoot(document.getElementById('root')!);
// As a transition the first render yields to the browser every few milliseconds instead of
// holding a phone's main thread for one long task (Lighthouse's total blocking time).
startTransition(() => {
  root.render(
    <StrictMode>
      <Provider store={store}>
        <ThemeProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ThemeProvider>
      </Provider>
    </StrictMode>,
  );
});
