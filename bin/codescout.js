#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli.js (built by `npm run build`, which `npm install` runs via `prepare`).
import { main } from '../dist/cli.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
