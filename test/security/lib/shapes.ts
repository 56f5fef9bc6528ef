/**
 * The one error shape of each service, and what no answer may carry: a stack trace, a source
 * path, an internal error name.
 */
import assert from 'node:assert/strict';

const INTERNALS: [RegExp, string][] = [
  [/\/work\//, 'a path of the build machine'],
  [/node_modules/, 'a dependency path'],
  [/^\s*at\s/m, 'a stack frame'],
  [/\bat\s+\S+\s+\(/, 'a stack frame'],
  [/\bat (?:file|node):/, 'a stack frame'],
  [/\.(?:ts|js|mjs):\d+/, 'a source position'],
  [/\b(?:TypeError|ReferenceError|SyntaxError|RangeError)\b/, 'an internal error name'],
  [/\bundefined is not\b|\bcannot read propert/i, 'an internal error message'],
];

/** Fails when `text` carries a stack trace, a source path or an internal error. */
export function assertNoInternals(text: string, what: string): void {
  for (const [re, name] of INTERNALS) assert.doesNotMatch(text, re, `${what}: the answer carries ${name}: ${text.slice(0, 300)}`);
}

/** The BFF's one error shape: `{error: {code, message, requestId, issues?}}` and nothing else. */
export function checkBffError(status: number, contentType: string | null, text: string, what: string): void {
  assertNoInternals(text, what);
  assert.match(contentType ?? '', /^application\/json/, `${what}: ${status} is JSON`);
  const body = JSON.parse(text) as { error?: Record<string, unknown>; view?: { id?: unknown } };
  // A stale step (409 `stale_step`) also carries the checkout's current view, and nothing else.
  const stale = status === 409 && body.error?.code === 'stale_step';
  assert.deepEqual(Object.keys(body), stale ? ['error', 'view'] : ['error'], `${what}: ${text}`);
  if (stale) assert.equal(typeof body.view?.id, 'string', `${what}: the current view`);
  const e = body.error!;
  const keys = Object.keys(e).sort();
  assert.ok(
    JSON.stringify(keys) === JSON.stringify(['code', 'message', 'requestId']) ||
      JSON.stringify(keys) === JSON.stringify(['code', 'issues', 'message', 'requestId']),
    `${what}: error keys ${keys.join(', ')}`,
  );
  assert.equal(typeof e.code, 'string');
  assert.equal(typeof e.message, 'string');
  assert.match(String(e.requestId), /^req_[0-9a-f-]{36}$/);
  if (e.issues !== undefined) {
    assert.ok(Array.isArray(e.issues), `${what}: issues is a list`);
    for (const i of e.issues as Record<string, unknown>[]) {
      assert.deepEqual(Object.keys(i).sort(), ['message', 'path'], `${what}: issue ${JSON.stringify(i)}`);
      assert.equal(typeof i.path, 'string');
      assert.equal(typeof i.message, 'string');
    }
  }
}

export async function assertBffError(res: Response, what: string): Promise<void> {
  checkBffError(res.status, res.headers.get('Content-Type'), await res.text(), what);
}

/** The provider's answer shape: `{status, description}` (`descripción` in login and secondlogin). */
export function checkProviderError(status: number, contentType: string | null, text: string, what: string, descriptionField = 'description'): void {
  assertNoInternals(text, what);
  assert.match(contentType ?? '', /^application\/json/, `${what}: ${status} is JSON`);
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), [descriptionField, 'status'].sort(), `${what}: ${text}`);
  assert.match(String(body.status), /^[EB]\d{3}$/, `${what}: a provider code`);
  assert.equal(typeof body[descriptionField], 'string');
}
