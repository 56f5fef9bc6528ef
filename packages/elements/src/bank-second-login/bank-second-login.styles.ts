import { css } from 'lit';

export const secondLoginStyles = css`
  .position {
    justify-self: start;
    padding: 6px 12px;
    border-radius: var(--_radius);
    background: var(--_surface);
    font-size: 1.25em;
    font-weight: 700;
    letter-spacing: 0.05em;
  }
`;
