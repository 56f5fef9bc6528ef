import { css } from 'lit';

export const accountPickerStyles = css`
  .choice-detail {
    font-variant-numeric: tabular-nums;
  }
`;
