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
import { bundledCatalog } from './catalogData';
import { dictFrom, own, setOwn } from './core/index';
import { defaultSeed, mockVariables, seededIds, startMock, type MockVariable } from './mock/index';
import type { MockTarget, RunOptions, SendEnvironments, SendSetup } from './sender/index';

/** The name of the environment a mock run makes when no environment lends its variables. */
export const MOCK_ENVIRONMENT = 'lpreq-mock';

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
  close(): Promise<void>;
}

/** Starts the mock for a run; `who` names what asked for it in the error of a request sent elsewhere (`--mock`). Throws when the mock cannot listen. */
export async function startMockRun(who: string): Promise<MockRun> {
  const running = await startMock({ port: 0, host: '127.0.0.1', token: randomBytes(24).toString('hex') });
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
