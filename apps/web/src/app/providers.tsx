import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { HomeDashboardsContext } from '../lib/home-dashboards';
import { queryClient } from '../lib/query-client';
import { ToastProvider } from '../lib/toast';
import { homeDashboards } from './home-dashboards';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <HomeDashboardsContext value={homeDashboards}>
        <ToastProvider>{children}</ToastProvider>
      </HomeDashboardsContext>
    </QueryClientProvider>
  );
}
