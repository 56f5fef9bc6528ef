import { css } from 'lit';

export const resultStyles = css`
  .result {
    justify-items: start;
  }
  .icon {
    position: relative;
    width: 48px;
    height: 48px;
    border-radius: 50%;
    background: var(--_error);
  }
  .icon::before,
  .icon::after {
    content: '';
    position: absolute;
    background: var(--_bg);
    border-radius: 2px;
  }
  /* A cross for failures. */
  .icon::before,
  .icon::after {
    left: 22px;
    top: 12px;
    width: 4px;
    height: 24px;
  }
  .icon::before {
    transform: rotate(45deg);
  }
  .icon::after {
    transform: rotate(-45deg);
  }
  /* A tick for success. */
  .succeeded .icon {
    background: var(--_success);
  }
  .succeeded .icon::before {
    left: 14px;
    top: 24px;
    width: 12px;
    height: 4px;
    transform: rotate(45deg);
  }
  .succeeded .icon::after {
    left: 20px;
    top: 20px;
    width: 20px;
    height: 4px;
    transform: rotate(-45deg);
  }
  /* Dots for a pending outcome. */
  .unknown .icon {
    background: var(--_primary);
  }
  .unknown .icon::before,
  .unknown .icon::after {
    top: 22px;
    width: 4px;
    height: 4px;
    border-radius: 50%;
    transform: none;
  }
  .unknown .icon::before {
    left: 14px;
  }
  .unknown .icon::after {
    left: 30px;
  }
`;
