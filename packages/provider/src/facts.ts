/**
 * Facts of the provider's services that both sides of this repository rely on: the BFF plans
 * around them and the simulator behaves by them. One place, so the two cannot drift apart.
 * What each means is written in docs/provider.md.
 */

/** Time the bank gives to answer all the validations of a transfer, from its transfer/init: 90 seconds. */
export const VALIDATION_WINDOW_MS = 90_000;
