/**
 * The hostile repository of issue 26: a clone made by someone else, with a link in every
 * place lpreq reads or writes (`.env`, `.lpreq/` and what is in it, an environment file, body
 * files, a `$tls` file, `.lpreqtestignore`), a FIFO and /dev/zero where a body file is read,
 * a `production` environment pointed at another origin, and request files that try every way
 * out. Beside it stands the user's home (`home/`): the secrets and files the links point at.
 * Links, FIFOs and devices cannot be committed to this repository, so the clone is built here.
 *
 * A test runs lpreq in the clone and then asks `escapes()`: what of the home changed, and
 * where a secret of the home went.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, lstatSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempDir } from './helpers';

/** Values of the home that must never leave it, in a request, an output or a file of the clone. */
export const HOME_SECRETS = ['hostile-aws-secret-4242', 'hostile-plain-value-4242', 'home-private-value-4242'];

export interface HostileRepo {
  /** The clone: http-client.env.json is here, requests in `requests/`. */
  repo: string;
  /** The user's home beside it. */
  home: string;
  /** The request file that tries every way out, and the 1-based lines of its requests. */
  requests: string;
  lines: Record<'relative' | 'absolute' | 'link' | 'fifo' | 'device' | 'dotenv' | 'regex', number>;
  /** A folder whose private environment file is a link to the home. */
  linkedEnv: string;
  /** Every file of the home with its content (a folder as ''), for after. */
  snapshot(): Map<string, string>;
}

/** `base` is the server the dev and staging environments send to; `other` the origin production names. */
export function hostileRepo(base: string, other: string): HostileRepo {
  const root = tempDir('hostile');
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(join(home, 'history'), { recursive: true });
  mkdirSync(join(home, 'responses'));
  writeFileSync(join(home, 'credentials'), `AWS_SECRET_ACCESS_KEY=${HOME_SECRETS[0]}\nPLAIN_NAME=${HOME_SECRETS[1]}\n`);
  writeFileSync(join(home, 'private.env.json'), JSON.stringify({ dev: { stolen: HOME_SECRETS[2] } }));
  writeFileSync(join(home, 'victim'), 'untouched\n');
  writeFileSync(join(home, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nhome\n-----END CERTIFICATE-----\n');

  mkdirSync(join(repo, 'requests'), { recursive: true });
  mkdirSync(join(repo, '.lpreq'));
  writeFileSync(
    join(repo, 'http-client.env.json'),
    JSON.stringify({
      dev: { base_url: base },
      staging: { base_url: base },
      production: { base_url: other },
      tls: { base_url: 'https://127.0.0.1:9', $tls: { ca: '../home/ca.pem' } },
    }),
  );
  // Everything lpreq reads or writes, as a link to the home.
  symlinkSync(join(home, 'credentials'), join(repo, '.env'));
  symlinkSync(join(home, 'credentials'), join(repo, 'requests', '.env'));
  symlinkSync(join(home, 'history'), join(repo, '.lpreq', 'history'));
  symlinkSync(join(home, 'responses'), join(repo, '.lpreq', 'responses'));
  symlinkSync(join(home, 'victim'), join(repo, '.lpreq', '.gitignore'));
  symlinkSync(join(home, 'victim'), join(repo, '.lpreq', 'environment.json'));
  // The temporary name of this process and of the next few (a language server started next).
  for (let pid = process.pid; pid < process.pid + 20; pid++)
    symlinkSync(join(home, 'victim'), join(repo, '.lpreq', `environment.json.tmp-${pid}`));
  symlinkSync(join(home, 'victim'), join(repo, '.lpreqtestignore'));
  symlinkSync(join(home, 'victim'), join(repo, 'requests', '.lpreqtestignore'));
  symlinkSync(join(home, 'credentials'), join(repo, 'requests', 'key.txt'));
  symlinkSync('/dev/zero', join(repo, 'requests', 'zero'));
  if (spawnSync('mkfifo', [join(repo, 'requests', 'fifo.json')]).status !== 0) throw new Error('mkfifo failed');
  const linkedEnv = join(repo, 'linked');
  mkdirSync(linkedEnv);
  symlinkSync(join(home, 'private.env.json'), join(linkedEnv, 'http-client.private.env.json'));
  writeFileSync(join(linkedEnv, 'a.lpreq'), 'GET {{base_url}}/api/v1/courses/42/modules?s={{stolen}}\n');

  const blocks: [keyof HostileRepo['lines'], string][] = [
    ['relative', `POST {{base_url}}/api/v1/courses/42/modules\nContent-Type: text/plain\n\n< ../../home/credentials`],
    [
      'absolute',
      `POST {{base_url}}/api/v1/courses/42/modules\nContent-Type: text/plain\n\n< ${join(home, 'credentials')}`,
    ],
    ['link', 'POST {{base_url}}/api/v1/courses/42/modules\nContent-Type: text/plain\n\n< ./key.txt'],
    ['fifo', 'POST {{base_url}}/api/v1/courses/42/modules\nContent-Type: application/json\n\n< ./fifo.json'],
    ['device', 'POST {{base_url}}/api/v1/courses/42/modules\nContent-Type: text/plain\n\n< ./zero'],
    [
      'dotenv',
      'GET {{base_url}}/api/v1/courses/42/modules?search_term={{$dotenv AWS_SECRET_ACCESS_KEY}}\nX-Plain: {{$dotenv PLAIN_NAME}}',
    ],
    // Only a backtracking engine runs it (the lookahead): it spends its whole budget.
    ['regex', 'GET {{base_url}}/api/v1/courses/42/modules\n?? body $[0].name matches ^(a|aa)+(?=b)'],
  ];
  let text = '';
  const lines = {} as HostileRepo['lines'];
  for (const [name, block] of blocks) {
    text += `### ${name}\n# @name ${name}\n# @allow-invalid\n`;
    lines[name] = text.split('\n').length;
    text += `${block}\n\n`;
  }
  const requests = join(repo, 'requests', 'out.lpreq');
  writeFileSync(requests, text);

  const snapshot = () => {
    const out = new Map<string, string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (lstatSync(path).isDirectory()) {
          out.set(relative(home, path), '');
          walk(path);
        } else out.set(relative(home, path), readFileSync(path, 'utf8'));
      }
    };
    walk(home);
    return out;
  };
  return { repo, home, requests, lines, linkedEnv, snapshot };
}

/** Whether a text holds a value of the home. */
export function holdsHomeSecret(text: string): string | undefined {
  return HOME_SECRETS.find((s) => text.includes(s));
}
