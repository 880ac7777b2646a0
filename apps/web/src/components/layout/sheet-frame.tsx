import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { PageLayout } from './app-layout';
import { QueryView } from '../ui/query-view';

/**
 * An open sheet's frame (the report sheets, the score sheet): the line that says which sheet it is,
 * the way back to the chooser, then the sheet's loading, failure (`load.failed`, or the server's
 * detail) and no-students (`load.empty`) states around the sheet itself.
 */
export function SheetFrame<S extends { rows: unknown[] }>({
  title,
  heading,
  back,
  load,
  children,
}: {
  title: string;
  heading: ReactNode;
  back: { to: string; label: ReactNode };
  /** `network`: what a failure to reach the server says (else the general network message). */
  load: { query: UseQueryResult<S>; failed: string; network?: string; empty: ReactNode };
  children: (sheet: S) => ReactNode;
}) {
  return (
    <PageLayout title={title} width="max-w-6xl">
      <p className="mb-1 font-medium">{heading}</p>
      <p className="mb-4 text-sm">
        <Link to={back.to} className="font-medium text-brand-800 hover:underline">
          {back.label}
        </Link>
      </p>
      <QueryView
        query={load.query}
        messages={{ fallback: load.failed, network: load.network, useDetail: true }}
        empty={load.empty}
        isEmpty={(s) => !s.rows.length}
      >
        {children}
      </QueryView>
    </PageLayout>
  );
}
