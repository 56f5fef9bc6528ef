/**
 * Waits for a condition, as the tests of servers and processes must: `check` is polled on the
 * event loop (every few milliseconds) until it gives a value, which is returned; past `timeoutMs`
 * of real time the wait fails with `what`. Nothing is asserted by waiting: the test asserts what
 * the condition gave. A check that costs something (a request to a server under load) is polled
 * every `everyMs` instead.
 */
export async function until<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 20_000,
  everyMs = 5,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((r) => setTimeout(r, everyMs));
  }
}
