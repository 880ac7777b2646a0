import { PageLayout } from './layout/app-layout';
import { Alert } from './ui/alert';

/** Shown by a menu link whose screen is not built yet: never a blank page. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <PageLayout title={title}>
      <Alert tone="info" title="Coming soon">
        This screen is coming soon. Everything else on your home page is ready to use.
      </Alert>
    </PageLayout>
  );
}
