// Runs the test files named on the command line in this one process, each as a suite of its
// own (so its before and after hooks stay its own). Started by scripts/test.mjs with tsx loaded.
import { describe } from 'node:test';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  describe(relative(process.cwd(), file), async () => {
    await import(pathToFileURL(file).href);
  });
}
