import { css } from 'lit';

export const accountPickerStyles = css`
  .choice-detail {
    font-variant-numeric: tabular-nums;
  }
  .choice.flagged {
    border-left: 4px solid var(--_error);
  }
  .choice-flag {
    color: var(--_error);
    font-size: 0.9em;
    font-weight: 600;
  }
`;
