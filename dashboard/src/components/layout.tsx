/** The signed-in frame: skip link, header with the main navigation and the user, one <main>. */
import type { ComponentChildren } from 'preact';
import { paths } from '../routes';
import type { Session } from '../types';
import { APP_NAME } from './page-title';

const links = [
  { label: 'API keys', href: paths.keys },
  { label: 'Crawls', href: paths.crawls },
  { label: 'Batch scrapes', href: paths.batchScrapes },
  { label: 'Monitors', href: paths.monitors },
  { label: 'Playground', href: paths.playground },
  { label: 'Usage', href: paths.usage },
  { label: 'Activity', href: paths.activity },
  { label: 'Team', href: paths.team },
  { label: 'Billing', href: paths.billing },
];

interface Props {
  session: Session;
  path: string;
  onSignOut: () => void;
  children: ComponentChildren;
}

export function Layout({ session, path, onSignOut, children }: Props) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <div class="header-row">
          <p class="brand">
            {APP_NAME} <span class="account">{session.account.name}</span>
          </p>
          <div class="user">
            <span class="email">{session.user.email}</span>
            <button type="button" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        </div>
        <nav aria-label="Main">
          <ul>
            {links.map(({ label, href }) => (
              <li key={href}>
                <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
