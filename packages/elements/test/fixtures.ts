/**
 * Contract-shaped test data and a fake BFF fetch for the element tests. Bank data follows the
 * sandbox catalogue's shapes (DNI/CIF fields, masked numeric secrets, a bank in maintenance).
 */
import type {
  BankGroupView,
  BankView,
  CheckoutAction,
  CheckoutMode,
  CheckoutState,
  CheckoutView,
  FieldView,
  PeriodicBankView,
  StepView,
  ValidationView,
} from '@bank-checkout/contract';
import type { Clock } from '../src/shared/clock.js';
import { urlOf } from '../../../test/support/fake-fetch.js';

export const field = (over: Partial<FieldView> & Pick<FieldView, 'fieldId' | 'label'>): FieldView => ({
  min: null,
  max: null,
  valueType: 'alfanumeric',
  specificType: null,
  password: false,
  ...over,
});

export const AURORA: BankView = {
  bankId: 'aurora',
  type: 0,
  label: 'Banco Aurora · Particulares',
  active: true,
  defaultLogin: 'dni',
  logins: [
    {
      loginId: 'dni',
      label: 'DNI y clave',
      active: true,
      fields: [
        field({ fieldId: 'userId', label: 'DNI / NIE', min: 9, max: 9, specificType: 'DNI_NIE', testValue: '12345678Z' }),
        field({ fieldId: 'userSecret', label: 'Clave', min: 4, max: 8, valueType: 'numeric', password: true, testValue: '135790' }),
      ],
    },
    {
      loginId: 'user',
      label: 'Usuario y contraseña',
      active: true,
      fields: [
        field({ fieldId: 'userId', label: 'Usuario', min: 6, max: 16, testValue: 'aurora.demo' }),
        field({ fieldId: 'userSecret', label: 'Contraseña', min: 6, max: 20, password: true, testValue: 'Aurora2024' }),
      ],
    },
    {
      loginId: 'card',
      label: 'Tarjeta y PIN',
      active: false,
      fields: [field({ fieldId: 'userId', label: 'Número de tarjeta', min: 16, max: 16, valueType: 'numeric' })],
    },
  ],
};

export const AURORA_EMPRESAS: BankView = {
  bankId: 'aurora-empresas',
  type: 1,
  label: 'Banco Aurora · Empresas',
  active: true,
  defaultLogin: 'cif',
  logins: [
    {
      loginId: 'cif',
      label: 'CIF y contraseña',
      active: true,
      fields: [
        field({ fieldId: 'userId', label: 'CIF', min: 9, max: 9, specificType: 'CIF', testValue: 'B12345674' }),
        field({ fieldId: 'userSecret', label: 'Contraseña', min: 8, max: 20, password: true, testValue: 'Empresa2024' }),
        field({ fieldId: 'userExtraField', label: 'Código de usuario', min: 4, max: 6, valueType: 'numeric', testValue: '7788' }),
      ],
    },
  ],
};

export const GALICIA: BankView = {
  bankId: 'galicia',
  type: 0,
  label: 'Caixa Galícia',
  active: true,
  defaultLogin: 'user',
  logins: [
    {
      loginId: 'user',
      label: 'Usuario',
      active: true,
      fields: [
        field({ fieldId: 'userId', label: 'Usuario', min: 6, max: 12, testValue: 'cantabro1' }),
        field({ fieldId: 'userSecret', label: 'Clave', min: 6, max: 6, valueType: 'numeric', password: true, testValue: '864200' }),
      ],
    },
  ],
};

export const NORTE: BankView = {
  bankId: 'norte',
  type: 0,
  label: 'Banco Norte',
  active: false,
  defaultLogin: 'dni',
  logins: [{ loginId: 'dni', label: 'DNI', active: true, fields: [field({ fieldId: 'userId', label: 'DNI', min: 9, max: 9 })] }],
};

export const GROUPS: BankGroupView[] = [
  { group: 'aurora', name: 'Grupo Aurora', defaultType: 'aurora', types: [AURORA, AURORA_EMPRESAS] },
  { group: 'galicia', name: 'Caixa Galícia', defaultType: 'galicia', types: [GALICIA] },
  { group: 'norte', name: 'Banco Norte', defaultType: 'norte', types: [NORTE] },
];

