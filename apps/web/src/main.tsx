import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { queryClient } from './lib/query-client';
import { router } from './app/router';
import { startOfflineKeeping } from './app/offline-keeping';
import { settingsQuery } from './lib/school-settings';
import { adoptServerState, keepTypedFields } from './lib/server-state';
import './styles/index.css';

const serverRendered = adoptServerState(queryClient);

// The register and the offline copies kept for the signed-in account (issue 35).
startOfflineKeeping(queryClient);

// Every screen's header shows the school's name and logo: ask at once, beside the page's own chunk and data.
void queryClient.prefetchQuery(settingsQuery);

const rootElement = document.getElementById('root')!;
const root = createRoot(rootElement);
const render = () =>
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
// A page the server rendered may have been typed into before the app started (decision 049): the
// app's page, committed at once, takes what was typed and where the cursor was.
const start = serverRendered
  ? () => {
      const giveBack = keepTypedFields(rootElement);
      flushSync(render);
      giveBack();
    }
  : render;

// A page the server rendered stays on screen until the router has its code: rendered before, the
// router would replace it with an empty page for a moment.
if (serverRendered && !router.state.initialized) {
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    start();
  });
} else start();
