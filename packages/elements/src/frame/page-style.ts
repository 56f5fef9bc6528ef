/**
 * The isolated checkout's page around the checkout: no margin, sized by the host to its
 * content, on an opaque background of its own (the theme's, once it passed the floor); its
 * title (what the page is, for assistive technology) is not drawn. The kit adopts it
 * (page-checkout.ts); a page with its first screen written in (first-screen.ts) has it in its
 * head, so that the first paint is the kit's.
 */
import { DEFAULT_COLORS } from './theme-floor.js';

const bg = (scheme: 'light' | 'dark') => `html{background:var(--bank-color-background,${DEFAULT_COLORS[scheme]['--bank-color-background']})}`;

export const FRAME_PAGE_CSS =
  `html,body,main{margin:0;padding:0;overflow:hidden}body,main{background:transparent}${bg('light')}@media (prefers-color-scheme: dark){${bg('dark')}}` +
  '.title{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
  '.launch-failed{margin:0;padding:16px;font:1rem/1.45 system-ui,sans-serif}';
