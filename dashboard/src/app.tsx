/**
 * The session and the route decide what shows: the sign-in page when signed out, the invite page
 * for anyone, and every other page inside the signed-in layout.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, post, request, setCsrfToken, setUnauthorizedHandler } from './api';
import { ErrorAlert } from './components/alert';
import { Layout } from './components/layout';
import { PageTitle } from './components/page-title';
import { Page } from './pages';
import { InvitePage } from './pages/invite';
import { SignInPage } from './pages/sign-in';
import { isAppPath, navigate, useLocation } from './router';
import { isPublic, matchRoute, paths } from './routes';
import { SessionContext } from './session';
import type { Session, SignedOut } from './types';

type Auth =
  | { state: 'loading' }
  | { state: 'unavailable'; error: unknown }
  | { state: 'signed-out'; info: SignedOut }
  | { state: 'signed-in'; session: Session };

/** GET /session's 401 body says whether sign-up and OIDC are on; anything missing means off. */
function signedOutInfo(body: unknown): SignedOut {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Partial<SignedOut>;
  const oidc = fields.oidc && typeof fields.oidc.label === 'string' ? fields.oidc : { enabled: false, label: '' };
  return { signUpOpen: fields.signUpOpen === true, oidc: { enabled: oidc.enabled === true, label: oidc.label } };
}

/** Where to go after signing in: the page that asked for it, if it is one of ours. */
function nextPath(query: URLSearchParams): string {
  const next = query.get('next');
  if (!next) return paths.keys;
  const url = new URL(next, location.origin);
  const ok = url.origin === location.origin && isAppPath(url.pathname) && url.pathname !== paths.signIn;
  return ok ? url.pathname + url.search : paths.keys;
}

export function App() {
  const { path, query } = useLocation();
  const route = matchRoute(path);
  const [auth, setAuth] = useState<Auth>({ state: 'loading' });

  const loadSession = async () => {
    try {
      const session = await request<Session>('GET', '/session', { signedOut: true });
      setCsrfToken(session.csrfToken);
      setAuth({ state: 'signed-in', session });
    } catch (error) {
      setCsrfToken(null);
      const signedOut = error instanceof ApiError && error.status === 401;
      setAuth(signedOut ? { state: 'signed-out', info: signedOutInfo(error.body) } : { state: 'unavailable', error });
    }
  };

  useEffect(() => {
    setUnauthorizedHandler(() => void loadSession());
    void loadSession();
    return () => setUnauthorizedHandler(null);
  }, []);

  useEffect(() => {
    if (route.page === 'home') navigate(paths.keys, { replace: true });
    else if (auth.state === 'signed-out' && !isPublic(route)) {
      navigate(`${paths.signIn}?next=${encodeURIComponent(path + location.search)}`, { replace: true });
    } else if (auth.state === 'signed-in' && route.page === 'sign-in') navigate(nextPath(query), { replace: true });
  }, [auth, path]);

  const signedIn = (session: Session) => {
    setCsrfToken(session.csrfToken);
    setAuth({ state: 'signed-in', session });
    navigate(route.page === 'sign-in' ? nextPath(query) : paths.keys);
  };

  const signOut = async () => {
    try {
      await post('/sign-out');
    } catch {
      // Already signed out (or the server is away): the sign-in page shows the truth either way.
    }
    setCsrfToken(null);
    setAuth({ state: 'loading' });
    navigate(paths.signIn);
    await loadSession();
  };

  if (route.page === 'invite') return <InvitePage token={route.token} onSignedIn={signedIn} />;
  if (auth.state === 'loading') {
    return (
      <main id="main" class="narrow">
        <p class="muted">Loading…</p>
      </main>
    );
  }
  if (auth.state === 'unavailable') {
    return (
      <main id="main" tabIndex={-1} class="narrow">
        <PageTitle title="Dashboard unavailable" />
        <ErrorAlert error={auth.error} />
        <button type="button" onClick={() => void loadSession()}>
          Try again
        </button>
      </main>
    );
  }
  if (auth.state === 'signed-out') {
    return route.page === 'sign-in' ? <SignInPage info={auth.info} onSignedIn={signedIn} /> : null;
  }
  if (route.page === 'sign-in' || route.page === 'home') return null;
  return (
    <SessionContext.Provider value={auth.session}>
      <Layout session={auth.session} path={path} onSignOut={() => void signOut()}>
        <Page key={path} route={route} />
      </Layout>
    </SessionContext.Provider>
  );
}