const periodicBank = (bankId: string, name: string, frequencies: string[], group: [number, string] | null = null, enabled = true): PeriodicBankView => ({
  bankId,
  name,
  enabled,
  frequencies,
  groupId: group?.[0] ?? null,
  groupName: group?.[1] ?? null,
});
const AURORA_GROUP: [number, string] = [10, 'Grupo Aurora'];

/**
 * Banks of the payment-link service that allow periodic payments, as the BFF lists them: a
 * group of three (one not operational), a group of one, banks on their own (one not
 * operational), each with its own frequencies.
 */
export const PERIODIC_BANKS: PeriodicBankView[] = [
  periodicBank('es-levante', 'Caja Levante', ['Monthly']),
  periodicBank('es-aurora', 'Banco Aurora', ['Monthly', 'Quarterly', 'Yearly'], AURORA_GROUP),
  periodicBank('es-aurora-empresas', 'Aurora Empresas', ['Weekly', 'Monthly'], AURORA_GROUP),
  periodicBank('es-aurora-privada', 'Aurora Banca Privada', ['Monthly'], AURORA_GROUP, false),
  periodicBank('es-cantabrico', 'Banco Cantábrico', ['Weekly', 'Monthly', 'Quarterly', 'Yearly'], [20, 'Grupo Cantábrico']),
  periodicBank('es-norte', 'Banco del Norte', ['Monthly'], null, false),
  periodicBank('es-sur', 'Caja del Sur', ['Monthly', 'Yearly']),
];

/** The payer's account in the periodic tests: a valid Spanish IBAN (not the payee's). */
export const DEBTOR_IBAN = 'ES7921000813610123456789';

/** 2030-03-10 at 10:00 UTC (11:00 in Madrid): the first start date allowed is 2030-03-11. */
export const FIXED_NOW = Date.UTC(2030, 2, 10, 10, 0, 0);

export const validation = (type: number, over: Partial<ValidationView> = {}): ValidationView => ({
  ...field({ fieldId: `v${type}`, label: `Código ${type}`, min: 4, max: 8, valueType: 'numeric' }),
  type,
  value: null,
  ...over,
});

/** A 1×1 PNG as the coordinates card. */
export const CARD_IMAGE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const START: readonly CheckoutState[] = ['select-bank', 'login', 'periodic'];

type Rule = { from: readonly CheckoutState[]; needsMode?: CheckoutMode; needsChoice?: boolean };
const OPEN: readonly CheckoutState[] = ['select-bank', 'login', 'second-login', 'select-contract', 'select-account', 'validate', 'periodic', 'redirect'];

/** The payer actions the BFF allows: a copy of its transition table, so the tests render real views. */
const RULES: Record<string, Rule> = {
  login: { from: ['select-bank', 'login'], needsMode: 'native' },
  'second-login': { from: ['second-login'] },
  contract: { from: ['select-contract'] },
  transfer: { from: ['select-account'] },
  validate: { from: ['validate'] },
  cancel: { from: OPEN },
  mode: { from: START, needsChoice: true },
  redirect: { from: START, needsMode: 'redirect' },
  periodic: { from: ['periodic', 'select-bank'], needsMode: 'periodic' },
  back: { from: ['login', 'second-login', 'select-contract', 'select-account'] },
  restart: { from: ['failed', 'cancelled'] },
};

/** The actions a checkout in `state` with these modes offers, as the BFF lists them. */
export function actionsFor(state: CheckoutState, modes: readonly CheckoutMode[]): CheckoutAction[] {
  return (Object.keys(RULES) as CheckoutAction[]).filter((a) => {
    const r = RULES[a]!;
    return r.from.includes(state) && (!r.needsMode || modes.includes(r.needsMode)) && (!r.needsChoice || modes.length > 1);
  });
}

/** A checkout view in `step`'s state; its `actions` are the BFF's for that state and `modes`, unless given. */
export function view(step: StepView, over: Partial<CheckoutView> = {}): CheckoutView {
  const modes = over.modes ?? [over.mode ?? 'native'];
  return {
    actions: actionsFor(step.state, modes),
    id: 'chk_test',
    state: step.state,
    mode: 'native',
    modes,
    amount: 4250,
    currency: 'EUR',
    subject: 'Pedido 1042',
    reference: 'ORD-1042',
    payee: { name: 'Tienda Demo', iban: 'ES9121000418450200051332' },
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    sandbox: false,
    attemptsLeft: 3,
    step,
    ...over,
  };
}

