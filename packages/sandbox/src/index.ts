export { createSandbox, type Sandbox } from './app.js';
export { SANDBOX_DEFAULTS, resolveConfig, type SandboxConfig, type ApiClient, type SignerVariant } from './context.js';
