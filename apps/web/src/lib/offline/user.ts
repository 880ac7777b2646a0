import { useSession, type Session } from '../auth-store';

/** The partition key of an account: `role:publicId` (null: nobody signed in). */
export const userOf = (session: Pick<Session, 'role' | 'publicId'> | null): string | null =>
  session ? `${session.role}:${session.publicId}` : null;

/** The signed-in user's partition key. */
export function useOfflineUser(): string | null {
  return userOf(useSession());
}
