/**
 * The repository of issue 27's "hosts agree" tests (test/system/hostsAgree.test.ts and the
 * extension's end-to-end run): environments `dev` and `staging`, no `local`, a token per
 * environment, and a chain of three requests (a list, then an item of the first, then a
 * write), against two recording servers on 127.0.0.1 that answer with ids of their own
 * (dev's modules are 5 and 6, staging's 7 and 8) and refuse any other token with a 401.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ENVIRONMENTS = ['dev', 'staging'] as const;
export type EnvironmentName = (typeof ENVIRONMENTS)[number];

/** Each environment's token (they look real and appear nowhere else) and the ids its server answers. */
export const HOSTS_TOKENS: Record<EnvironmentName, string> = {
  dev: `hosts-dev-token-${process.pid}-4b1d`,
  staging: `hosts-staging-token-${process.pid}-9e2c`,
};
export const MODULE_IDS: Record<EnvironmentName, number[]> = { dev: [5, 6], staging: [7, 8] };

/** One request a recording server got. */
export interface Recorded {
  environment: EnvironmentName;
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface RecordingServers {
  origins: Record<EnvironmentName, string>;
  received: Recorded[];
  close(): Promise<void>;
}

/** The two servers: GET the modules of course 42, GET one, PUT one (renamed); a 401 to a wrong token; a 404 otherwise. */
export async function startRecordingServers(): Promise<RecordingServers> {
  const received: Recorded[] = [];
  const servers: Server[] = [];
  const origins = {} as Record<EnvironmentName, string>;
  for (const environment of ENVIRONMENTS) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '';
        received.push({ environment, method: req.method ?? '', path, authorization: req.headers.authorization, body });
        const answer = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.headers.authorization !== `Bearer ${HOSTS_TOKENS[environment]}`)
          return answer(401, { errors: [{ message: 'Invalid access token.' }] });
        const module = (id: number, name = `${environment} module ${id}`) => ({
          id,
          name,
          position: MODULE_IDS[environment].indexOf(id) + 1,
          workflow_state: 'active',
          items_count: 0,
          published: true,
        });
        if (req.method === 'GET' && path === '/api/v1/courses/42/modules')
          return answer(
            200,
            MODULE_IDS[environment].map((id) => module(id)),
          );
        const one = /^\/api\/v1\/courses\/42\/modules\/(\d+)$/.exec(path);
        if (one && MODULE_IDS[environment].includes(Number(one[1]))) {
          if (req.method === 'GET') return answer(200, module(Number(one[1])));
          if (req.method === 'PUT')
            return answer(200, module(Number(one[1]), new URLSearchParams(body).get('module[name]') ?? ''));
        }
        answer(404, { errors: [{ message: 'The specified resource does not exist.' }] });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origins[environment] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
  }
  return {
    origins,
    received,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}

/** The chain: a list, an item of the first, a write to it; each with assertions, as tests. */
export const CHAIN_FILE = join('requests', 'modules.lpreq');
export const CHAIN = [
  '### List the modules of the course',
  '# @name listModules',
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules',
  '',
  '?? status == 200',
  '',
  '### The first module',
  '# @name firstModule',
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules/{{listModules.response.body.$[0].id}}',
  '',
  '?? body $.id == {{listModules.response.body.$[0].id}}',
  '',
  '### Rename it',
  '# @name renameModule',
  'PUT {{base_url}}/api/v1/courses/{{course_id}}/modules/{{firstModule.response.body.$.id}}',
  '',
  'module[name] = Week 1: Renamed',
  '',
  '?? body $.name == Week 1: Renamed',
  '',
].join('\n');
export const CHAIN_NAMES = ['listModules', 'firstModule', 'renameModule'];
/** The 0-based request lines of the chain, as an editor's command gives them. */
export const CHAIN_LINES = CHAIN.split('\n').flatMap((l, i) => (/^(GET|PUT) /.test(l) ? [i] : []));

/**
 * Writes the repository into `dir`: the environments (both on course 42, which the mock's
 * seed has too), their tokens in the private file, and the chain. Returns the chain's path.
 */
export function writeHostsRepository(dir: string, origins: Record<EnvironmentName, string>, tokens = true): string {
  mkdirSync(join(dir, 'requests'), { recursive: true });
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify(
      {
        dev: { base_url: origins.dev, course_id: '42' },
        staging: { base_url: origins.staging, course_id: '42' },
      },
      null,
      2,
    ),
  );
  if (tokens)
    writeFileSync(
      join(dir, 'http-client.private.env.json'),
      JSON.stringify({ dev: { token: HOSTS_TOKENS.dev }, staging: { token: HOSTS_TOKENS.staging } }, null, 2),
    );
  writeFileSync(join(dir, CHAIN_FILE), CHAIN);
  return join(dir, CHAIN_FILE);
}

/** What a host should have sent in one turn in an environment: the list, then the item and the write of that environment's first module. */
export function expectedTurn(environment: EnvironmentName): string[] {
  const id = MODULE_IDS[environment][0];
  return [
    `${environment} GET /api/v1/courses/42/modules`,
    `${environment} GET /api/v1/courses/42/modules/${id}`,
    `${environment} PUT /api/v1/courses/42/modules/${id}`,
  ];
}

/** What the servers got, as `expectedTurn` writes it; every request with its own environment's token. */
export function traffic(received: readonly Recorded[]): string[] {
  return received.map((r) => {
    const own = r.authorization === `Bearer ${HOSTS_TOKENS[r.environment]}`;
    return `${r.environment} ${r.method} ${r.path}${own ? '' : ` (authorization: ${r.authorization ? 'another token' : 'none'})`}`;
  });
}
