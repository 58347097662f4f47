/**
 * The send stage of `npm start` (bundled to dist/demo.js): starts the local mock API in
 * this process, sends example requests from examples/ through the sender exactly as the
 * editor does (a multi-step flow among them: create a module, add items to it, publish
 * it), prints each typed response, then stops the mock.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { Checker, parseDocument, type LpreqDocument } from '../core/index';
import { startMock } from '../mock/index';
import { loadEnvironmentFiles } from '../node/index';
import { blockNamed, sendBlock, type SendResult, type StoredExchange } from '../sender/index';

interface Step {
  file: string;
  /** A request name, or the title the request has in the file. */
  name?: string;
  title?: string;
  allPages?: boolean;
  why: string;
}

const STEPS: Step[] = [
  {
    file: 'modules-and-items.lpreq',
    title: 'List modules with their items and content details (paginated)',
    allPages: true,
    why: 'every page of the modules of course 42 (BIO-101)',
  },
  { file: 'modules-and-items.lpreq', name: 'createModule', why: 'step 1 of a flow: create a module' },
  {
    file: 'modules-and-items.lpreq',
    name: 'addLabReport',
    why: 'step 2: add an assignment to the module just created ({{createModule.response.body.$.id}})',
  },
  {
    file: 'modules-and-items.lpreq',
    title: 'Add a quiz that needs a minimum score (min_score is required for type min_score)',
    why: 'step 3: add a quiz item',
  },
  { file: 'modules-and-items.lpreq', title: 'Rename and publish the new module', why: 'step 4: publish the module' },
  {
    file: 'files-and-folders.lpreq',
    title: 'Resolve a folder path: every folder from the root down to "handouts/week 1"',
    why: 'a folder path resolved to the folders along it',
  },
  {
    file: 'quiz-submissions.lpreq',
    title: 'All submissions of the quiz, with the student and the assignment submission',
    why: 'quiz submissions (the quiz_submissions wrapper)',
  },
];

function findTitle(document: LpreqDocument, title: string): number {
  return document.blocks.findIndex(({ block }) => block.title?.text === title);
}

function summarise(value: unknown, depth = 0): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const lines = text.split('\n');
  return lines.length > 24 + depth ? `${lines.slice(0, 24).join('\n')}\n  ... (${lines.length - 24} more lines)` : text;
}

function print(step: Step, label: string, result: SendResult) {
  const status = result.response?.status ?? 'no response';
  console.log(`\n--- ${label}\n    ${step.why}`);
  if (result.request) console.log(`    ${result.request.method} ${result.request.url}`);
  for (const d of result.dependencies) console.log(`    (sent ${d.name} first: ${d.status ?? 'failed'})`);
  console.log(
    `    ${status}${result.response?.pages && result.response.pages > 1 ? ` (${result.response.pages} pages merged)` : ''}  type: ${result.resource ?? 'not documented'}  ${result.issues.length} typed issue(s)`,
  );
  for (const issue of result.issues.slice(0, 5)) console.log(`      ${issue.code} ${issue.path}: ${issue.message}`);
  if (result.error) console.log(`    error: ${result.error.message}`);
  if (result.response?.body !== undefined) console.log(summarise(result.response.body).replace(/^/gm, '    '));
}

export async function runDemo(root: string): Promise<number> {
  const catalog = bundledCatalog();
  const checker = new Checker(catalog);
  const examples = join(root, 'examples');
  const env = loadEnvironmentFiles(examples);
  const local = env.environments.local;
  const wanted = new URL(local.base_url);
  let mock;
  try {
    mock = await startMock({ port: Number(wanted.port), host: wanted.hostname, catalog });
  } catch {
    // Port 4010 is taken: run on a free port and point the local environment there for this run.
    mock = await startMock({ port: 0, host: '127.0.0.1', catalog });
  }
  const environments = {
    environments: { ...env.environments, local: { ...local, base_url: mock.url } },
    selected: 'local',
  };
  console.log(
    `\n== lpreq mock: the local Learning Platform API at ${mock.url} (token ${mock.token ? 'generated for this run' : 'given'}) ==`,
  );
  const documents = new Map<string, LpreqDocument>();
  const responses = new Map<string, Map<string, StoredExchange>>();
  let failures = 0;
  try {
    for (const step of STEPS) {
      let document = documents.get(step.file);
      if (!document) {
        document = parseDocument(readFileSync(join(examples, step.file), 'utf8'));
        documents.set(step.file, document);
        responses.set(step.file, new Map());
      }
      const index = step.name ? blockNamed(document, step.name) : findTitle(document, step.title ?? '');
      if (index === -1) {
        console.log(`\n--- ${step.file}: no request ${step.name ?? step.title}`);
        failures++;
        continue;
      }
      const result = await sendBlock(document, index, {
        checker,
        environments,
        token: mock.token,
        responses: responses.get(step.file),
        allPages: step.allPages,
        timeoutMs: 10_000,
      });
      const block = document.blocks[index].block;
      print(step, `${step.file}: ${block.title?.text ?? step.name}`, result);
      if (!result.ok) failures++;
    }
  } finally {
    await mock.close();
  }
  console.log(
    `\n== ${STEPS.length - failures} of ${STEPS.length} requests answered with 2xx; the mock has stopped ==\n`,
  );
  return failures === 0 ? 0 : 1;
}

runDemo(process.argv[2] ?? process.cwd()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`lpreq demo: ${(e as Error).message}`);
    process.exitCode = 1;
  },
);
