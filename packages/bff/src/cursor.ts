/**
 * The merchant API's cursors: where a list or the feed of changes goes on from, as an opaque
 * string (base64url JSON of the list's name and the sort key of the last row given). A cursor
 * names its list, so one list refuses another's; a cursor this BFF did not make is refused by
 * its shape (422 `validation_failed`, naming the parameter).
 */
import { errors } from './errors.js';
import type { ChangePosition, ListPosition } from './store/types.js';

/** The lists that page by cursor, newest first, and the feed of changes. */
export type CursorList = 'checkouts' | 'notifications' | 'events' | 'changes';

/** What the feed's `after` takes to read from the first change kept. */
export const FEED_START = '0';

/** Ids of the store's rows: the characters an id of the merchant API may hold. */
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const encode = (list: CursorList, at: number, id: string) => Buffer.from(JSON.stringify([list, at, id])).toString('base64url');

function decode(list: CursorList, cursor: string, param: string): { at: number; id: string } {
  let value: unknown = null;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // Refused below.
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    value[0] !== list ||
    !Number.isSafeInteger(value[1]) ||
    value[1] < 0 ||
    typeof value[2] !== 'string' ||
    !ID.test(value[2])
  )
    throw errors.validation([{ path: param, message: `is not a cursor of this ${list === 'changes' ? 'feed' : 'list'}` }]);
  return { at: value[1] as number, id: value[2] };
}

/** The cursor after the last row of a newest-first page, or null when the page was not full (the list ended). */
export function nextCursor<T>(list: Exclude<CursorList, 'changes'>, rows: readonly T[], limit: number, position: (row: T) => ListPosition): string | null {
  const last = rows.at(-1);
  if (!last || rows.length < limit) return null;
  const p = position(last);
  return encode(list, p.at, p.id);
}

/** The position a newest-first list goes on from, given the cursor of its last page. */
export const listPosition = (list: Exclude<CursorList, 'changes'>, cursor: string, param = 'cursor'): ListPosition => decode(list, cursor, param);

/** The feed's cursor of a change's position. */
export const changeCursor = (p: ChangePosition): string => encode('changes', p.seq, p.id);

/** The change the feed goes on after (null: from the first), given `after`. */
export function changePosition(after: string, param = 'after'): ChangePosition | null {
  if (after === FEED_START) return null;
  const { at, id } = decode('changes', after, param);
  return { seq: at, id };
}
