import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';
for (const f of process.argv.slice(2)) describe(f, async () => { await import(pathToFileURL(f).href); });
