/** Read something again and again (every 500 ms) until it is what the test waits for; a guard, not a timing assertion. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last read: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
