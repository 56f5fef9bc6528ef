/** Reading a native-service request: its body against the provider's schema, and its session. */
import type { Context } from 'hono';
import { answer, describeIssues, readJsonObject } from '../context.js';
import type { Session, createSessionStore } from './sessions.js';

type SessionStore = ReturnType<typeof createSessionStore>;

interface Schema<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** The body parsed by `schema`, or the E301 answer saying what is wrong. */
export async function parseBody<T>(c: Context, schema: Schema<T>, descriptionField = 'description'): Promise<T | Response> {
  const body = await readJsonObject(c, descriptionField);
  if (body instanceof Response) return body;
  const parsed = schema.safeParse(body);
  if (!parsed.success) return answer(c, 'E301', describeIssues(parsed.error.issues), {}, descriptionField);
  return parsed.data;
}

/** The live session a call names, in the state it needs; otherwise the E301 answer. */
export function sessionFor(c: Context, sessions: SessionStore, id: string, needs: Session['state'], descriptionField = 'description'): Session | Response {
  const found = sessions.find(id);
  if (typeof found === 'string') return answer(c, 'E301', found, {}, descriptionField);
  if (found.state !== needs) {
    const why =
      needs === 'open'
        ? 'the session is waiting for secondlogin (login answered 229); complete it first'
        : 'the session is not waiting for a second login (login did not answer 229)';
    return answer(c, 'E301', `sessionId: ${why}`, {}, descriptionField);
  }
  return found;
}
