/**
 * Shared styles: the `--bank-*` theme (light and dark defaults) and the look of the common
 * controls. Every element adopts these through Lit's static `styles` (constructable style
 * sheets), so nothing needs inline styles and the kit works under `style-src 'self'`.
 */
import { css } from 'lit';

export const theme = css`
  :host {
    --_bg: var(--bank-color-background, #ffffff);
    --_surface: var(--bank-color-surface, #f3f4f7);
    --_text: var(--bank-color-text, #1a1c20);
    --_muted: var(--bank-color-muted, #4d5360);
    --_border: var(--bank-color-border, #7b8190);
    --_primary: var(--bank-color-primary, #0b57d0);
    --_on-primary: var(--bank-color-on-primary, #ffffff);
    --_error: var(--bank-color-error, #b3261e);
    --_success: var(--bank-color-success, #146c2e);
    --_notice-bg: var(--bank-color-notice-background, #fff4d6);
    --_notice-text: var(--bank-color-notice-text, #4a3700);
    --_focus: var(--bank-color-focus, #0b57d0);
    --_radius: var(--bank-radius, 8px);
    --_gap: var(--bank-spacing, 12px);
    display: block;
    min-width: 0;
    color: var(--_text);
    font-family: var(--bank-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-size: var(--bank-font-size, 1rem);
    line-height: 1.45;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--bank-color-background, #16181c);
      --_surface: var(--bank-color-surface, #23262d);
      --_text: var(--bank-color-text, #eceef2);
      --_muted: var(--bank-color-muted, #b9bfcb);
      --_border: var(--bank-color-border, #8b93a1);
      --_primary: var(--bank-color-primary, #a8c7fa);
      --_on-primary: var(--bank-color-on-primary, #062e6f);
      --_error: var(--bank-color-error, #f2b8b5);
      --_success: var(--bank-color-success, #6dd58c);
      --_notice-bg: var(--bank-color-notice-background, #3d3200);
      --_notice-text: var(--bank-color-notice-text, #ffe08a);
      --_focus: var(--bank-color-focus, #a8c7fa);
    }
  }
  :host([hidden]) {
    display: none;
  }
`;

export const controls = css`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  [hidden] {
    display: none !important;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  h2,
  h3 {
    margin: 0;
    font-size: 1.15em;
    line-height: 1.3;
  }
  p {
    margin: 0;
  }
  h2[tabindex]:focus {
    outline: none;
  }
  .stack {
    display: grid;
    gap: var(--_gap);
  }
  .muted,
  .hint {
    color: var(--_muted);
  }
  .hint {
    font-size: 0.9em;
  }
  button {
    font: inherit;
    min-height: 44px;
    padding: 0.5em 1em;
    border: 1px solid var(--_primary);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_primary);
    cursor: pointer;
  }
  button.primary {
    background: var(--_primary);
    color: var(--_on-primary);
    font-weight: 600;
  }
  button.link {
    min-height: 44px;
    padding: 0.25em 0;
    border: 0;
    background: none;
    text-decoration: underline;
  }
  button:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  a:focus-visible,
  [tabindex]:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  input:not([type='radio']),
  select {
    font: inherit;
    width: 100%;
    min-width: 0;
    min-height: 44px;
    padding: 0.5em 0.75em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_text);
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border: 2px solid var(--_error);
  }
  input[type='radio'] {
    width: 1.2em;
    height: 1.2em;
    margin: 0.15em 0 0;
    flex: none;
    accent-color: var(--_primary);
  }
  .field {
    display: grid;
    gap: 4px;
  }
  label,
  legend {
    font-weight: 600;
  }
  .control {
    display: flex;
    gap: 8px;
  }
  .control input {
    flex: 1;
  }
  .error {
    color: var(--_error);
    font-size: 0.9em;
  }
  .alert {
    padding: var(--_gap);
    border-left: 4px solid var(--_error);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .notice {
    padding: 8px var(--_gap);
    border-radius: var(--_radius);
    background: var(--_notice-bg);
    color: var(--_notice-text);
    font-weight: 600;
  }
  fieldset {
    min-width: 0;
    margin: 0;
    padding: 0;
    border: 0;
  }
  legend {
    padding: 0;
    margin-bottom: 8px;
  }
  .choices {
    display: grid;
    gap: 8px;
  }
  .choice {
    display: flex;
    gap: 10px;
    align-items: flex-start;
    padding: 10px 12px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    font-weight: 400;
    cursor: pointer;
  }
  .choice:has(input:checked) {
    border-color: var(--_primary);
    box-shadow: inset 0 0 0 1px var(--_primary);
  }
  .choice:has(input:disabled) {
    cursor: not-allowed;
    color: var(--_muted);
  }
  .choice:has(input:focus-visible) {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .choice input:focus-visible {
    outline: none;
  }
  .choice-text {
    display: grid;
    gap: 2px;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .choice-detail {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
`;

/** The styles of a kit element: theme, controls, then its own. */
export const elementStyles = [theme, controls];
