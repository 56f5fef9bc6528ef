import { css } from 'lit';

export const contractPickerStyles = css``;
