/**
 * The checkout API's handlers, one per route of checkout.routes.ts, each taking only what it
 * uses of the routes' parts (parts.ts `RouteDeps`). The caller's checkout is found before the
 * handler runs (mount.ts); the service reads and changes it, and answers with its view.
 */
import type { Context } from 'hono';
import type * as contract from '@bank-checkout/contract/schemas';
import { ApiError, StaleStep, errorResponse, errors } from '../../errors.js';
import { fromTheFrame, proofUrlOf } from '../../http.js';
import { jsonText } from '../../openapi.js';
import { toApiError } from '../../upstream.js';
import type { CheckoutRecord } from '../../store/types.js';
import type { RouteDeps } from '../../parts.js';
import type { CheckoutEnv, Handler } from '../declare.js';
import type * as r from './checkout.routes.js';

/** What the routes that answer with the bank list use: the provider's list, and its view (banks-view.ts). */
type BanksDeps = Pick<RouteDeps, 'upstream' | 'banksView'>;

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** The first screen, as JSON: the view, and the bank list when the view opens on it. */
async function startOf(d: Pick<RouteDeps, 'service'> & BanksDeps, rec: CheckoutRecord): Promise<string> {
  const view = await d.service.view(rec);
  const listed = view.state === 'select-bank' && view.mode === 'native';
  // Without the list (the provider did not answer), the element asks GET /v1/banks, which says why.
  const groups = listed ? await d.upstream.nativeBanks().catch(() => null) : null;
  return `{"view":${JSON.stringify(view)},"banks":${groups ? d.banksView(groups).json : 'null'}}`;
}

/** A payer's action: the checkout's view after `run`, or (the step left meanwhile) a 409 with the view as it is now. */
async function act(d: Pick<RouteDeps, 'service'>, c: Context<CheckoutEnv>, run: (rec: CheckoutRecord) => Promise<CheckoutRecord>) {
  const rec = c.get('checkout');
  try {
    return c.json(await d.service.view(await run(rec)), 200);
  } catch (err) {
    if (!(err instanceof StaleStep)) throw err;
    // Another window (or time) moved the checkout on: the answer shows where it is now.
    const now = await d.service.settle((await d.service.find(rec.id)) ?? rec);
    return errorResponse(c, err, { view: await d.service.view(now) });
  }
}

export const banks =
  (d: BanksDeps): Handler<typeof r.banks, CheckoutEnv> =>
  async (c) => {
    const groups = await d.upstream.nativeBanks().catch((err: unknown) => {
      throw toApiError(err);
    });
    // The browser may keep the list, but asks each time whether it is still current: a 304
    // then costs a few hundred bytes instead of the list (after "choose another bank", say).
    const { json, etag } = d.banksView(groups);
    c.header('ETag', etag);
    c.header('Cache-Control', 'private, no-cache');
    if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
    return jsonText<contract.BanksResponse>(c, json);
  };

export const view =
  (d: Pick<RouteDeps, 'service'>): Handler<typeof r.view, CheckoutEnv> =>
  async (c) =>
    c.json(await d.service.view(c.get('checkout')), 200);

export const start =
  (d: Pick<RouteDeps, 'service'> & BanksDeps): Handler<typeof r.start, CheckoutEnv> =>
  async (c) =>
    jsonText<contract.CheckoutStart>(c, await startOf(d, c.get('checkout')));

/** Mounted beside the others (so typed by their router), but no checkout is found before it: its token finds one. */
export const frameLaunch = (d: Pick<RouteDeps, 'config' | 'guards' | 'service' | 'webhook'> & BanksDeps): Handler<typeof r.frameLaunch, CheckoutEnv> => {
  const proofUrl = proofUrlOf(d.config.publicUrl);
  return async (c) => {
    if (!fromTheFrame(c, d.config.publicUrl)) throw errors.originRefused();
    const { token } = c.req.valid('json');
    const { record, key, resumed } = await d.guards
      .checkout(c, async () => {
        const { jkt } = await d.service.proofs.verify(c.req.header('DPoP'), { method: 'POST', url: proofUrl(c) });
        return d.service.redeemLaunch(token, jkt);
      })
      .catch((err: unknown) => {
        // A token presented again: its event for the merchant is in the outbox, delivered now.
        if (err instanceof ApiError && err.code === 'launch_used') d.webhook.kick();
        throw err;
      });
    const start = await startOf(d, await d.service.settle(record));
    return jsonText<contract.FrameLaunchAnswer>(c, `{"key":${JSON.stringify(key)},"resumed":${resumed},"start":${start}}`);
  };
};

type Service = Pick<RouteDeps, 'service'>;

export const chooseBank =
  (d: Service): Handler<typeof r.chooseBank, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.chooseBank(rec, c.req.valid('json').bankId));

export const login =
  (d: Service): Handler<typeof r.login, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.login(rec, c.req.valid('json')));

export const secondLogin =
  (d: Service): Handler<typeof r.secondLogin, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.secondLogin(rec, c.req.valid('json').value));

export const chooseContract =
  (d: Service): Handler<typeof r.chooseContract, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.contract(rec, c.req.valid('json').contractId));

export const transfer =
  (d: Service): Handler<typeof r.transfer, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.transfer(rec, c.req.valid('json').accountId));

export const validate =
  (d: Service): Handler<typeof r.validate, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.validate(rec, c.req.valid('json').values));

export const cancel =
  (d: Service): Handler<typeof r.cancel, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.cancel(rec));

export const back =
  (d: Service): Handler<typeof r.back, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.back(rec));

export const restart =
  (d: Service): Handler<typeof r.restart, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.restart(rec));

export const redirect =
  (d: Service): Handler<typeof r.redirect, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.redirect(rec));

export const periodic =
  (d: Service): Handler<typeof r.periodic, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.periodic(rec, c.req.valid('json')));

export const handoff =
  (d: Service): Handler<typeof r.handoff, CheckoutEnv> =>
  async (c) =>
    c.json(await d.service.handoff.create(c.get('checkout'), c.req.valid('json').locale), 200);

export const chooseMode =
  (d: Service): Handler<typeof r.chooseMode, CheckoutEnv> =>
  (c) =>
    act(d, c, (rec) => d.service.chooseMode(rec, c.req.valid('json').mode));
