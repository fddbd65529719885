/**
 * Measurements for bench/crawl.ts, read from /proc (Linux only): resident memory sampled over time
 * with the kernel's own high-water mark, CPU time per process (PostgreSQL's per-connection server
 * processes included) and per thread name, and statistics helpers.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // CLK_TCK is 100 on Linux.

/** `VmRSS` / `VmHWM` (KiB) of a process, or undefined once it is gone. */
function memoryKiB(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

export interface RssSampler {
  /** Stops sampling; the first sample, the peak of the samples and the kernel's peak (VmHWM, last read), KiB. */
  stop(): { firstKiB: number; peakKiB: number; hwmKiB: number; samples: number };
}

/** Samples a process's RSS every `intervalMs` (VmHWM catches peaks between samples). */
export function sampleRss(pid: number, intervalMs = 200): RssSampler {
  let firstKiB = NaN;
  let peakKiB = 0;
  let hwmKiB = 0;
  let samples = 0;
  const sample = () => {
    const m = memoryKiB(pid);
    // A process that has exited but not been reaped (a zombie) has no Vm* lines.
    if (!m || Number.isNaN(m.rss)) return;
    if (samples++ === 0) firstKiB = m.rss;
    peakKiB = Math.max(peakKiB, m.rss);
    hwmKiB = Math.max(hwmKiB, m.hwm);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return { firstKiB, peakKiB, hwmKiB, samples };
    },
  };
}

/** utime + stime of a process (all its threads) and of its waited-for children, ms; 0 once gone. */
function processCpuMs(pid: number): { ppid: number; cpu: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process (its CPU can be read). */
export function isRunning(pid: number): boolean {
  return processCpuMs(pid) !== undefined;
}

/** CPU ms used so far by `pid` plus, with `children`, its live direct children (PostgreSQL's backends). */
export function cpuMs(pid: number, children = false): number {
  const own = processCpuMs(pid)?.cpu ?? 0;
  if (!children) return own;
  let sum = own;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = processCpuMs(Number(entry));
    if (s?.ppid === pid) sum += s.cpu;
  }
  return sum;
}

/**
 * CPU ms the whole machine has been busy (all cores, every process), and ms stolen by the
 * hypervisor for other guests (a virtual machine's vCPUs may not run while the host is busy), from /proc/stat.
 */
export function machineCpuMs(): { busy: number; steal: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return { busy: (user + nice + system + irq + softirq) * TICK_MS, steal: steal * TICK_MS };
}

/** Each thread of process `pid` with its name (`comm`) and CPU ms so far, from /proc; none when the process is gone. */
function threadStats(pid: number): Array<{ tid: number; name: string; ms: number }> {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: Array<{ tid: number; name: string; ms: number }> = [];
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return out;
}

/** CPU ms per thread name (`comm`) of one process: tells its main thread from the convert threads and Temporal's core. */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const { tid, name, ms } of threadStats(pid)) {
    // The main thread is named after the executable like some others: mark it by its tid.
    const key = tid === pid ? `${name} (main thread)` : name;
    out.set(key, (out.get(key) ?? 0) + ms);
  }
  return out;
}

/** CPU ms of each thread of process `pid`, by thread id (Node 20 names every thread of its own `node`). */
export function threadCpuByTid(pid: number): Map<number, number> {
  return new Map(threadStats(pid).map(({ tid, ms }) => [tid, ms]));
}

/** Per request, in process `pid`: the main thread, the `busiest` other threads (the conversion threads), and the rest. */
export function threadCpuSince(pid: number, before: Map<number, number>, after: Map<number, number>, requests: number, busiest: number): { main: number; top: number[]; rest: number } {
  const deltas = [...after].map(([tid, ms]) => [tid, (ms - (before.get(tid) ?? 0)) / requests] as const);
  const main = deltas.find(([tid]) => tid === pid)?.[1] ?? 0;
  const others = deltas.filter(([tid]) => tid !== pid).map(([, v]) => v).sort((a, b) => b - a);
  return { main, top: others.slice(0, busiest), rest: others.slice(busiest).reduce((a, b) => a + b, 0) };
}

/** Per-name difference of two threadCpuMs readings, largest first. */
export function threadCpuDelta(before: Map<string, number>, after: Map<string, number>): Array<[string, number]> {
  return [...after.entries()].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as [string, number]).filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
}

export const median = (xs: number[]): number => quantile(xs, 0.5);

export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;
