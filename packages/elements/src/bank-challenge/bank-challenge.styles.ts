import { css } from 'lit';

export const challengeStyles = css`
  .head {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: baseline;
    justify-content: space-between;
  }
  /* Whether the countdown goes beside the heading or under it depends on the width alone, not on
     the heading's words: a further round's heading is shorter, and nothing moves. */
  .head h2 {
    flex: 1 0 60%;
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
  /* The fields and the card never widen the step past its place: the card scrolls instead. */
  .validation > * {
    min-width: 0;
  }
  /* The coordinates card as a table: it reflows with the text when zoomed; wider than the step,
     it is drawn smaller (compact), and still wider it scrolls sideways (by itself to the asked
     cell), the row numbers kept at the left. */
  .card-scroll {
    /* It contains the cells' words for screen readers (absolutely placed), which would otherwise
       reach past it and widen the page. */
    position: relative;
    justify-self: start;
    max-width: 100%;
    overflow-x: auto;
    overscroll-behavior-x: contain;
  }
  .card {
    border-collapse: separate;
    border-spacing: 0;
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
    border-width: 0 1px 1px 0;
    text-align: center;
    white-space: nowrap;
  }
  .compact .card th,
  .compact .card td {
    padding: 0.1em 0.2em;
    font-size: 0.8em;
  }
  .card tr > :first-child {
    border-left-width: 1px;
  }
  .card thead > tr > * {
    border-top-width: 1px;
  }
  .card th {
    font-weight: 700;
  }
  .card th[scope='row'] {
    position: sticky;
    left: 0;
    background: var(--_surface);
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
