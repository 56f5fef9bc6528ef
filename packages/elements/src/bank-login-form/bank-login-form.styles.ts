import { css } from 'lit';

export const loginFormStyles = css`
  .types {
    display: grid;
    gap: 8px;
  }
`;
