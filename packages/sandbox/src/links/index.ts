// Placeholder: the payment-link service is being written.
import { Hono } from 'hono';
import type { SandboxConfig } from '../context.js';
export function createLinksService(_config: SandboxConfig) {
  return { app: new Hono() };
}
