import { css } from 'lit';

export const periodicFormStyles = css`
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
  select[aria-invalid='true'] {
    border: 2px solid var(--_error);
  }
  select:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .frequencies .choices {
    grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
  }
  input[type='date'] {
    max-width: 14rem;
  }
  .iban {
    font-variant-numeric: tabular-nums;
    letter-spacing: 0.02em;
  }
`;
