/**
 * The dashboard as a person uses it: Chromium (Playwright) against the real stack, finding things
 * by role and label. Every page is checked with axe-core (no serious or critical violation) at
 * 1280 and 390 px wide, with a screenshot of each written to test-results/dashboard/; and on every
 * page no script from scraped content ran (a flag the payloads would set) and the browser reported
 * no Content-Security-Policy violation. Sign-in with OpenID Connect runs against a real provider
 * (oidc-provider) on loopback.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { removeMember } from '../api/accounts-store.js';
import { DIST_DIR } from '../api/dashboard/static.js';
import { accountWebhookSecret } from '../core/webhook-signature.js';
import { freePort } from '../scripts/infra/ready.js';
import { startHostileSite } from './fixtures/hostile-site.js';
import { startIdp, type FakeIdp } from './fixtures/oidc.js';
import { POLAR_TOKEN, POLAR_WEBHOOK_SECRET, startFakePolar, subscription, type FakePolar } from './fixtures/polar.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';
import { startSite } from './fixtures/site.js';
import { newAccount, TEST_PASSWORD } from './helpers/dashboard.js';
import { TEST_WEBHOOK_SECRET } from './helpers/env.js';
import { startTestStack, type TestStack } from './helpers/stack.js';

const SHOTS = fileURLToPath(new URL('../test-results/dashboard/', import.meta.url));
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 390, height: 844 };

let stack: TestStack;
let site: FixtureServer;
let hostile: FixtureServer;
let attacker: FixtureServer;
let idp: FakeIdp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminEmail: string;
let adminAccount: string;
let polar: FakePolar;
let crawlUrl: string;

declare global {
  interface Window {
    __pwned?: number;
    __cspViolations?: string[];
  }
}

/** A page that records CSP violations (before any of the app's code runs) and page errors. */
async function openPage(ctx: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const p = await ctx.newPage();
  const errors: string[] = [];
  p.on('pageerror', (err) => errors.push(err.message));
  await p.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page: p, errors };
}

/** No payload ran, no CSP violation, no live javascript: link. */
async function expectInert(p: Page): Promise<void> {
  expect(await p.evaluate(() => window.__pwned)).toBeUndefined();
  expect(await p.evaluate(() => window.__cspViolations)).toEqual([]);
  expect(await p.locator('a[href^="javascript:" i], a[href^="data:" i], [onerror], [onload]').count()).toBe(0);
}

