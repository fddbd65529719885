/**
 * A bounded pool of Playwright browser contexts over one Chromium. At most `maxContexts` contexts
 * exist; each renders one page at a time, is recycled after `maxUsesPerContext` pages and closed
 * after `idleTimeoutMs` without work. Between pages a context's cookies and the storage of every
 * origin it visited are cleared, so one caller's session never reaches another's request.
 *
 * All browser traffic goes through `proxyUrl` (the egress proxy that applies the URL safety
 * policy); Playwright adds `<-loopback>` to Chromium's bypass list, so loopback is proxied too.
 * Used by the browser service (remote engine) and in-process by workers (local_browser engine).
 */
import type { Browser, BrowserContext } from 'playwright';
import type { ProxyMember } from '../core/proxy-pools.js';

export interface PoolOptions {
  chromiumPath: string;
  maxContexts: number;
  maxUsesPerContext: number;
  idleTimeoutMs: number;
  /** http://127.0.0.1:port of the egress proxy; required unless private addresses are allowed. */
  proxyUrl?: string;
  /** Filter lists for `blockAds` (browser/adblock.ts); default the bundled EasyList and EasyPrivacy. */
  filterLists?: string[];
  /** The egress proxy that goes out through an operator's proxy (a `route`: README "Proxies"). */
  routeProxyUrl?: (route: ProxyMember) => Promise<string>;
  viewport?: { width: number; height: number };
}

interface Slot {
  context: BrowserContext;
  /** The operator proxy its traffic goes out through; '' for directly. */
  route: string;
  uses: number;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  origins: Set<string>;
}

export interface PoolStats {
  contexts: number;
  busy: number;
  waiting: number;
  contextsCreated: number;
  contextsClosed: number;
}

/** Flags for Chromium on servers: no sandbox as root, no phoning home, no UDP around the proxy. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

export class BrowserPool {
  private browser?: Promise<Browser>;
  private slots: Slot[] = [];
  private waiters: ((slot: Slot) => void)[] = [];
  private closed = false;
  private created = 0;
  private closedCount = 0;

  constructor(private readonly options: PoolOptions) {}

  get filterLists(): string[] | undefined {
    return this.options.filterLists;
  }

  stats(): PoolStats {
    return {
      contexts: this.slots.length,
      busy: this.slots.filter((s) => s.busy).length,
      waiting: this.waiters.length,
      contextsCreated: this.created,
      contextsClosed: this.closedCount,
    };
  }

  /**
   * Run `work` with a context of the pool; waits for a free one when all are busy. With `via`, the
   * context's traffic goes out through that operator proxy (its own egress listener); a free
   * context of another route is replaced rather than reused.
   */
  async use<T>(work: (context: BrowserContext, track: (url: string) => void) => Promise<T>, via?: ProxyMember): Promise<T> {
    const route = via?.url.href ?? '';
    const slot = await this.acquire(route);
    try {
      if (slot.route !== route) {
        await slot.context.close().catch(() => undefined);
        this.closedCount++;
        slot.context = await this.newContext(via);
        slot.route = route;
        slot.uses = 0;
        slot.origins.clear();
      }
      return await work(slot.context, (url) => {
        try {
          slot.origins.add(new URL(url).origin);
        } catch {
          // not a URL with an origin: nothing to clear later
        }
      });
    } finally {
      await this.release(slot);
    }
  }

  /**
   * Playwright itself is imported here, on the first page that needs a browser. A worker that only
   * fetches never loads it: its two bundles are ~7 MB of source that V8 keeps in the heap (20 MiB as
   * strings) besides their compiled code; importing it at start cost the worker ~60 MiB of idle RSS
   * under tsx (bench/worker-memory.ts).
   */
  private launch(): Promise<Browser> {
    this.browser ??= import('playwright')
      .then(({ chromium }) =>
        chromium.launch({
          executablePath: this.options.chromiumPath,
          args: chromiumArgs,
          ...(this.options.proxyUrl ? { proxy: { server: this.options.proxyUrl } } : {}),
        }),
      )
      .catch((err: unknown) => {
        this.browser = undefined;
        throw new Error(`Could not start Chromium at ${this.options.chromiumPath}: ${(err as Error).message}`);
      });
    return this.browser;
  }

  private async newContext(via?: ProxyMember): Promise<BrowserContext> {
    const browser = await this.launch();
    if (via && !this.options.routeProxyUrl) throw new Error('This browser pool has no way to go out through an operator proxy');
    const proxy = via ? { proxy: { server: await this.options.routeProxyUrl!(via) } } : {};
    return browser.newContext({ viewport: this.options.viewport ?? DEFAULT_VIEWPORT, ignoreHTTPSErrors: false, serviceWorkers: 'block', ...proxy });
  }

  /** A free context, preferring one on `route`; `use` replaces one of another route. */
  private async acquire(route = ''): Promise<Slot> {
    if (this.closed) throw new Error('Browser pool is shutting down');
    const idle = this.slots.find((s) => !s.busy && s.route === route) ?? this.slots.find((s) => !s.busy);
    if (idle) return this.take(idle);
    if (this.slots.length < this.options.maxContexts) {
      // Reserve the place before awaiting, so concurrent callers cannot overshoot the bound.
      const slot: Slot = { context: undefined as unknown as BrowserContext, route: '', uses: 0, busy: true, origins: new Set() };
      this.slots.push(slot);
      try {
        slot.context = await this.newContext();
        this.created++;
        return slot;
      } catch (err) {
        this.slots = this.slots.filter((s) => s !== slot);
        this.handOver();
        throw err;
      }
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private take(slot: Slot): Slot {
    clearTimeout(slot.idleTimer);
    slot.busy = true;
    return slot;
  }

  private async release(slot: Slot): Promise<void> {
    slot.uses++;
    if (this.closed || slot.uses >= this.options.maxUsesPerContext) {
      await this.retire(slot);
      this.handOver();
      return;
    }
    await this.scrub(slot).catch(() => this.retire(slot));
    if (!this.slots.includes(slot)) return this.handOver();
    slot.busy = false;
    const waiter = this.waiters.shift();
    if (waiter) return waiter(this.take(slot));
    slot.idleTimer = setTimeout(() => {
      if (!slot.busy) void this.retire(slot);
    }, this.options.idleTimeoutMs);
    slot.idleTimer.unref();
  }

  /** A retired context frees a place: let the next waiter create a fresh one. */
  private handOver(): void {
    const waiter = this.waiters.shift();
    if (!waiter) return;
    this.acquire().then(waiter, () => this.waiters.unshift(waiter));
  }

  private async scrub(slot: Slot): Promise<void> {
    await slot.context.clearCookies();
    if (slot.origins.size === 0) return;
    const page = await slot.context.newPage();
    try {
      const cdp = await slot.context.newCDPSession(page);
      for (const origin of slot.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      slot.origins.clear();
    } finally {
      await page.close();
    }
  }

  private async retire(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    if (!this.slots.includes(slot)) return;
    this.slots = this.slots.filter((s) => s !== slot);
    this.closedCount++;
    await slot.context.close().catch(() => undefined);
  }

  /** Finish in-flight pages' cleanup, then close every context and the browser. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.filter((s) => !s.busy).map((s) => this.retire(s)));
    const browser = await this.browser?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}
