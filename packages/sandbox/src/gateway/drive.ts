/**
 * Drives the hosted gateway the way a browser without JavaScript does: read the page's forms,
 * fill them, post them. For tests of the simulator and of anything built on it (the BFF's
 * return and notification handling, end-to-end journeys).
 */

/** `fetch`, or a Hono app's `request`. */
export type RequestFn = (url: string, init?: RequestInit) => Response | Promise<Response>;

export interface GatewayForm {
  action: string;
  /** Hidden fields (`step`, `session`, `dataReturn`, …) by name. */
  fields: Record<string, string>;
  /** Names of the visible inputs the payer fills (radio groups once). */
  inputs: string[];
  /** Text of the submit button. */
  button: string;
}

export interface GatewayPage {
  status: number;
  html: string;
  forms: GatewayForm[];
  /** The page's `<h1>`. */
  title: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]!);
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescape(m[1]!) : undefined;
};

/** Every POST form of a page. */
export function readForms(html: string): GatewayForm[] {
  const forms: GatewayForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const fields: Record<string, string> = {};
    const inputs: string[] = [];
    for (const input of m[2]!.matchAll(/<input\b[^>]*>/g)) {
      const name = attr(input[0], 'name');
      if (!name) continue;
      if (attr(input[0], 'type') === 'hidden') fields[name] = attr(input[0], 'value') ?? '';
      else if (!inputs.includes(name)) inputs.push(name);
    }
    const button = /<button\b[^>]*>([\s\S]*?)<\/button>/.exec(m[2]!)?.[1] ?? '';
    forms.push({ action: attr(m[0], 'action') ?? '', fields, inputs, button: unescape(button) });
  }
  return forms;
}

/** The values of a radio group (`bankId`) offered on a page. */
export function radioValues(html: string, name: string): string[] {
  return [...html.matchAll(/<input\b[^>]*type="radio"[^>]*>/g)].filter((m) => attr(m[0], 'name') === name).map((m) => attr(m[0], 'value') ?? '');
}

export async function toPage(res: Response): Promise<GatewayPage> {
  const html = await res.text();
  const title = unescape(/<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '');
  return { status: res.status, html, forms: readForms(html), title };
}

/** Posts a form with its hidden fields and `values`, as a browser would. */
export async function submit(request: RequestFn, form: GatewayForm, values: Record<string, string> = {}): Promise<GatewayPage> {
  return toPage(
    await request(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, ...values }).toString(),
    }),
  );
}

/** The form of `page` whose hidden `step` is `step`; throws when the page has none. */
export function formFor(page: GatewayPage, step: string): GatewayForm {
  const form = page.forms.find((f) => f.fields.step === step);
  if (!form) throw new Error(`gateway page "${page.title}" (HTTP ${page.status}) has no "${step}" form`);
  return form;
}

export interface GatewayWalk {
  /** Bank to choose when the page asks (a bank in a group is reached through its group). */
  bankId?: string;
  user?: string;
  password?: string;
  /** The additional login key, for banks that ask for it (the sandbox wants `user1`). */
  loginKey?: string;
  /** Validation code: any letters and digits authorise, `0000` fails. */
  code?: string;
}

/**
 * Opens a signed URL and goes through every step up to the page after the validation code:
 * the success page, or the failure page of `0000` (then `formFor(page, 'leave')` leaves).
 * Throws, naming the page, when a step does not lead where expected.
 */
export async function walkGateway(request: RequestFn, url: string, walk: GatewayWalk = {}): Promise<GatewayPage> {
  let page = await toPage(await request(url));
  page = await submit(request, formFor(page, 'start'));
  if (page.forms.some((f) => f.fields.step === 'bank')) {
    const offered = radioValues(page.html, 'bankId');
    const bankId = walk.bankId ?? offered.find((v) => !v.startsWith('group:'));
    if (!bankId) throw new Error('walkGateway: no bank to choose');
    if (!offered.includes(bankId)) {
      let found: GatewayPage | undefined;
      for (const group of offered.filter((v) => v.startsWith('group:'))) {
        const inGroup = await submit(request, formFor(page, 'bank'), { bankId: group });
        if (radioValues(inGroup.html, 'bankId').includes(bankId)) {
          found = inGroup;
          break;
        }
      }
      if (!found) throw new Error(`walkGateway: bank ${bankId} is not offered, alone or in a group`);
      page = found;
    }
    page = await submit(request, formFor(page, 'bank'), { bankId });
  }
  const login = formFor(page, 'login');
  page = await submit(request, login, {
    user: walk.user ?? 'payer',
    password: walk.password ?? 'secret',
    ...(login.inputs.includes('loginKey') ? { loginKey: walk.loginKey ?? 'user1' } : {}),
  });
  return submit(request, formFor(page, 'code'), { code: walk.code ?? 'OK1234' });
}
