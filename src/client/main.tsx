import 'slick-carousel/slick/slick.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router';
import { loadPersistedState, setupStore } from './app/store';
import { ThemeProvider } from './app/theme';
import { initialiseSession } from './features/session/sessionThunks';

const store = setupStore(loadPersistedState());
store.dispatch(initialiseSession());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <ThemeProvider>
        <RouterProvider router={createRouter()} />
      </ThemeProvider>
    </Provider>
  </StrictMode>,
);