export interface FakeCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  cache: RequestCache | undefined;
}

export type FakeReply = CheckoutView | { status: number; body: unknown } | Error;
export type FakeRoute = (body: any, call: FakeCall) => FakeReply | Promise<FakeReply>;

/**
 * A fake fetch for `https://bff.test`: routes are keyed `METHOD /path`; every call is recorded.
 * A route answering an Error makes fetch reject (network failure). `GET /v1/checkout/start`,
 * unless routed, answers as the BFF does: the `GET /v1/checkout` route's view, with the
 * `GET /v1/banks` route's list when the view opens on the native bank list. `idle()` tells
 * whether the element has read every answer so far (a failed fetch counts once it failed):
 * awaited with `until`, what the element does with the answers has been done by then.
 */
export function fakeBff(routes: Record<string, FakeRoute>) {
  const calls: FakeCall[] = [];
  let unread = 0;
  const read = () => {
    unread--;
  };
  const answer = (res: Response): Response => {
    const json = res.json.bind(res);
    // Defined, not assigned: a process that served HTTP through Hono's Node adapter has its
    // Response class, whose methods cannot be shadowed by assignment.
    Object.defineProperty(res, 'json', { value: () => json().finally(read) });
    return res;
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    unread++;
    try {
      return answer(await respond(input, init));
    } catch (err) {
      read();
      throw err;
    }
  };
  const respond = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(urlOf(input));
    const method = init?.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: FakeCall = { method, path: url.pathname, headers, body, credentials: init?.credentials, cache: init?.cache };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`] ?? (method === 'GET' && url.pathname === '/v1/checkout/start' ? startRoute(routes) : undefined);
    if (!route) return Response.json({ error: { code: 'not_found', message: 'no route', requestId: 'r0' } }, { status: 404 });
    const reply = await route(body, call);
    if (reply instanceof Error) throw new TypeError('Failed to fetch');
    if ('status' in reply && 'body' in reply && !('step' in reply)) return Response.json(reply.body, { status: reply.status });
    return Response.json(reply);
  };
  return { fetch, calls, idle: () => unread === 0 };
}

/** The BFF's first-screen answer, made of the fake's own checkout and bank-list routes. */
function startRoute(routes: Record<string, FakeRoute>): FakeRoute | undefined {
  const checkout = routes['GET /v1/checkout'];
  if (!checkout) return undefined;
  return async (body, call) => {
    const view = await checkout(body, call);
    if (view instanceof Error || !('step' in view)) return view;
    const banksRoute = view.state === 'select-bank' && view.mode === 'native' ? routes['GET /v1/banks'] : undefined;
    const banks = banksRoute ? await banksRoute(body, call) : null;
    const list = banks && !(banks instanceof Error) && 'status' in banks && banks.status === 200 ? banks.body : null;
    return { status: 200, body: { view, banks: list } };
  };
}

export const apiError = (status: number, code: string) => ({ status, body: { error: { code, message: code, requestId: 'req-1' } } });

/** Every attribute value anywhere in `root` and the shadow roots below it. */
export function allAttributeValues(root: Element | ShadowRoot): string[] {
  const out: string[] = [];
  const visit = (node: Element | ShadowRoot) => {
    if (node instanceof Element) for (const a of node.attributes) out.push(a.value);
    for (const child of node.children) visit(child);
    if (node instanceof Element && node.shadowRoot) visit(node.shadowRoot);
  };
  visit(root);
  return out;
}

/** Elements with an inline `style` attribute anywhere under `root` (there must be none). */
export function inlineStyled(root: Element | ShadowRoot): Element[] {
  const out: Element[] = [];
  const visit = (node: Element | ShadowRoot) => {
    if (node instanceof Element && node.hasAttribute('style')) out.push(node);
    for (const child of node.children) visit(child);
    if (node instanceof Element && node.shadowRoot) visit(node.shadowRoot);
  };
  visit(root);
  return out;
}

/** An in-memory `localStorage` stand-in, its content in `data`. */
export function memoryStorage() {
  const data = new Map<string, string>();
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

/** Leaves a field as a payer would (a background test page gets no real blur). */
export function leave(input: HTMLInputElement): void {
  input.dispatchEvent(new FocusEvent('blur'));
}

/** Types into an input as a payer would (sets the value and fires `input`). */
export function type(input: HTMLInputElement, text: string): void {
  input.focus();
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
}

/**
 * One turn of the event loop. A message, not a frame or a timer: pages of a concurrent run sit in
 * background tabs, where frames stop and timers slow down.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
}

/**
 * Waits until `check` returns a truthy value (10 s at most, unless told otherwise: a ceiling for
 * a loaded machine, where a step's file may take seconds to arrive, never a measure).
 */
export async function until<T>(check: () => T | null | undefined | false, what: string | (() => string) = 'condition', timeoutMs = 10_000): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (performance.now() > end) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await nextTask();
  }
}

/**
 * A clock that moves only when told to: the countdowns tick and the one-shot timers (the
 * background checks) fall due as it moves.
 */
export function manualClock(now = Date.UTC(2030, 0, 1)) {
  const ticks = new Set<() => void>();
  const timers = new Set<{ at: number; fn: () => void }>();
  return {
    now: () => now,
    every: (_ms: number, fn: () => void) => {
      ticks.add(fn);
      return () => void ticks.delete(fn);
    },
    after: (ms: number, fn: () => void) => {
      const timer = { at: now + ms, fn };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    /** Moves on `seconds`, one at a time: the countdowns tick, then the timers due run. */
    advance(seconds: number) {
      for (let i = 0; i < seconds; i++) {
        now += 1000;
        for (const f of [...ticks]) f();
        for (const t of [...timers])
          if (t.at <= now) {
            timers.delete(t);
            t.fn();
          }
      }
    },
    /** Moves on to the first one-shot timer and runs it; false when none is set. */
    next(): boolean {
      const first = [...timers].sort((a, b) => a.at - b.at)[0];
      if (!first) return false;
      now = Math.max(now, first.at);
      timers.delete(first);
      first.fn();
      return true;
    },
    /** The countdowns and timers set and not yet over or cancelled. */
    get timers() {
      return ticks.size + timers.size;
    },
  } satisfies Clock & Record<string, unknown>;
}
export type ManualClock = ReturnType<typeof manualClock>;

/** Waits until `check` holds, running each background check as `clock` reaches it. */
export const untilPolled = <T>(clock: ManualClock, check: () => T | null | undefined | false, what?: string): Promise<T> =>
  until<T>(() => check() || (clock.next(), false), what);

/** `s` with its white space collapsed. */
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** An element's text, its white space collapsed. */
export const text = (el: Element | null) => collapse(el?.textContent ?? '');

/** The calls a fake BFF received, as `METHOD /path`. */
export const paths = (calls: { method: string; path: string }[]) => calls.map((c) => `${c.method} ${c.path}`);

/**
 * Waits for `selector` anywhere in the shadow roots below `el`'s. When it never comes, the error
 * says what was there instead: the step shown and its text, through its shadow roots.
 */
export const need = <T extends Element = HTMLElement>(el: Element, selector: string, timeoutMs?: number) =>
  until(
    () => deep<T>(el.shadowRoot!, selector),
    () => `${selector}; ${shown(el)}`,
    timeoutMs,
  );

/** What `el` shows: its step's tag and text (shadow roots included), for a failure's message. */
function shown(el: Element): string {
  const step = stepOf(el) ?? el;
  const textOf = (node: Node): string =>
    node instanceof Element && node.shadowRoot
      ? textOf(node.shadowRoot)
      : node.nodeType === Node.TEXT_NODE
        ? (node.textContent ?? '')
        : [...node.childNodes].map(textOf).join(' ');
  return `<${step.localName}> shows "${collapse(textOf(step)).slice(0, 400)}"`;
}

/** The element of the step `<bank-checkout>` shows. */
const stepOf = (el: Element) => el.shadowRoot!.querySelector('.step')?.lastElementChild ?? null;

/** The tag of the step `<bank-checkout>` shows. */
export const stepTag = (el: Element) => stepOf(el)?.localName;

/** Finds an element through the open shadow roots below `root`. */
export function deep<T extends Element = HTMLElement>(root: Element | ShadowRoot, selector: string): T | null {
  const direct = root.querySelector<T>(selector);
  if (direct) return direct;
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) {
      const found = deep<T>(el.shadowRoot, selector);
      if (found) return found;
    }
  }
  return null;
}

/** A promise with its resolve, to hold a fake answer until the test lets it go. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
