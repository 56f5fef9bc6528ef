import { css } from 'lit';

export const loginFormStyles = css`
  /* The login types as radio buttons (where a list would cut a name): one compact line each. */
  .types {
    display: grid;
    gap: 4px;
  }
  .types label {
    display: flex;
    gap: 10px;
    align-items: flex-start;
    min-height: 24px;
    font-weight: 400;
    cursor: pointer;
  }
  .types label:has(:disabled) {
    color: var(--_muted);
    cursor: not-allowed;
  }
`;
