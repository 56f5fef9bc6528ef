import { css } from 'lit';

export const checkoutStyles = css`
  :host {
    max-width: var(--bank-max-width, 32rem);
  }
  .checkout {
    display: grid;
    gap: calc(var(--_gap) * 1.5);
    padding: var(--bank-padding, 16px);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
    background: var(--_bg);
  }
  /* A phone's width: the frame and its padding take 13 px a side, the steps the rest. */
  @media (max-width: 400px) {
    .checkout {
      padding: var(--bank-padding, 12px);
      gap: var(--_gap);
    }
  }
  .summary dl {
    display: grid;
    grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
    gap: 4px 12px;
    margin: 0;
  }
  .summary dt {
    color: var(--_muted);
  }
  .summary dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .summary .amount {
    font-size: 1.4em;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  .summary details {
    margin-top: 4px;
    font-size: 0.9em;
  }
  .summary summary {
    cursor: pointer;
    color: var(--_primary);
    width: max-content;
    max-width: 100%;
  }
  .summary details dl {
    margin-top: 4px;
  }
  /* The way to pay, once chosen: one line with "Change". */
  .modes.chosen {
    display: flex;
    align-items: center;
    gap: 0 12px;
  }
  .modes.chosen span {
    flex: 1 1 0;
    min-width: 0;
  }
  /* The test-mode banner: one short line, so the step starts high on a phone (a 320 px one too). */
  [part='sandbox-banner'] {
    padding: 4px var(--_gap);
    font-size: clamp(0.75em, 4.2vw, 0.875em);
  }
  /* The other rail's offer adds no gap when it has nothing to offer. */
  bank-rail-offer {
    display: contents;
  }
  .status:empty,
  .step:empty {
    display: none;
  }
  .status {
    color: var(--_muted);
  }
  /* While a call is on its way the step dims (after a moment, so quick answers do not flicker);
     the status line says it to screen readers without moving the layout. */
  .checkout[aria-busy='true'] {
    cursor: progress;
  }
  .checkout[aria-busy='true'] .step {
    opacity: 0.6;
    transition: opacity 0.2s 0.15s;
  }
  .step {
    display: grid;
    gap: var(--_gap);
    justify-items: stretch;
  }
  .step > button.link {
    justify-self: start;
  }
  .cancel {
    padding-top: var(--_gap);
    border-top: 1px solid var(--_border);
  }
  a {
    color: var(--_primary);
  }
  /* As high as the line of the way to pay it takes the place of (the step does not move). */
  .bank-name {
    display: grid;
    align-items: center;
    min-height: 44px;
    margin: 0;
    color: var(--_muted);
    font-size: 0.9em;
  }
`;