/** axe at both widths, nothing wider than the screen at 390 px, and a screenshot of each. */
async function checkPage(p: Page, name: string): Promise<void> {
  for (const [label, size] of [['1280', WIDE], ['390', NARROW]] as const) {
    await p.setViewportSize(size);
    const results = await new AxeBuilder({ page: p }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect([name, label, serious]).toEqual([name, label, []]);
    if (size === NARROW) expect([name, await p.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, NARROW.width]);
    await p.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await p.setViewportSize(WIDE);
  await expectInert(p);
}

const nav = (p: Page, name: string) => p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

async function signIn(p: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await p.goto(`${stack.api.url}/dashboard`);
  await expect.poll(() => new URL(p.url()).pathname).toBe('/dashboard/sign-in');
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
}

/** Choose a key in an "API key" select by its name (options read "<name> (<prefix>…)" or similar). */
async function selectKey(p: Page, name: string): Promise<void> {
  const select = p.getByLabel('API key');
  const value = await select.locator('option', { hasText: name }).first().getAttribute('value');
  await select.selectOption(value!);
}

async function createKeyInUi(p: Page, name: string): Promise<string> {
  await nav(p, 'API keys');
  await p.getByLabel('Key name').fill(name);
  await p.getByRole('button', { name: 'Create key' }).click();
  const field = p.getByLabel('New API key');
  await field.waitFor();
  return field.inputValue();
}

beforeAll(async () => {
  if (!existsSync(join(DIST_DIR, 'index.html'))) throw new Error(`The dashboard is not built (${DIST_DIR} has no index.html): ./scripts/stack setup builds it, or run npx tsx scripts/build-dashboard.ts`);
  mkdirSync(SHOTS, { recursive: true });
  const apiPort = await freePort();
  [idp, polar] = await Promise.all([startIdp(`http://127.0.0.1:${apiPort}/dashboard/api/oidc/callback`), startFakePolar()]);
  const billing = {
    BILLING_ACCESS_TOKEN: POLAR_TOKEN,
    BILLING_SUCCESS_URL: `http://127.0.0.1:${apiPort}/dashboard/billing`,
    BILLING_WEBHOOK_SECRET: POLAR_WEBHOOK_SECRET,
    BILLING_PLANS: 'prod_basic=5000,prod_pro=50000',
    BILLING_ENVIRONMENT: 'sandbox',
    BILLING_API_URL: polar.url,
    BILLING_FREE_CREDITS: '1000',
  };
  [stack, site, hostile] = await Promise.all([
    startTestStack({ TEMPORAL_UI_URL: 'http://127.0.0.1:8233', OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_LABEL: 'Test IdP', OIDC_ALLOWED_DOMAINS: 'idp.test', ...billing }, { apiPort }),
    startSite(),
    startHostileSite(),
  ]);
  // Another origin that tries to make the signed-in browser create a key with a plain form post.
  attacker = await startFixtureServer({
    '/': (_q, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<form method="post" action="${stack.api.url}/dashboard/api/keys" enctype="text/plain"><input name='{"name":"csrf-attack","x":"' value='"}'></form><script>document.forms[0].submit()</script>`),
  });
  ({ email: adminEmail, accountId: adminAccount } = await newAccount(stack.api.deps.prisma));
  browser = await chromium.launch({ executablePath: inject('chromiumPath'), args: ['--no-sandbox'] });
  context = await browser.newContext({ viewport: WIDE });
  ({ page } = await openPage(context));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([stack?.close(), site?.close(), hostile?.close(), attacker?.close(), idp?.close(), polar?.close()]);
});

describe('dashboard in a browser', () => {
  it('signs in with e-mail and password (wrong password: an alert, still signed out)', async () => {
    await page.goto(`${stack.api.url}/dashboard`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await checkPage(page, 'sign-in');
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong e-mail or password.');
    await signIn(page, adminEmail);
    expect(await page.getByText(adminEmail, { exact: true }).count()).toBe(1);
  });

  it('shows a new key once; it works on /v1/scrape; after a reload it is gone; revoked, it gets 401', async () => {
    const key = await createKeyInUi(page, 'playwright');
    expect(key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
    expect(await page.getByText('This key is shown once.').count()).toBe(1);
    await checkPage(page, 'keys');
    const scrape = await stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key);
    expect(scrape.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    const row = page.getByRole('row').filter({ hasText: 'playwright' });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(key.slice(0, 9));
    await page.getByRole('button', { name: 'Revoke playwright' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke key?' });
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => row.textContent()).toContain('Revoked');
    const after = await stack.call('POST', '/v1/scrape', { url: `${site.url}/article` }, key);
    expect(after.status).toBe(401);
  });

  it("reveals the account's webhook signing secret and rotates it after a confirmation", async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    const section = page.getByRole('region', { name: 'Webhook signing secret' });
    await section.getByText('Never rotated.').waitFor();
    await section.getByRole('button', { name: 'Reveal secret' }).click();
    const field = section.getByLabel('Webhook signing secret');
    await expect.poll(() => field.inputValue()).toBe(accountWebhookSecret(TEST_WEBHOOK_SECRET, adminAccount, 1));
    await section.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the webhook signing secret?' });
    await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
    await expect.poll(() => field.inputValue()).toBe(accountWebhookSecret(TEST_WEBHOOK_SECRET, adminAccount, 2));
    await section.getByText(/^Last rotated /).waitFor();
    await checkPage(page, 'webhook-secret');
  });

  it('works from the keyboard: skip link, create a key with Enter, a confirmation that starts on Cancel and closes on Escape', async () => {
    await page.goto(`${stack.api.url}/dashboard/keys`);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    const focused = () => page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() || (el as HTMLInputElement | null)?.labels?.[0]?.textContent?.trim() || '';
    });
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    const tabTo = async (name: string) => {
      for (let i = 0; i < 40 && (await focused()) !== name; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(name);
    };
    await tabTo('Key name');
    await page.keyboard.type('keyboard');
    await page.keyboard.press('Enter');
    await page.getByLabel('New API key').waitFor();
    await tabTo('Revoke keyboard');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke key?' });
    await dialog.waitFor();
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.getByRole('row').filter({ hasText: 'keyboard' }).textContent()).toContain('Active');
  });

  it('starts a crawl from the playground, watches it complete and opens a document, rendered and as JSON', async () => {
    await createKeyInUi(page, 'browser');
    await nav(page, 'Playground');
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await page.getByLabel('Operation').selectOption({ label: 'Crawl' });
    await page.getByRole('textbox', { name: 'URL' }).fill(`${hostile.url}/`);
    await page.getByLabel('Limit').fill('2');
    await selectKey(page, 'browser');
    const sample = page.getByLabel(/^Request as/);
    expect(await sample.textContent()).toContain(`curl -X POST '${stack.api.url}/v1/crawl'`);
    await page.getByRole('button', { name: 'JavaScript' }).click();
    expect(await sample.textContent()).toContain('asyncCrawlUrl(');
    await page.getByRole('button', { name: 'Python' }).click();
    expect(await sample.textContent()).toContain('async_crawl_url(');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('link', { name: 'View crawl' }).click();
    crawlUrl = page.url();
    await expect.poll(() => page.getByRole('definition').first().textContent(), { timeout: 60_000 }).toBe('Completed');
    await page.getByRole('button', { name: /Hostile index/ }).click();
    await page.getByRole('region', { name: 'Rendered markdown' }).waitFor();
    expect(await page.getByRole('region', { name: 'Rendered markdown' }).textContent()).toContain('javascript link');
    await checkPage(page, 'job');
    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    expect(await page.getByLabel('Document JSON').textContent()).toContain('<script>window.__pwned=1</script>');
    await expectInert(page);
    await page.getByRole('button', { name: /Second/ }).click();
    await page.getByRole('button', { name: 'Rendered', exact: true }).click();
    await expectInert(page);
  }, 120_000);

  it('renders hostile titles, meta tags, markdown and links inert in every view', async () => {
    // A scrape of the hostile page in the playground, its result rendered.
    await nav(page, 'Playground');
    await page.getByRole('textbox', { name: 'URL' }).fill(`${hostile.url}/`);
    await selectKey(page, 'browser');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('region', { name: 'Rendered markdown' }).waitFor({ timeout: 60_000 });
    await checkPage(page, 'playground');
    // A monitor whose name is a payload, run once; its check and pages.
    await nav(page, 'Monitors');
    await page.getByLabel('Monitor name').fill('<img src=x onerror="window.__pwned=1"> prices');
    await page.getByLabel('Schedule').fill('every 1 hour');
    await page.getByLabel('URLs (one per line)').fill(`${hostile.url}/\n${hostile.url}/second\n${hostile.url}/changing`);
    await selectKey(page, 'browser');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const name = '<img src=x onerror="window.__pwned=1"> prices';
    await page.getByRole('link', { name }).waitFor();
    await checkPage(page, 'monitors');
    // Two checks: the second finds /changing changed and shows its diff.
    for (let run = 1; run <= 2; run++) {
      await page.getByRole('button', { name: `Run now ${name}` }).click();
      await page.getByRole('link', { name }).click();
      await expect.poll(async () => (await page.getByRole('row').nth(1).textContent()) ?? '', { timeout: 60_000 }).toContain('Completed');
      expect(await page.getByRole('row').count()).toBe(1 + run);
      if (run === 1) await nav(page, 'Monitors');
    }
    await checkPage(page, 'monitor');
    await page.getByRole('row').nth(1).getByRole('link').click();
    await expect.poll(() => page.getByRole('cell', { name: `${hostile.url}/second` }).count()).toBe(1);
    const diff = page.getByLabel(`Diff of ${hostile.url}/changing`);
    expect(await diff.textContent()).toContain('+Visit 2: <img src=x onerror="window.\\_\\_pwned=1"> costs $12');
    await checkPage(page, 'check');
    for (const [link, shot] of [['Crawls', 'crawls'], ['Batch scrapes', 'batch-scrapes'], ['Usage', 'usage'], ['Activity', 'activity']] as const) {
      await nav(page, link);
      await page.getByRole('heading', { level: 1, name: link }).waitFor();
      await checkPage(page, shot);
    }
    expect(await page.getByRole('cell', { name: 'POST' }).count()).toBeGreaterThan(0);
  }, 180_000);

  it('cancels another crawl', async () => {
    await nav(page, 'Playground');
    await page.getByLabel('Operation').selectOption({ label: 'Crawl' });
    await page.getByRole('textbox', { name: 'URL' }).fill(`${site.url}/slow`);
    await selectKey(page, 'browser');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('link', { name: 'View crawl' }).click();
    await page.getByRole('button', { name: 'Cancel crawl' }).click();
    await expect.poll(() => page.getByRole('definition').first().textContent()).toBe('Cancelled');
    expect(await page.getByRole('button', { name: 'Cancel crawl' }).count()).toBe(0);
  });

  it('invites a teammate with a link shown once; they join as a member', async () => {
    await nav(page, 'Team');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = await page.getByLabel('Invite link').inputValue();
    expect(link).toMatch(new RegExp(`^${stack.api.url}/dashboard/invite/[A-Za-z0-9_-]+$`));
    await checkPage(page, 'team');
    const other = await browser.newContext({ viewport: WIDE });
    const { page: joiner } = await openPage(other);
    await joiner.goto(link);
    await joiner.getByRole('heading', { level: 1, name: 'Join the team' }).waitFor();
    await checkPage(joiner, 'invite');
    await joiner.getByLabel('Email').fill('teammate@example.test');
    await joiner.getByLabel('Password').fill(TEST_PASSWORD);
    await joiner.getByRole('button', { name: 'Join' }).click();
    await joiner.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await nav(joiner, 'Team');
    await joiner.getByRole('cell', { name: 'teammate@example.test' }).waitFor();
    expect(await joiner.getByRole('button', { name: 'Create invite link' }).count()).toBe(0);
    await other.close();
  });

  it('shows the plan and credits; Upgrade goes to the checkout, Manage subscription to the portal', async () => {
    await nav(page, 'Billing');
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await expect.poll(() => page.getByRole('definition').first().textContent()).toBe('Free allowance');
    await checkPage(page, 'billing');
    await page.getByRole('button', { name: 'Upgrade to prod_basic' }).click();
    await page.waitForURL(`${polar.url}/checkout/**`);
    expect(polar.checkouts.at(-1)).toMatchObject({ products: ['prod_basic'], external_customer_id: adminAccount });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Polar checkout (test)');
    // The provider confirms the subscription with its webhook; back on the dashboard, the plan shows.
    const now = Date.now();
    const sent = await polar.send(`${stack.api.url}/billing/webhook`, 'subscription.active', subscription({ id: 'sub_ui', accountId: adminAccount, productId: 'prod_basic', periodStart: new Date(now - 86_400_000), periodEnd: new Date(now + 29 * 86_400_000), modifiedAt: new Date() }));
    expect(sent.status).toBe(202);
    await page.goto(`${stack.api.url}/dashboard/billing`);
    await expect.poll(() => page.getByRole('definition').first().textContent()).toBe('Basic');
    expect(await page.getByRole('definition').nth(2).textContent()).toMatch(/^[\d,.]+ of 5,000 pages$/);
    await page.getByRole('button', { name: 'Manage subscription' }).click();
    await page.waitForURL(`${polar.url}/portal/${adminAccount}`);
    await page.goto(`${stack.api.url}/dashboard/keys`);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  });

  it('a member of another account sees none of it', async () => {
    const other = await browser.newContext({ viewport: WIDE });
    const { page: stranger } = await openPage(other);
    await signIn(stranger, (await newAccount(stack.api.deps.prisma)).email);
    await stranger.getByRole('cell', { name: 'No keys yet. Create one above.' }).waitFor();
    await nav(stranger, 'Crawls');
    await stranger.getByRole('cell', { name: 'No crawls yet.' }).waitFor();
    await stranger.goto(crawlUrl);
    await expect.poll(() => stranger.getByRole('alert').textContent()).toContain('in this account');
    await other.close();
  });

  it('refuses a cross-origin form post, which cannot carry the CSRF token', async () => {
    const { page: victim } = await openPage(context);
    const answer = victim.waitForResponse((r) => r.url() === `${stack.api.url}/dashboard/api/keys` && r.request().method() === 'POST');
    await victim.goto(attacker.url);
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, code: 'origin_not_allowed' });
    expect(await stack.api.deps.prisma.apiKey.count({ where: { name: 'csrf-attack' } })).toBe(0);
    await victim.close();
  });

  it('sign-out ends the session: the old cookie no longer works', async () => {
    const before = await context.cookies(stack.api.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const cookie = before.find((c) => c.name === 'pw_session')!;
    const res = await fetch(`${stack.api.url}/dashboard/api/keys`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(res.status).toBe(401);
  });

  it('signs in through OpenID Connect with a real provider', async () => {
    const other = await browser.newContext({ viewport: WIDE });
    const { page: p } = await openPage(other);
    // A callback that did not start here (no flow cookie): back to the sign-in page, saying why.
    await p.goto(`${stack.api.url}/dashboard/api/oidc/callback?code=forged&state=forged`);
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('The sign-in took too long or started elsewhere: start again from the sign-in page.');
    await expectInert(p);
    await p.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await p.locator('input[name="login"]').fill('oidc-person');
    await p.locator('input[name="password"]').fill('anything');
    await p.getByRole('button', { name: 'Sign-in' }).click();
    await p.getByRole('button', { name: 'Continue' }).click();
    await p.waitForURL((u) => u.pathname.startsWith('/dashboard/'));
    expect([p.url(), (await p.content()).slice(0, 600)]).toEqual([`${stack.api.url}/dashboard/keys`, expect.any(String)]);
    await p.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await p.getByText('oidc-person@idp.test', { exact: true }).count()).toBe(1);
    const user = await stack.api.deps.prisma.user.findUniqueOrThrow({ where: { email: 'oidc-person@idp.test' } });
    expect(user).toMatchObject({ accountId: 'default', role: 'member', passwordHash: null, oidcSubject: `${idp.issuer} oidc-person` });
    await other.close();
  });

  it('lets in through OpenID Connect only the allowed domains, keeps removed members out, and words errors itself', async () => {
    /** One sign-in at the provider in a fresh browser, back on our sign-in page: its alert. */
    const refusal = async (login: string) => {
      const context = await browser.newContext({ viewport: WIDE });
      const { page: p } = await openPage(context);
      await p.goto(`${stack.api.url}/dashboard/sign-in`);
      await p.getByRole('link', { name: 'Sign in with Test IdP' }).click();
      await p.locator('input[name="login"]').fill(login);
      await p.locator('input[name="password"]').fill('anything');
      await p.getByRole('button', { name: 'Sign-in' }).click();
      await p.getByRole('button', { name: 'Continue' }).click();
      await p.waitForURL((u) => u.pathname === '/dashboard/sign-in');
      const alert = await p.getByRole('alert').textContent();
      await context.close();
      return alert;
    };
    expect(await refusal('someone@elsewhere.test')).toBe('Your identity provider account is not allowed to join here without an invite. Ask an admin for one.');
    expect(await stack.api.deps.prisma.user.count({ where: { email: 'someone@elsewhere.test' } })).toBe(0);
    const person = await stack.api.deps.prisma.user.findUniqueOrThrow({ where: { email: 'oidc-person@idp.test' } });
    await removeMember(stack.api.deps.prisma, 'default', person.id);
    expect(await refusal('oidc-person')).toBe('You were removed from this account. Only a new invite from an admin brings you back.');
    // A link cannot put its own words on the page.
    const context = await browser.newContext({ viewport: WIDE });
    const { page: p } = await openPage(context);
    await p.goto(`${stack.api.url}/dashboard/sign-in?error=${encodeURIComponent('Your account is locked: call +1 555 0100')}`);
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('Single sign-on did not complete. Try again.');
    await context.close();
  });
});
