/**
 * The checkout API's routes, declared: what the elements and the isolated checkout's frame call
 * with `X-Checkout-Secret` (the bank list, the checkout's view, the payer's actions), and the
 * frame's redemption of its launch token. Every answer is the checkout view. Their handlers are
 * checkout.handlers.ts; checkout.index.ts mounts them.
 */
import { createRoute } from '@hono/zod-openapi';
import type { z } from 'zod';
import * as contract from '@bank-checkout/contract/schemas';
import { json, jsonRequest, withErrors } from '../../openapi.js';
import { checkoutRoute } from '../declare.js';

/** A route that reads the checkout. */
const read = <S extends z.ZodType>(path: string, summary: string, response: S) =>
  checkoutRoute({ method: 'get', path, summary, responses: { 200: json(response, 'The checkout view') } });

/** Bodies that may be left out (an action without data; a hand-off without a language). */
const isEmpty = (schema: z.ZodType) => schema === contract.emptyBody || schema === contract.handoffBody;

/** A route that acts on the checkout, with its JSON body (one that may be left out is declared not required). */
const act = <B extends z.ZodType, S extends z.ZodType>(path: string, summary: string, body: B, response: S) =>
  checkoutRoute({
    method: 'post',
    path,
    summary,
    request: { body: jsonRequest(body, !isEmpty(body)) },
    responses: { 200: json(response, 'The checkout view') },
  });

/** A payer's action, answered with the checkout's view. */
const action = <B extends z.ZodType>(path: string, summary: string, body: B) => act(path, summary, body, contract.checkoutView);

export const banks = checkoutRoute({
  method: 'get',
  path: '/banks',
  summary: 'Bank groups of the native service (cached; revalidate with If-None-Match)',
  responses: {
    200: json(contract.banksResponse, 'The bank groups and their banks'),
    304: { description: 'Not modified: the ETag given in If-None-Match is still current' },
  },
});

export const view = read('/checkout', 'The checkout view', contract.checkoutView);

export const start = read(
  '/checkout/start',
  'The checkout view, with the bank list when the view opens on it (the first screen in one call)',
  contract.checkoutStart,
);

/**
 * The isolated checkout's frame redeems its page's launch token, once, from the BFF's own origin
 * (as its browser says), with a proof signed by its key pair (`DPoP`), for the key it proves
 * itself with from then on (kept in its memory only), bound to that key pair. The answer carries
 * the first screen. No client secret: the token is the credential.
 */
export const frameLaunch = createRoute(
  withErrors({
    method: 'post',
    path: '/frame/launch',
    summary: "Redeem a launch token for the frame's key (the isolated checkout's frame only, from the BFF's own origin, with a DPoP proof)",
    tags: ['checkout'],
    request: { body: jsonRequest(contract.frameLaunchBody) },
    responses: { 200: json(contract.frameLaunchAnswer, "The frame's key, for X-Checkout-Secret, and the first screen") },
  }),
);

export const chooseBank = action(
  '/checkout/bank',
  "The payer chose a bank in the list, before its sign-in (one in maintenance too): it counts as chosen in the merchant's funnel. Nothing is sent to the bank; the checkout's state stays",
  contract.bankChoiceBody,
);
export const login = action('/checkout/login', 'Log in at the chosen bank', contract.loginBody);
export const secondLogin = action('/checkout/second-login', 'Answer the second login', contract.secondLoginBody);
export const chooseContract = action('/checkout/contract', 'Choose a contract', contract.contractBody);
export const transfer = action('/checkout/transfer', 'Choose the account and start the transfer', contract.transferBody);
export const validate = action('/checkout/validate', 'Answer a round of validations', contract.validateBody);
export const cancel = action('/checkout/cancel', 'Cancel the checkout', contract.emptyBody);
export const back = action('/checkout/back', 'One step back (another bank, person type, contract or account)', contract.emptyBody);
export const restart = action('/checkout/restart', 'Start again after a failure or a cancellation', contract.emptyBody);
export const redirect = action('/checkout/redirect', 'Create the signed payment URL', contract.emptyBody);
export const periodic = action('/checkout/periodic', 'Create the signed periodic-payment URL', contract.periodicBody);
export const handoff = act(
  '/checkout/handoff',
  "A single-use link that opens this checkout's bank page on the payer's phone (while it waits there), its page in `locale`",
  contract.handoffBody,
  contract.handoffAnswer,
);
export const chooseMode = action('/checkout/mode', 'Choose native, redirect or periodic', contract.modeBody);
