/**
 * Registers the texts of the native steps after the bank list (en-steps.ts, es-steps.ts): each
 * module that shows them imports this, so that they come with the steps' file, not up front.
 */
import { registerTexts } from './index.js';
import { enSteps } from './en-steps.js';
import { esSteps } from './es-steps.js';

registerTexts({ en: enSteps, es: esSteps });
