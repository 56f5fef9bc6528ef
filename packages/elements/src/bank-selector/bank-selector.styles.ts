import { css } from 'lit';

export const selectorStyles = css`
  .person {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr));
    gap: 8px;
  }
  [role='listbox'] {
    display: grid;
    gap: 4px;
    max-height: var(--bank-selector-max-height, 22rem);
    overflow-y: auto;
    padding: 2px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .more {
    min-height: 1px;
  }
  [role='group'] {
    display: grid;
    gap: 2px;
  }
  .group-name {
    padding: 8px 10px 2px;
    color: var(--_muted);
    font-size: 0.85em;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.03em;
  }
  [role='option'] {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 8px;
    align-items: baseline;
    min-height: 44px;
    padding: 10px;
    border-radius: calc(var(--_radius) - 2px);
    cursor: pointer;
  }
  [role='option'][aria-selected='true'] {
    outline: 2px solid var(--_focus);
    outline-offset: -2px;
    background: var(--_surface);
  }
  [role='option'].maintenance {
    color: var(--_muted);
  }
  [role='option']:hover {
    background: var(--_surface);
  }
  .badge {
    font-size: 0.85em;
  }
`;
