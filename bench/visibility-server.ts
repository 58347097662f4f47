/**
 * The mocks of bench/visibility-bench.ts, in a process of their own (bundled by the bench, so
 * that they run as the built mock runs): `with` serves the catalog as it is, `without` the
 * catalog less every visibility statement. It prints their addresses and runs until stopped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../server/src/core/index';
import { startMock } from '../server/src/mock/index';

const ROOT = process.env.LPREQ_ROOT ?? join(__dirname, '..', '..');

/** The bundled seed with 100 more courses Priya studies in and 100 more published modules in BIO-101. */
function benchSeed(): Record<string, unknown> {
  const seed = JSON.parse(readFileSync(join(ROOT, 'server', 'src', 'mock', 'seed.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>[]
  >;
  for (let i = 0; i < 100; i++) {
    const id = 1000 + i;
    seed.courses.push({
      id,
      sis_course_id: `BENCH-${i}`,
      integration_id: `NSU-BENCH-${i}`,
      sis_import_id: 311,
      name: `Bench course ${i}`,
      course_code: `BENCH-${i}`,
      workflow_state: 'available',
      account_id: 1,
      enrollment_term_id: 3,
      default_view: 'modules',
      storage_quota_mb: 500,
    });
    seed.enrollments.push({ id: 20000 + i, course_id: id, user_id: 1001, type: 'StudentEnrollment' });
    seed.modules.push({
      id: 3000 + i,
      course_id: 42,
      name: `Bench module ${i}`,
      position: 7 + i,
      published: true,
      require_sequential_progress: false,
    });
    seed.module_items.push({
      id: 4000 + i,
      module_id: 3000 + i,
      course_id: 42,
      position: 1,
      indent: 0,
      title: `Bench page ${i}`,
      type: 'Page',
      page_url: `bench-${i}`,
      completion_requirement: { type: 'must_view' },
      published: true,
    });
  }
  return seed;
}

/** The catalog as it is, less every visibility statement. */
function catalogWithoutStatements() {
  const read = (name: string) =>
    JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')) as Record<string, unknown>;
  const endpointFiles = Object.fromEntries(
    ['A', 'B', 'C'].map((d) => {
      const file = read(`${d}.endpoints.json`) as { endpoints: Record<string, unknown>[] };
      for (const e of file.endpoints) delete e.visibility;
      return [`${d}.endpoints.json`, file];
    }),
  );
  const resources = read('resources.json') as { resources: { fields: Record<string, unknown>[] }[] };
  for (const r of resources.resources) for (const f of r.fields) delete f.visibility;
  return loadCatalog({ endpointFiles, resourceFile: resources });
}

const options = {
  port: 0,
  seed: benchSeed() as never,
  userTokens: [
    { userId: 1001, token: 'bench-student-token' },
    { userId: 9, token: 'bench-admin-token' },
  ],
};
// `with without`: the two mocks in this one process, so that what they are compared on (the
// machine, the heap, the compiled code of everything they share) is the same.
const variants = process.argv.slice(2).filter((a) => a === 'with' || a === 'without');
Promise.all(
  variants.map((v) => startMock({ ...options, ...(v === 'without' ? { catalog: catalogWithoutStatements() } : {}) })),
).then(
  (mocks) => {
    console.log(mocks.map((m) => m.url).join(' '));
    // The bench asks for this process's CPU time (microseconds, user and system) between blocks of requests.
    process.on('message', () => {
      const used = process.cpuUsage();
      process.send?.(used.user + used.system);
    });
    process.on('SIGTERM', () => void Promise.all(mocks.map((m) => m.close())).then(() => process.exit(0)));
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
