import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { queryClient } from './lib/query-client';
import { router } from './app/router';
import { settingsQuery } from './lib/school-settings';
import './styles/index.css';

// Every screen's header shows the school's name and logo: ask at once, beside the page's own chunk and data.
void queryClient.prefetchQuery(settingsQuery);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
