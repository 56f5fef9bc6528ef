#!/usr/bin/env node
/**
 * `npm create bank-checkout@latest <folder>` runs this (`create-bank-checkout <folder>`): the
 * command (command.ts) with the process's arguments, its terminal when it has one, and its exit
 * status.
 */
import { createInterface } from 'node:readline/promises';
import { main } from './command.js';

const interactive = process.stdin.isTTY && process.stdout.isTTY;
const ask = async (question: string) => {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
};
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  ...(interactive ? { ask } : {}),
});
