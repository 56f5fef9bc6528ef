/**
 * The console's live feed: rows pushed by the shop server over Server-Sent Events (the server
 * is told by the BFF's signed webhook), with polling of the same rows as the fallback. Rows are
 * built with DOM calls only (no HTML strings: the page runs under Trusted Types).
 */
interface FeedRow {
  id: string;
  cells: { text: string; className?: string }[];
  announce: string;
}

export {};

const POLL_MS = 5000;
const MAX_ROWS = 200;

const bodies = {
  notification: document.getElementById('notification-rows'),
  checkout: document.getElementById('checkout-rows'),
};
const status = document.getElementById('live-status');
const state = document.getElementById('feed-state');

function setState(text: string): void {
  if (state) state.textContent = text;
}

function isRow(v: unknown): v is FeedRow {
  const r = v as FeedRow;
  return Boolean(r) && typeof r.id === 'string' && Array.isArray(r.cells) && typeof r.announce === 'string';
}

/** Adds a row on top unless the table has it; true when added. */
function addRow(kind: keyof typeof bodies, row: FeedRow, announce: boolean): boolean {
  const body = bodies[kind];
  if (!body) return false;
  for (const tr of body.querySelectorAll('tr')) if (tr.dataset.id === row.id) return false;
  const tr = document.createElement('tr');
  tr.dataset.id = row.id;
  tr.className = 'new';
  for (const cell of row.cells) {
    const td = document.createElement('td');
    td.textContent = cell.text;
    if (cell.className) td.className = cell.className;
    tr.append(td);
  }
  body.prepend(tr);
  while (body.children.length > MAX_ROWS) body.lastElementChild?.remove();
  if (announce && status) status.textContent = row.announce;
  return true;
}

function receive(kind: keyof typeof bodies, data: string): void {
  try {
    const row: unknown = JSON.parse(data);
    if (isRow(row)) addRow(kind, row, true);
  } catch {
    // A broken message is skipped; the next one or the next poll brings the rows again.
  }
}

let polling = false;
async function poll(): Promise<void> {
  polling = true;
  setState('checking every 5 s');
  for (;;) {
    try {
      const res = await fetch('/console/api/feed', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (res.ok) {
        const body = (await res.json()) as { notifications?: unknown[]; checkouts?: unknown[] };
        for (const r of body.notifications ?? []) if (isRow(r)) addRow('notification', r, true);
        for (const r of body.checkouts ?? []) if (isRow(r)) addRow('checkout', r, true);
      }
    } catch {
      setState('offline: retrying');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

if (bodies.notification && bodies.checkout) {
  if (typeof EventSource === 'function') {
    const source = new EventSource('/console/events');
    source.addEventListener('open', () => setState('live'));
    source.addEventListener('notification', (e) => receive('notification', (e as MessageEvent<string>).data));
    source.addEventListener('checkout', (e) => receive('checkout', (e as MessageEvent<string>).data));
    source.addEventListener('error', () => {
      // The browser reconnects by itself unless the stream was refused; then poll instead.
      if (source.readyState === EventSource.CLOSED && !polling) void poll();
      else setState('reconnecting');
    });
  } else {
    void poll();
  }
}
