export { createDemo, WEBHOOK_PATH, type DemoApp, type DemoOptions } from './app.js';
export { PRODUCTS, type Product } from './shop.js';
