/**
 * How many runs a fuzz or property test makes. `LPREQ_FUZZ_RUNS` (a positive integer) sets
 * every one of them: higher to search longer, lower for a quick pass (`npm run test:quick`
 * sets it unless it is given). Unset, each test makes its own default number, which is what
 * `npm test` runs.
 */
export function fuzzRuns(defaultRuns: number): number {
  const given = Number(process.env.LPREQ_FUZZ_RUNS);
  return Number.isFinite(given) && given >= 1 ? Math.floor(given) : defaultRuns;
}

/** A count as the test titles write it (20,000). */
export const count = (n: number): string => n.toLocaleString('en-US');
