/**
 * A test run against the built-in mock: what `lpreq test --mock` and the editor's run profile
 * "against the built-in mock" share, so that both start the mock and aim the runner at it the
 * same way. The mock listens on 127.0.0.1 with a token of its own (no real token is ever sent
 * to it) and offers its seeded data as variables named after the documented placeholders
 * (`course_id`, `module_id`...: mock/variables.ts), so a repository's files run against it
 * whatever its environments are called. An environment the run is given (`--mock --env NAME`,
 * the editor's choice) lends its variables over those, with its base_url at the mock; and the
 * runner is confined to the mock's origin, so a request written for any other address is not
 * sent and fails.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { bundledCatalog } from './catalogData';
import { dictFrom, own, setOwn } from './core/index';
import {
  defaultSeed,
  FaultsError,
  mockVariables,
  parseFaults,
  seededIds,
  startMock,
  unmatchedNote,
  type FaultPlan,
  type MockVariable,
} from './mock/index';
import { readTextFileSync } from './node/index';
import type { MockTarget, RunOptions, SendEnvironments, SendSetup } from './sender/index';

/** The name of the environment a mock run makes when no environment lends its variables. */
const MOCK_ENVIRONMENT = 'lpreq-mock';

export interface MockRun extends MockTarget {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The mock's own token: the only one a mock run sends. */
  token: string;
  /** The runner's options that send to the mock and nowhere else. */
  options: Pick<RunOptions, 'overrides' | 'confineTo' | 'env'>;
  /** The variables the mock offers (docs/mock.md). */
  variables: readonly MockVariable[];
  /** The environments of a file's setup with the mock's variables under the chosen one's, and base_url at the mock. */
  environments(setup: Pick<SendSetup, 'files' | 'selected'>): SendEnvironments;
  /** Notes for the end of the run: the rules of the faults file no request matched. */
  notes(): string[];
  close(): Promise<void>;
}

export interface MockRunOptions {
  /** A `--faults` rules file, relative to `cwd`: the run's requests get its faults. */
  faults?: string;
  cwd?: string;
}

/**
 * Starts the mock for a run; `who` names what asked for it in the error of a request sent
 * elsewhere (`--mock`). Throws FaultsFileError for a faults file that cannot be used (its line
 * named), and when the mock cannot listen.
 */
export async function startMockRun(who: string, options: MockRunOptions = {}): Promise<MockRun> {
  const faults: FaultPlan | undefined =
    options.faults === undefined ? undefined : readFaultsFile(options.faults, options.cwd ?? process.cwd());
  const running = await startMock({ port: 0, host: '127.0.0.1', token: randomBytes(24).toString('hex'), faults });
  const seed = defaultSeed();
  const variables = mockVariables(bundledCatalog(), seed);
  return {
    url: running.url,
    token: running.token,
    variables,
    ownEnvironment: MOCK_ENVIRONMENT,
    options: {
      overrides: new Map([['base_url', running.url]]),
      confineTo: {
        origin: running.url,
        why: `${who} sends only to the built-in mock: write the request with {{base_url}} or a path that starts with /`,
      },
      // The mock is on this machine: no proxy of the environment applies.
      env: {},
    },
    environments: (setup) => mockEnvironments(setup, running.url, variables),
    missing: (name) => {
      const seeded = seededIds(seed, name);
      return seeded
        ? `the mock's ${seeded.table} are ${seeded.ids.join(', ')}`
        : `the mock offers ${variables.map((v) => v.name).join(', ')}`;
    },
    notes: () =>
      options.faults === undefined
        ? []
        : running.unmatchedFaults().map((rule) => unmatchedNote(options.faults ?? '', rule)),
    close: () => running.close(),
  };
}

/** The folder's environments with the chosen one over the mock's variables and its base_url at the mock (or one that has only the mock's). */
function mockEnvironments(
  setup: Pick<SendSetup, 'files' | 'selected'>,
  url: string,
  variables: readonly MockVariable[],
): SendEnvironments {
  const name = setup.selected ?? MOCK_ENVIRONMENT;
  const vars: Record<string, string> = dictFrom<string>({});
  for (const v of variables) setOwn(vars, v.name, v.value);
  for (const [k, v] of Object.entries(own(setup.files.environments, name) ?? {})) setOwn(vars, k, v);
  setOwn(vars, 'base_url', url);
  const environments = dictFrom(setup.files.environments);
  setOwn(environments, name, vars);
  // The private file's values stay secrets: kept out of output (they go only to the mock).
  return { environments, selected: name, privateNames: setup.files.privateNames };
}

/** A `--faults` file that cannot be used: the message names the file and, for a mistake in it, the line. */
export class FaultsFileError extends Error {}

/** Reads and checks a `--faults` rules file (relative to `cwd`). Throws FaultsFileError. */
export function readFaultsFile(file: string, cwd: string): FaultPlan {
  const read = readTextFileSync(resolve(cwd, file));
  if (read.problem !== undefined) throw new FaultsFileError(`the faults file ${file}: ${read.problem}`);
  try {
    return parseFaults(read.text);
  } catch (e) {
    if (e instanceof FaultsError) throw new FaultsFileError(`the faults file ${file}, line ${e.line}: ${e.message}`);
    throw e;
  }
}
