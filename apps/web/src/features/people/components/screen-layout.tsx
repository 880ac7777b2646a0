import { createContext, useContext, type ReactNode } from 'react';
import { PageLayout } from '../../../components/layout/app-layout';

/** True inside the /dashboard layout, which already draws the page frame. */
export const InDashboard = createContext(false);

/** A people screen's frame: the app's page layout, or a section of the /dashboard layout when nested there. */
export function ScreenLayout({
  title,
  actions,
  width,
  children,
}: {
  title: string;
  actions?: ReactNode;
  width?: string;
  children: ReactNode;
}) {
  if (!useContext(InDashboard)) {
    return (
      <PageLayout title={title} actions={actions} width={width}>
        {children}
      </PageLayout>
    );
  }
  return (
    <section aria-labelledby="screen-title">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="screen-title" className="text-xl">
          {title}
        </h2>
        {actions && <div className="no-print flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
