/** timeoutSignal still fires inside AbortSignal.any after garbage collection (nodejs/node#57736). */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A child with --expose-gc: collect garbage while the composite waits, then see whether it aborted.
const script = `
import { timeoutSignal } from ${JSON.stringify(fileURLToPath(new URL('./timeout-signal.ts', import.meta.url)))};
let fired = 0;
for (let i = 0; i < 10; i++) {
  const composite = AbortSignal.any([new AbortController().signal, timeoutSignal(150)]);
  composite.addEventListener('abort', () => fired++);
  for (let j = 0; j < 5; j++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
  await new Promise((r) => setTimeout(r, 300));
}
console.log(fired);
`;

describe('timeoutSignal', () => {
  it('aborts a composite signal on time even when garbage is collected meanwhile', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.trim()).toBe('10');
  });

  it('aborts with a TimeoutError', async () => {
    const { timeoutSignal } = await import('./timeout-signal.js');
    const signal = timeoutSignal(10);
    await new Promise((r) => setTimeout(r, 50));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
