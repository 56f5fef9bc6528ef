/**
 * `npm run serve`: the shop alone, for production, beside a BFF that runs on its own (BFF_URL,
 * BFF_PUBLIC_URL) and its environment (the variables of .env, from your secrets store).
 */
import { startShop } from './shop.js';

const shop = await startShop(process.env);
console.log(`shop: listening on port ${process.env.SHOP_PORT || 3000}`);
const stop = () => void shop.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
