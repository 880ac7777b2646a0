import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInBlock } from '@portal/domain/auth';
import { AUTH_MESSAGES } from '@portal/domain/auth-constants';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, EmptyState } from '../../components/ui/card';
import { LoadingBlock } from '../../components/ui/spinner';
import { api } from '../../lib/api-client';
import { useToast } from '../../lib/toast';

const blocksKey = ['sign-in-blocks'] as const;

/** Where an account is blocked from, in words: one address, every browser it was never signed in on, or one of its browsers. */
function blockedFrom(b: SignInBlock): string {
  if (b.kind === 'untrusted_clients') return AUTH_MESSAGES.blockedUntrustedClients;
  if (b.kind === 'device') return AUTH_MESSAGES.blockedDevice;
  return `From ${b.address ?? ''}`;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-NG', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Admin: accounts blocked from signing in after repeated wrong passwords: from one address, from
 * every browser not signed in to the account before (a guesser spread over many addresses), or on
 * one of its own browsers. A block ends by itself; the admin can end it at once, e.g. for a pupil
 * who mistyped on the school's shared computer.
 */
export function SignInBlocksPage() {
  const qc = useQueryClient();
  const toast = useToast();
  const { data, isPending, isError, refetch, isFetching } = useQuery({
    queryKey: blocksKey,
    queryFn: () => api.get<SignInBlock[]>('/sign-in-blocks/'),
  });
  const clear = useMutation({
    mutationFn: (b: { email: string; address?: string }) => api.post<{ detail: string; cleared: number }>('/sign-in-blocks/clear/', b),
    onSuccess: async () => {
      toast.success(AUTH_MESSAGES.signInBlockCleared);
      await qc.invalidateQueries({ queryKey: blocksKey });
    },
    onError: () => toast.error(AUTH_MESSAGES.signInBlockClearFailed),
  });

  return (
    <PageLayout title="Sign-in Blocks">
      <Card
        title="Blocked sign-ins"
        actions={
          <Button variant="secondary" onClick={() => void refetch()} loading={isFetching}>
            Refresh
          </Button>
        }
      >
        <p className="mb-4 text-slate-700">{AUTH_MESSAGES.signInBlocksHint}</p>
        {isPending ? (
          <LoadingBlock />
        ) : isError ? (
          <Alert tone="error">{AUTH_MESSAGES.signInBlocksLoadFailed}</Alert>
        ) : data.length === 0 ? (
          <EmptyState>{AUTH_MESSAGES.noSignInBlocks}</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Blocked sign-ins">
            {data.map((b) => (
              <li
                key={`${b.email} ${b.kind} ${b.address ?? ''}`}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3"
                data-testid="sign-in-block"
              >
                <div className="min-w-0">
                  <p className="font-semibold break-all text-slate-900">{b.email}</p>
                  <p className="text-sm break-all text-slate-700">
                    {blockedFrom(b)}, until {time(b.blocked_until)}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  onClick={() =>
                    clear.mutate(b.kind === 'address' && b.address ? { email: b.email, address: b.address } : { email: b.email })
                  }
                  loading={clear.isPending && clear.variables?.email === b.email && clear.variables.address === (b.address ?? undefined)}
                  aria-label={`Clear block of ${b.email}: ${blockedFrom(b)}`}
                >
                  Clear block
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </PageLayout>
  );
}
