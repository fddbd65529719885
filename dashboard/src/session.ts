/** The signed-in session, for pages that need the user (role, id) or the account. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './types';

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is only for pages shown inside the signed-in layout');
  return session;
}
