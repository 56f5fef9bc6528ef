// Placeholder: the native service is being written.
import { Hono } from 'hono';
import type { SandboxConfig } from '../context.js';
export function createNativeService(_config: SandboxConfig) {
  return { app: new Hono() };
}
