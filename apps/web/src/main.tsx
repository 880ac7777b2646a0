import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { queryClient } from './lib/query-client';
import { router } from './app/router';
import { startOfflineKeeping } from './app/offline-keeping';
import { settingsQuery } from './lib/school-settings';
import { adoptServerState } from './lib/server-state';
import './styles/index.css';

const serverRendered = adoptServerState(queryClient);

// The register and the offline copies kept for the signed-in account (issue 35).
startOfflineKeeping(queryClient);

// Every screen's header shows the school's name and logo: ask at once, beside the page's own chunk and data.
void queryClient.prefetchQuery(settingsQuery);

const root = createRoot(document.getElementById('root')!);
const start = () =>
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );

// A page the server rendered stays on screen until the router has its code: rendered before, the
// router would replace it with an empty page for a moment.
if (serverRendered && !router.state.initialized) {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    start();
  });
} else start();
