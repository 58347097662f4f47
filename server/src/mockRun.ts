/**
 * A test run against the built-in mock: what `lpreq test --mock` and the editor's run profile
 * "against the built-in mock" share, so that both start the mock and aim the runner at it the
 * same way. The mock listens on 127.0.0.1 with a token of its own (no real token is ever sent
 * to it); the chosen environment lends its variables with its base_url pointed at the mock;
 * and the runner is confined to the mock's origin, so a request written for any other address
 * is not sent and fails.
 */
import { randomBytes } from 'node:crypto';
import { dictFrom, own, setOwn } from './core/index';
import { startMock } from './mock/index';
import type { RunOptions, SendEnvironments, SendSetup } from './sender/index';

/** The name of the environment a mock run makes when the files have none to take variables from. */
const MOCK_ENVIRONMENT = 'lpreq-mock';

export interface MockRun {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The mock's own token: the only one a mock run sends. */
  token: string;
  /** The runner's options that send to the mock and nowhere else. */
  options: Pick<RunOptions, 'overrides' | 'confineTo' | 'env'>;
  /** The environments of a file's setup (`sendSetup(file, { forMock: true })`) with the chosen one's base_url at the mock. */
  environments(setup: Pick<SendSetup, 'files' | 'selected'>): SendEnvironments;
  close(): Promise<void>;
}

/** Starts the mock for a run; `who` names what asked for it in the error of a request sent elsewhere (`--mock`). Throws when the mock cannot listen. */
export async function startMockRun(who: string): Promise<MockRun> {
  const running = await startMock({ port: 0, host: '127.0.0.1', token: randomBytes(24).toString('hex') });
  return {
    url: running.url,
    token: running.token,
    options: {
      overrides: new Map([['base_url', running.url]]),
      confineTo: {
        origin: running.url,
        why: `${who} sends only to the built-in mock: write the request with {{base_url}} or a path that starts with /`,
      },
      // The mock is on this machine: no proxy of the environment applies.
      env: {},
    },
    environments: (setup) => mockEnvironments(setup, running.url),
    close: () => running.close(),
  };
}

/** The folder's environments with the chosen one's base_url at the mock (or a new one that has only that). */
function mockEnvironments(setup: Pick<SendSetup, 'files' | 'selected'>, url: string): SendEnvironments {
  const name = setup.selected ?? MOCK_ENVIRONMENT;
  const vars = dictFrom<string>(own(setup.files.environments, name) ?? {});
  setOwn(vars, 'base_url', url);
  const environments = dictFrom(setup.files.environments);
  setOwn(environments, name, vars);
  // The private file's values stay secrets: kept out of output (they go only to the mock).
  return { environments, selected: name, privateNames: setup.files.privateNames };
}
