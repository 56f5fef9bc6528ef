import { css } from 'lit';

export const challengeStyles = css`
  .head {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: baseline;
    justify-content: space-between;
  }
  .round::before {
    content: '· ';
  }
  .countdown {
    display: inline-flex;
    gap: 6px;
    align-items: baseline;
    padding: 4px 10px;
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .countdown [role='timer'] {
    font-size: 1.2em;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  .countdown.low [role='timer'] {
    color: var(--_error);
  }
  .validation {
    display: grid;
    gap: 8px;
    padding-top: var(--_gap);
    border-top: 1px solid var(--_border);
  }
  .position {
    justify-self: start;
    padding: 6px 12px;
    border-radius: var(--_radius);
    background: var(--_surface);
    font-size: 1.25em;
    font-weight: 700;
    letter-spacing: 0.05em;
  }
  img {
    display: block;
    max-width: 100%;
    height: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: #fff;
  }
  /* The coordinates card as a table: it reflows with the text when zoomed. */
  .card {
    justify-self: start;
    max-width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
    background: var(--_surface);
    border-radius: var(--_radius);
  }
  .card caption {
    text-align: start;
    padding-bottom: 4px;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .card th,
  .card td {
    padding: 0.15em 0.3em;
    font-size: 0.9em;
    border: 1px solid var(--_border);
    text-align: center;
  }
  .card th {
    font-weight: 700;
  }
  /* The cell asked for: a thick outline and bold figures, not colour alone. */
  .card td.asked {
    outline: 3px solid var(--_primary);
    outline-offset: -3px;
    font-weight: 700;
  }
  .waiting {
    display: flex;
    gap: 10px;
    align-items: center;
  }
  .spinner {
    width: 1.1em;
    height: 1.1em;
    flex: none;
    border: 3px solid var(--_border);
    border-top-color: var(--_primary);
    border-radius: 50%;
    animation: spin 1s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
`;
