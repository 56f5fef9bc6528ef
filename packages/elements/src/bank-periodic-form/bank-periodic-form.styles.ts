import { css } from 'lit';

export const periodicFormStyles = css`
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
